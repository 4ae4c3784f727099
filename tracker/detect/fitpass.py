"""The fits of one kind of disc (disc or korona striker) on one detector call: the first pass and
the occlusion-aware second pass (``DiscDetector.detect``, stages 3-5 of its notes).

First pass: every ring-filter candidate (``candidates.py``) away from the discs already taken and
not turned down before where nothing changed since (``rejects.py``) is refined in the original
image (``refine.py``; a plainly open outline is given up after two iterations) and verified
(``verify.py``: outline, colours, not the empty 20-hole). The accepted fits are taken best first
(coverage plus coherence), each keeping the place of the disc it found. Second pass
(``clusters.py``): discs touching one found, over the 20-hole or in a korona row, refitted with
their shared sides masked, seeded from the first pass's rejected candidates and around every disc
found (on a full pass, the kept ones too).

``taken`` (centres and radii of the discs found so far on this call, kept ones first) is extended
in place, so the next kind does not take the same places.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, IN_HOLE, STRIKER, Detections
from tracker.detect.refine import Fit
from tracker.detect.rest_blobs import resting_blobs
from tracker.detect.reuse import untouched
from tracker.detect.salient import moving_salient
from tracker.detect.twenty_hole import covering_disc, resting_over_edge

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector


def fit_kind(det: DiscDetector, frame_bgr: np.ndarray, view: np.ndarray, lab: np.ndarray | None, kind: int,
             radius: float, region: np.ndarray | None, kept: Detections,
             taken: list[tuple[np.ndarray, float]]) -> Detections:
    """The discs of ``kind`` (nominal ``radius``) found on this call, beside the ``kept`` ones;
    ``region``: where the view changed (None: a full pass, with the whole view's ``lab``)."""
    full = region is None
    centres, coh = det.candidates(view, kind, radius, region, lab)
    from tracker.detect.strikers import fit_options

    fits: list[tuple[Fit, float]] = []
    rejected: list[tuple[np.ndarray, float, Fit]] = []  # candidate, coherence, its fit
    # (a groove can only be passed over for a larger kind than some find already taken)
    grooves = det.settings.groove_strikers and any(pr < SMALLER * radius for _, pr in taken)
    for c, q in zip(centres, coh, strict=True):
        if blocked(c, radius, taken, grooves and at_rest(det, c, radius)):
            continue
        memo = det.rejects.recall(c, kind)
        if memo is not None:  # turned down here before, nothing changed since
            if memo.reason == "outline" and memo.fit is not None:
                rejected.append((c, float(q), memo.fit))
            continue
        fit = det.refiner.refine(frame_bgr, c, radius, with_colors=False,
                                 give_up_below=0.6 * det.settings.min_coverage, **fit_options(det, kind, c))
        if not det._accept(fit, radius):
            camo = _camouflaged(det, frame_bgr, fit, kind, radius)
            if camo is not True:
                rejected.append((c, float(q), fit))
                if camo is False and not moving_salient(det, fit, radius):  # (one turned down only
                    det.rejects.note(c, kind, radius, fit, "outline")  # for moving is fitted again once it rests)
                continue
        if not det._accept_colors(det.refiner.add_colors(frame_bgr, fit)):
            det.rejects.note(c, kind, radius, fit, "colour")
            continue
        if det._is_empty_hole(frame_bgr, c, fit, radius):
            det.rejects.note(c, kind, radius, fit, "hole")
        elif det.is_painted_mark(fit):  # a circle painted on the board (``marks.py``)
            det.rejects.note(c, kind, radius, fit, "mark")
        else:
            fits.append((fit, float(q)))
    fits.sort(key=lambda fq: -(fq[0].coverage + fq[1]))
    fits = over_the_hole_edge(det, frame_bgr, fits, radius)
    accepted: list[tuple[Fit, float]] = []
    for fit, q in fits:
        if blocked(fit.centre, radius, taken, grooves and at_rest(det, fit.centre, radius)):
            continue
        if sliding_groove(det, kind, fit.centre):
            continue
        taken.append((fit.centre, radius))
        accepted.append((fit, q))
    if kind == DISC and det.settings.covered_hole:  # a disc over the 20-hole's edge, no outline of its own
        hidden = covering_disc(det, frame_bgr, view, lab, taken, radius, region)
        if hidden is not None:
            taken.append((hidden.centre, radius))
            accepted.append((hidden, hidden.coverage))
    # On a pass over a changed region the second pass works only from the first pass's rejected
    # candidates (``ClusterPass.run``): with none it finds nothing, and building it (the whole
    # view's Lab, its searched box) was a fifth of such a call.
    if det.settings.clusters and (full or rejected):
        from tracker.detect.clusters import ClusterPass

        lab_v = lab if lab is not None else _lab_for_clusters(det, view, region, radius)
        sources = [(f.centre, radius) for f, _ in accepted]
        if full:  # a full pass grows clusters from every disc, kept ones too
            sources += [(p, radius) for p in kept.xy[kept.kind == kind]]
        accepted += ClusterPass(det, frame_bgr, lab_v, kind, radius, taken, region).run(rejected, sources)
    if kind == DISC and full and (det.settings.rest_blobs or det.settings.blob_regions) and det.settings.rest_blobs_full and lab is not None:
        # discs at rest whose outline is too weak, found by what they change on the empty board
        accepted += [(f, REST_BLOB_COHERENCE) for f in resting_blobs(det, frame_bgr, lab, taken, radius)]
    return detections_of(det, accepted, kind, radius)


def detections_of(det: DiscDetector, accepted: list[tuple[Fit, float]], kind: int, radius: float) -> Detections:
    """The accepted fits (each with its candidate's coherence) as detections of ``kind``."""
    xy, rad, col, conf, wh, sur = [], [], [], [], [], []
    for fit, q in accepted:
        if det.chamfer is not None:
            det.chamfer.accepted(fit, radius)
        xy.append(fit.centre)
        rad.append(fit.radius)
        assert fit.color is not None and fit.surround is not None
        col.append(_cie(fit.color))
        sur.append(_cie(fit.surround))
        conf.append(float(np.clip(0.5 * fit.coverage + 0.5 * min(q / 0.6, 1.0), 0, 1)))
        wh.append(det.where_of(float(fit.centre[0]), float(fit.centre[1]), radius))
    if not xy:
        return Detections.empty()
    return Detections(xy=np.array(xy), radius=np.array(rad), color=np.array(col), confidence=np.array(conf),
                      kind=np.full(len(xy), kind), where=np.array(wh), surround=np.array(sur))


def over_the_hole_edge(det: DiscDetector, frame_bgr: np.ndarray, fits: list[tuple[Fit, float]],
                       radius: float) -> list[tuple[Fit, float]]:
    """``fits`` with each one in the 20-hole that is the hole's rim beside a disc resting over
    its edge replaced by that disc (``twenty_hole.resting_over_edge``)."""
    out: list[tuple[Fit, float]] = []
    for fit, q in fits:
        if det.where_of(float(fit.centre[0]), float(fit.centre[1]), radius) == IN_HOLE:
            fit = resting_over_edge(det, frame_bgr, radius) or fit
        out.append((fit, q))
    return out


# The coarse coherence given to a disc found by its blob (``rest_blobs.py``; its confidence).
REST_BLOB_COHERENCE = 0.3

# A find of a smaller kind (under this share of the candidate's radius: a korona disc is half a
# striker; a disc's own fitted radius varies by a few per cent) centred within ``CONCENTRIC`` of
# its radii of a larger kind's candidate may be the larger one's groove (``blocked``).
SMALLER = 0.75
CONCENTRIC = 0.5


def blocked(c: np.ndarray, radius: float, taken: list[tuple[np.ndarray, float]], grooves: bool = True) -> bool:
    """A candidate of nominal ``radius`` at ``c`` overlaps a disc already taken, so is not fitted:
    except over a find of a smaller kind (``SMALLER``) it is concentric with (within
    ``CONCENTRIC`` of that find's radius). A korona striker has a groove turned in its top, a
    circle about a disc's size (0.62 of the striker's radius in the renderer), which fits as a
    disc's outline at 1280x720 (k2e_8805 at 7.6 s and 22.6 s: the resting striker found as a
    disc of 13-14 mm, its own outline never fitted); smaller kinds go first, so the striker was
    never tried. Which of the two stands is settled after
    (``strikers.drop_strikers_over_discs``). ``grooves`` False: no exception
    (``DetectorSettings.groove_strikers``)."""
    for p, pr in taken:
        d = float(np.hypot(*(c - p)))
        if d < 1.6 * min(radius, pr) and not (grooves and pr < SMALLER * radius and d < CONCENTRIC * pr):
            return True
    return False


# A disc-sized find this far or farther (mm) from the centre of the striker the last call found,
# and concentric with it (``CONCENTRIC``), is the groove of a striker still sliding
# (``sliding_groove``). (At rest the groove's fit and the striker's lie about a millimetre apart.)
GROOVE_SLID_MM = 2.0


def sliding_groove(det: DiscDetector, kind: int, c: np.ndarray) -> bool:
    """Whether a find of ``kind`` at ``c`` is the groove of a korona striker that moved since the
    last call, to be passed over so that the striker's own outline is fitted there: a disc-sized
    find centred within ``CONCENTRIC`` of a disc's radius of the last call's striker, but
    ``GROOVE_SLID_MM`` or more from it. A striker slowing down is fitted by its groove once its
    blur clears, and the detector keeps a find while no pixel of its silhouette changes: the
    groove's silhouette lies inside the striker's uniform face, so the creep of its last
    millimetres never touched it (k2e_9505 at 27.7 s: the groove found 4.9 mm before the
    striker stopped, kept 9.2 mm from where it came to rest)."""
    last = det._last
    if kind != DISC or not isinstance(det.board, KoronaBoard) or last is None or not np.any(last.kind == STRIKER):
        return False
    d = float(np.hypot(*(last.xy[last.kind == STRIKER] - c).T).min())
    return GROOVE_SLID_MM <= d < CONCENTRIC * det.board.disc_radius


def at_rest(det: DiscDetector, c: np.ndarray, radius: float) -> bool:
    """Whether a striker's groove may be passed over at ``c`` (``blocked``'s ``grooves``): with
    ``DetectorSettings.groove_strikers``, where no pixel of a thing of ``radius`` there changed
    since the last call (``DiscDetector.moved``; the first call's picture counts as at rest), or
    where the last call found a striker. A
    striker's outline is only sought round a disc-sized find at rest: a moving disc's blur is
    about a striker's size, and a striker ring fitted over it beat the disc (korona_4p_part at
    22.5 s, a struck disc taken for the striker)."""
    if not det.settings.groove_strikers:
        return False
    if det.moved is None:
        return True
    # A striker found here on the last call stays one while a hand comes over it (k2e_9905 at
    # 5.5 s: the resting striker, read as its groove again once the hand's picture reached it,
    # was a disc carried off towards a pocket, a false shot).
    last = det._last
    if last is not None and len(last):
        strikers = last.xy[last.kind == STRIKER]
        if len(strikers) and float(np.hypot(*(strikers - c).T).min()) < CONCENTRIC * det.board.disc_radius:
            return True
    one = Detections(xy=np.asarray(c, float)[None], radius=np.array([radius]))
    return bool(untouched(one, det.moved, det.view, det.pose, det.thickness)[0])


def _camouflaged(det: DiscDetector, frame_bgr: np.ndarray, fit: Fit, kind: int, radius: float) -> bool | None:
    """Whether a fit the outline checks turn down is a disc at rest kept on a weaker outline
    (``verify.camouflaged``), only where no pixel of its silhouette changed since the last call
    (the first call's picture counts as at rest); None where it would be but the picture there
    changed (a disc coming to rest: not remembered as turned down, ``rejects.py``, so that the
    pass once it rests fits it again)."""
    if kind != DISC or det.settings.camo_coverage <= 0.0 or fit.coverage < det.settings.camo_coverage:
        return False
    from tracker.detect import verify

    if not verify.camouflaged(det, det.refiner.add_colors(frame_bgr, fit), radius):
        return False
    if det.moved is not None:
        one = Detections(xy=fit.centre[None], radius=np.array([radius]))
        if not bool(untouched(one, det.moved, det.view, det.pose, det.thickness)[0]):
            return None
    return True


def _lab_for_clusters(det: DiscDetector, view: np.ndarray, region: np.ndarray | None, radius: float) -> np.ndarray:
    """The view's Lab for the second pass of an incremental call: only where it reads, the box of
    the changed region with a disc's room around it (``ClusterPass``: its edge maps cover that
    box, the colours it samples lie in the region); the whole view when the board's colour is
    still to be measured or on a full pass."""
    if region is None or det.cluster_board_lab is None:
        return det.colours.lab(view)
    bx, by, bw, bh = cv2.boundingRect((det._valid & region).view(np.uint8))
    m = int(np.ceil(2 * radius / det.view.mm_per_px)) + 3  # (``ClusterPass``'s box margin, and a pixel)
    H, W = view.shape[:2]
    y0, y1, x0, x1 = max(by - m, 0), min(by + bh + m, H), max(bx - m, 0), min(bx + bw + m, W)
    lab = np.zeros(view.shape, np.float32)
    if bw:
        lab[y0:y1, x0:x1] = det.colours.lab(view, (y0, y1, x0, x1))
    return lab


def _cie(lab8: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit-scale Lab -> CIE Lab."""
    return np.asarray(lab8, float) * np.array([100 / 255, 1, 1]) - np.array([0, 128, 128])
