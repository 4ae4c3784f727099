"""Korona: a disc knocked away unseen (a ghost, ``lifecycle.knocked_unseen``) may be found again by
the tracker's wide second stage, but only ahead of the place it was knocked from along its blow's
course (``behind_blow``). A function of the :class:`tracker.track.Tracker` (``tk``).

A struck disc leaves along the line of centres, which has a positive part along the striker's
heading: it is never knocked back behind its place. The blow's forecast (the striker's blurred
heading, the contact point) may miss the true line by tens of degrees and half the speed, so the
forecast course alone finds it again only when it happens to lie near (k2e_9995 at 22.43 s: s3,
struck a glancing blow west, was forecast 33 degrees off its way at half its speed and found
53 mm from its forecast; a new track took that sight, then s2's next, and was merged into s3's
ghost: the two swapped names). Any way ahead is allowed; a find behind is another disc's
(k2e_9911 at 35.83 s: s4, knocked east unseen, was offered s2's find 100 mm west of its place).
Only a ghost knocked from a free place (``in_a_row``: a row passes its blow along, which the
row stages follow) and unseen for at most ``FRESH_S`` (later, its forecast coast has drifted:
k4h_9306 at 12.77 s, w8 unseen 0.3 s took w6's find 200 mm off; korona_ru_part at 56.7 s, a
ghost unseen 0.5 s, a find 330 mm off). Nor through a disc resting in its way
(``across_rest``): a disc met on the way is struck and stops the ghost or turns it aside, so a
find beyond it along that line is that disc's or another's (k2e_9983 at 27.30 s: s6, knocked
from (42, 412) along the north rim east by a blow forecast 65 degrees off into the field, struck
s7 resting 30 mm east and stopped by its place; s7, knocked on, was found at (107, 411) beyond
s6's, and the ghost, 28 mm "ahead" along its forecast, took it while s7's track took s6's find
by its own place: the two swapped names). ``TrackerConfig.ghost_ahead``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tracker.detect.datatypes import Detections
from tracker.track.association import BIG
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.track.tracker import Tracker

FRESH_S = 0.2  # s: unseen longer, a ghost is found again only near its forecast (the first stage)
ROW_SLACK_MM = 5.0  # mm beyond two radii within which a disc touches another (a row)
GRAZE_MM = 5.0  # mm inside two radii within which a run past a resting disc only grazes it


def course(tr: Track) -> np.ndarray | None:
    """The unit heading of a ghost's course: from the place it was knocked from to where its
    forecast has taken it (its velocity when that is still its place); None without one."""
    if tr.rest_xy is None:
        return None
    run = tr.xy - np.asarray(tr.rest_xy, float)
    if float(np.hypot(*run)) < 1e-6:
        run = tr.v
    n = float(np.hypot(*run))
    return run / n if n > 1e-6 else None


def in_a_row(tk: Tracker, tr: Track, q: np.ndarray) -> bool:
    """Whether another disc in play lay within ``ROW_SLACK_MM`` of touching ``tr`` at ``q`` (where
    it rests, or where a moving one rested)."""
    for o in tk.tracks:
        if o is tr or not o.alive or o.kind != tr.kind:
            continue
        p = o.rest_xy if o.state == "moving" and o.rest_xy is not None else o.settled_xy
        if float(np.hypot(p[0] - q[0], p[1] - q[1])) < tr.radius + o.radius + ROW_SLACK_MM:
            return True
    return False


def may_seek(tk: Tracker, tr: Track) -> bool:
    """Whether the ghost ``tr`` may take part in the wide stage: unseen for at most ``FRESH_S``,
    knocked from a free place (not ``in_a_row``), with a course (``course``)."""
    return (tk._t_now - tr.last_seen <= FRESH_S and tr.rest_xy is not None
            and not in_a_row(tk, tr, np.asarray(tr.rest_xy, float)) and course(tr) is not None)


def across_rest(tk: Tracker, tr: Track, p: np.ndarray, q: np.ndarray) -> bool:
    """Whether a disc resting in play (other than ``tr``) lies across ``tr``'s straight run from
    ``p`` to ``q``: its centre between the two along the run, within two radii less
    ``GRAZE_MM`` of the line (the run would have struck it, not passed it)."""
    run = q - p
    n = float(np.hypot(*run))
    if n < 1e-6:
        return False
    u = run / n
    for o in tk.tracks:
        if o is tr or not o.alive or o.state != "rest":
            continue
        w = np.asarray(o.settled_xy, float) - p
        along = float(w @ u)
        if 0.0 < along < n and abs(float(w[0] * u[1] - w[1] * u[0])) < tr.radius + o.radius - GRAZE_MM:
            return True
    return False


def behind_blow(tk: Tracker, rows: Sequence[Track], cand: list[int], dets: Detections, dcols: list[int]) -> np.ndarray:
    """BIG for a ghost (one ``may_seek`` let in) and a detection not ahead of the place it was
    knocked from along its course (``course``), or beyond a disc resting across the way there
    (``across_rest``); 0 elsewhere."""
    out = np.zeros((len(cand), len(dcols)))
    if not len(dcols):
        return out
    for a, i in enumerate(cand):
        tr = rows[i]
        if tr.id not in tk._ghosts or tr in tk._tentative or tr.rest_xy is None:
            continue
        u = course(tr)
        if u is None:
            out[a] = BIG
            continue
        p = np.asarray(tr.rest_xy, float)
        along = (dets.xy[dcols] - p) @ u
        out[a, along <= 0.0] = BIG
        for b, j in enumerate(dcols):
            if along[b] > 0.0 and across_rest(tk, tr, p, dets.xy[j].astype(float)):
                out[a, b] = BIG
    return out
