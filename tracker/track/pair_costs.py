"""What a (track, detection) pair costs beyond its distance, for the tracker's first stage
(:func:`tracker.track.prediction.predict` gives the hypotheses and gates): kind, colour class and
top-face colour (:func:`penalties`, :func:`colour_penalty`), a korona striker's groove rings
(:func:`striker_rings`), and the struck discs' forecasts (:func:`struck_penalty`,
:func:`beyond_struck_penalty`). They only read the tracks, never change them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.detect.datatypes import DISC, IN_HOLE, STRIKER, Detections
from tracker.track.association import BIG
from tracker.track.datatypes import Track
from tracker.track.lifecycle import HOLE_UNCOVERED_S
from tracker.track.prediction import HOLE_SKIP_SPEED, pushed_into_rim

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker


def penalties(rows: Sequence[Track], dets: Detections, striker_radius: float | None = None,
              ring: np.ndarray | None = None, struck: Collection[int] = ()) -> np.ndarray:
    """(T, D): BIG for a pair of unlike kinds (disc, striker), a radius for unlike colour classes.

    Korona (``striker_radius`` given): a moving disc blurs into a ring larger than a disc, and
    the detector names it a striker when the ring is nearer a striker's size (korona_2p_game
    at 18.6 s: a disc knocked towards a pocket measured 21 mm, a disc 12.5, a striker 25). A
    moving disc's track may take a "striker" smaller than a striker, at a radius's cost, so it
    is not lost on its way into the pocket while a new track, nameless, takes its run. So may
    the track of a resting disc that is not seen this moment (knocked away unseen, it is set
    moving only once missed: korona_2p_game at 22.7 s, a rim disc knocked along the rim and
    seen once, blurred, on its way into the sw pocket). So may a resting disc a mover is due to
    strike this frame (``struck``, the ids of ``Tracker._struck``; korona_ru_part at 24.0 s: n7,
    struck by north's striker and seen once as a 22 mm "striker" on its way into the se pocket,
    was left to a new track, lost, and called covered where it had lain).

    Korona, the other way round: a striker's track may take a "disc" where ``ring`` says so
    (:func:`striker_rings`), at a disc radius's cost."""
    if not len(rows) or not len(dets):
        return np.zeros((len(rows), len(dets)))
    kinds = np.array([tr.kind for tr in rows])
    cls = np.array([tr.cls for tr in rows])
    radius = np.array([tr.radius for tr in rows])
    pen = np.where(kinds[:, None] != dets.kind[None, :], BIG, 0.0)
    if striker_radius is not None:
        moving = np.array([tr.kind == DISC and (tr.state == "moving" or (
            tr.state == "rest" and (tr.occluded or tr.id in struck))) for tr in rows])
        blurred = (dets.kind == STRIKER) & (dets.radius < striker_radius)
        pen = np.where(moving[:, None] & blurred[None, :], radius[:, None], pen)
        if ring is not None:
            pen = np.where(ring, np.where(dets.radius > 0, dets.radius, 0.5 * striker_radius)[None, :], pen)
    clash = (cls[:, None] >= 0) & (dets.cls[None, :] >= 0) & (cls[:, None] != dets.cls[None, :])
    return pen + np.where(clash, radius[:, None], 0.0)


def striker_rings(tk: Tracker, rows: Sequence[Track], dets: Detections, dt: float) -> np.ndarray | None:
    """(T, D) korona: True where a striker's track may take a "disc" detection, None on
    crokinole. The detector sees a striker come to rest as the ring of its top's groove,
    disc-sized. A striker at rest or all but stopped (under half its radius a frame), seen a
    frame or two ago, and a "disc" within half its radius of that sighting: no disc's centre can
    lie so deep inside a striker, so the find is the striker (k4h_9912 at 31.43 s: south's
    striker stopped, found as a 12.9 mm disc 5 mm from its last sighting; the disc it had
    struck took it, and that disc's name stayed on the striker).

    ``TrackerConfig.striker_rings`` (on by default; off, the disc a striker struck took the
    striker's ring and name: k2e_9923 at 27.77 s, n6 struck along the south rim, its track took
    the stopped striker's ring and n6's run became a new track). It was off while the events
    misread k2e_9605's last shot with it (the striker on its line, seen as a disc, was not taken
    up when flicked: ``confirm.striker_seen_as_disc``, now with the line's margin) and read a
    striker set on its line as where another went unseen (``segmenter``: no longer), and lost
    shots whose striker, unseen leaving, stopped on the far striking line (kept as a striker
    there, it was taken for one a hand set down: ``unseen.unseen_shot``, no longer for one seen
    flying in). On, with those (full reviews): k2e_9923 shots 88/88 -> 100/100%, switches
    25 -> 0 per 100 shots (rest p95 3.55 -> 7.9 mm: the two shots it now reads are measured);
    k2e_9605 shots 88/100 -> 100/100%; k4h_9912 switches 12.5 -> 0; rest positions k2e_9505
    1.81/6.52 -> 1.50/3.30 mm, k2e_9705 p95 5.93 -> 4.17 mm; the other korona dev matches and
    fixtures unchanged."""
    r = tk._striker_r
    if r is None or not tk.cfg.striker_rings:
        return None
    out = np.zeros((len(rows), len(dets)), bool)
    discs = dets.kind == DISC
    if not discs.any():
        return out
    for i, tr in enumerate(rows):
        if tr.kind != STRIKER or tr in tk._tentative or tr.state not in ("rest", "moving"):
            continue
        seen = tr.last_sighting()
        if seen is None or tk._t_now - seen.t > 3.5 * dt or tr.speed * dt > 0.5 * r:
            continue
        out[i] = discs & (np.hypot(dets.xy[:, 0] - seen.x, dets.xy[:, 1] - seen.y) <= 0.5 * r)
    return out


def colour_penalty(rows: Sequence[Track], dets: Detections, unlike: float | None = None) -> np.ndarray:
    """(T, D) mm added to a pair when the detection's top-face colour is far from the
    track's own.

    Position alone can swap discs in the commonest hit, head-on: the shooter stops about
    where the struck disc rested, and a collision forecast that is a little off pairs each
    with the other's detection. Players' discs differ in colour. A moving disc's colour is
    measured through blur (on the fixtures 95% of a disc's own matches lie within 33 Lab
    units while it moves, 99% within 20 at rest), so only a gap beyond 25 counts, growing
    to two radii at 75: a light track then falls outside its tight gate for a dark
    detection and is matched in the wide stage instead, where the right disc is in reach.

    ``unlike`` (``TrackerConfig.colour_gate``): a sharp detection (blur under a radius) further
    than that from the track's known colour is never its disc (BIG, not a penalty a wide gate
    can pay: the light and dark discs of crokinole's sides are ~50 Lab apart)."""
    out = np.zeros((len(rows), len(dets)))
    if not len(rows) or not len(dets):
        return out
    known = np.array([tr.color_n >= 3 for tr in rows])
    seen = np.any(dets.color != 0, axis=1)
    if not known.any() or not seen.any():
        return out
    tc = np.array([tr.color for tr in rows], float)
    de = np.linalg.norm(tc[:, None, :] - dets.color[None, :, :], axis=2)
    radius = np.array([tr.radius for tr in rows])
    pen = radius[:, None] * np.clip((de - 25.0) / 25.0, 0.0, 2.0)
    if unlike is not None:
        sharp = np.hypot(dets.streak[:, 0], dets.streak[:, 1])[None, :] < radius[:, None]
        pen = np.where(sharp & (de > unlike), BIG, pen)
    return np.where(known[:, None] & seen[None, :], pen, 0.0)


def struck_penalty(tk: Tracker, rows: Sequence[Track], dets: Detections) -> np.ndarray:
    """(T, D): BIG for a resting disc and a detection the blow it may get this frame could not
    have sent it to. Detections within a few mm of where it rests (its own) are never penalised.

    * Well behind where it rests, against the push, when a mover is due to hit it now
      (``tk._struck``): a struck disc is driven away from the disc that hits it, along the line
      of their centres. Without this, a struck disc beside the 20-hole took a spurious detection
      in the empty hole on the far side and was called a 20, while its own detection, where the
      blow sent it, started a new track (a rendered match, seed 7301, shot 9).
    * In the 20-hole, unless a mover is due to hit it slowly enough to drop it in
      (``HOLE_SKIP_SPEED``): a resting disc does not fall in by itself, and a disc knocked
      faster passes over the hole (same match, shots 11 and 13: the hole empty, the disc
      knocked over it or by a disc first seen that frame).

    * In the 20-hole, for a tentative track, while the hole was just uncovered
      (``HOLE_UNCOVERED_S``): such spurious hole detections appear where a disc had rested over
      the hole's edge, and a track first seen sharp has a wide gate.

    The detector's verdict for a disc really down in the hole is kept by the geometry at rest
    (:func:`tracker.track.fate.where_verdict`) and by moving discs, which are not limited here."""
    out = np.zeros((len(rows), len(dets)))
    if not len(dets):
        return out
    in_hole = dets.where == IN_HOLE
    uncovered = tk._t_now - tk._hole_uncovered < HOLE_UNCOVERED_S
    for i, tr in enumerate(rows):
        if tr in tk._tentative:
            if uncovered:  # nor a disc first seen this moment (see lifecycle.HOLE_UNCOVERED_S)
                out[i, in_hole] = BIG
            continue
        if tr.state != "rest":
            continue
        hit = tk._struck.get(tr.id)
        if hit is None and not in_hole.any():
            continue
        q = tr.settled_xy
        d = dets.xy - q
        dist = np.hypot(d[:, 0], d[:, 1])
        away = dist > 2 * tk.cfg.move_mm
        sp = float(np.hypot(*hit[1])) if hit is not None else 0.0
        if hit is None or sp > HOLE_SKIP_SPEED:  # not struck, or too fast to drop in this frame
            out[i, in_hole & away] = BIG
        if hit is not None and sp > 1e-9:
            # well behind (over 120 degrees off the push: the forecast normal is rough at 10 fps)
            behind = (d @ (hit[1] / sp) < -0.5 * dist) & away
            if pushed_into_rim(tk, q, hit[1] / sp, tr.radius, hit[0]):  # back off the rim, a little
                behind &= dist > tr.radius
            out[i, behind] = BIG
    return out


def beyond_struck_penalty(tk: Tracker, rows: Sequence[Track], dets: Detections) -> np.ndarray:
    """(T, D): BIG for a mover due to hit a resting disc this frame (``tk._striking``, the first
    disc in its path) and a detection beyond that disc's rest place along the line of their
    centres at contact.

    Equal masses: the blow passes the mover's motion along that line to the struck disc (all
    of it but ``(1 - e) / 2``); the mover keeps only the part across it, so it ends on its own
    side of the struck disc, short of where that disc rested. In a head-on hit the shooter
    stops and the struck disc carries on; the struck disc's blur is then drawn out along its
    new course, and a false find on the blur's tail, beyond the struck disc, lay as near the
    shooter's "ran on" forecast as anything: the shooter took it, then the struck disc's own
    detection the frame after, and the two swapped names (crokinole_4p_part at 18.1 s: west's
    w2 head-on into south's s2; removals precision 33%). Disc on disc only (a korona striker
    is heavier than a disc and runs on through it), and crokinole only for now: on korona's
    disc-on-disc blows it also holds (korona_2p_game on truth detections: 3.6 switches per 100
    shots to none), but korona's tracking is measured and tuned on its own."""
    out = np.zeros((len(rows), len(dets)))
    if not len(dets) or not tk._striking:
        return out
    for i, tr in enumerate(rows):
        f = tk._striking.get(tr.id) if tr not in tk._tentative else None
        if f is not None:
            q, n = f
            out[i, (dets.xy - q) @ n > 0.0] = BIG
    return out


def rim_ghost_penalty(tk: Tracker, rows: Sequence[Track], dets: Detections) -> np.ndarray:
    """(T, D) korona: BIG for a disc a striker knocked away unseen into the rim it rested against,
    whose forecast the rim turned back (``Tracker._rim_turned``, ``rims.struck_back_off_rim``; a
    ghost, not seen since), and a detection on the place of another disc unseen now: within that
    disc's radius of where it rests or lies, covered (and not overlapped by a disc seen at rest
    there, which makes it a stale track), or of where a disc knocked away unseen rested; and
    nearer there than the ghost's own rest place.

    A disc a striker drives into the rim either jumps it or is pressed against it and comes back
    off it slowly; its forecast only guesses between them, and its gate, grown with the forecast
    speed while it is unseen, reaches the row-mates the blow shuffled and the detector had lost.
    Their detections lie on or beside their own places: taken by the ghost, the disc that flew
    off "stayed" on the board in a row-mate's place and that row-mate's track was lost (k2e_9965
    at 8.47 s: n5, over the south rim, took n4's detection 6 mm from n4's place, and n4's ghost
    n2's; the off_board was missed). Seen neighbours do not count: a row-mate seen last frame that
    is found moved on leaves its place to the ghost pushed after it (k2e_9983 at 27.33 s: s6,
    pushed 35 mm along the north rim onto s7's place as s7 was knocked on; k4h_9912 at 23.2 s)."""
    out = np.zeros((len(rows), len(dets)))
    ghosts = [i for i, tr in enumerate(rows) if tr.id in tk._rim_turned and tr.id in tk._ghosts
              and tr.state == "moving" and tr.rest_xy is not None and tr not in tk._tentative]
    if not ghosts or not len(dets):
        return out
    places: list[tuple[int, np.ndarray, float]] = []
    seen = [o for o in tk.tracks if o.state == "rest" and not o.occluded]
    for o in tk.tracks:
        if o.kind != DISC:
            continue
        if o.state == "rest" and o.occluded and not any(
                float(np.hypot(*(s.settled_xy - o.settled_xy))) < s.radius + o.radius for s in seen):
            places += [(o.id, o.settled_xy, o.radius), (o.id, o.xy, o.radius)]
        elif o.state == "moving" and o.id in tk._ghosts and o.rest_xy is not None:
            places.append((o.id, np.asarray(o.rest_xy, float), o.radius))
    for i in ghosts:
        tr = rows[i]
        assert tr.rest_xy is not None
        own = np.hypot(dets.xy[:, 0] - tr.rest_xy[0], dets.xy[:, 1] - tr.rest_xy[1])
        for oid, q, r in places:
            if oid == tr.id:
                continue
            d = np.hypot(dets.xy[:, 0] - q[0], dets.xy[:, 1] - q[1])
            out[i, (d <= r) & (d < own)] = BIG
    return out
