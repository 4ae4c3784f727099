"""Resting discs carried over a new fit of the board (the camera was knocked between shots).

A detector keeps a disc found at rest for as long as the picture at its place does not change
(``reuse.py``), so a disc whose outline only now and then passes the verification (light wood on a
light wooden board, ``verify.py``) is held once it has been found. After the camera is knocked the
pipeline makes a new detector for the new fit of the board, which must find every disc afresh:
such a disc was then lost until it happened to pass again (c2h_9802: s1, light wood on wood, held
from 5.1 s to the knock at 13.1 s, missed from there to 17.8 s; the disc that came to rest against
it at 15.5 s was taken for one knocked off, the shot after it for a foul, and the round was lost).

The board's millimetres do not move with the camera: a disc at rest before the knock lies at the
same place after it. So the pipeline hands the new detector its tracks at rest on the playing
surface (``resting``: their rest anchors, hidden ones too -- the shaking picture hid them), and
the new detector's first call (a full pass) fits each one it did not find itself from there
(``confirm``). It is kept, where that fit puts it, on less outline than a disc found from nothing
needs (``PRIOR_COVERAGE``; a patch of empty wooden board shows as much), near where it was
(``PRIOR_SHIFT``), with a face unlike the board around it (``verify.accept_colors``: a weak outline
needs twice the colour step) and near the colour its track had (``PRIOR_COLOUR``). A disc gone
meanwhile leaves bare board, which fails the colour tests. (c2h_9802 after it: s1 kept from 13.7
s until the next disc struck beside it at 15.0 s.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect import verify
from tracker.detect.datatypes import DISC, ON_SURFACE, Detections
from tracker.detect.fitpass import _cie
from tracker.detect.lab_weights import WEIGHTS

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector
    from tracker.track.datatypes import Track

PRIOR_COVERAGE = 0.4  # the outline's share (no bar on its worst quarter: a wood-on-wood disc's far side shows none)
PRIOR_SHIFT = 0.5  # of the disc's radius: the fit stays this close to where the track had it
PRIOR_COLOUR = 16.0  # CIE Lab (a and b weighted 1.6): the face's colour near the one the track had


def resting(tracks: Iterable[Track], board: CrokinoleBoard | KoronaBoard) -> Detections | None:
    """The discs at rest on a crokinole board's playing surface among ``tracks`` (the pipeline's
    tracks when the board is fitted again), as detections to confirm; None on other boards."""
    if not isinstance(board, CrokinoleBoard):
        return None
    rows = [tr for tr in tracks if tr.state == "rest" and tr.kind == DISC]
    xy = np.array([tr.position() for tr in rows], float).reshape(-1, 2)
    keep = [i for i, (x, y) in enumerate(xy) if board.on_surface(float(x), float(y))
            and not board.in_hole(float(x), float(y), board.disc_radius)]
    return Detections(xy=xy[keep], radius=np.array([rows[i].radius for i in keep], float),
                      color=np.array([rows[i].color for i in keep], float).reshape(-1, 3),
                      kind=np.full(len(keep), DISC), where=np.full(len(keep), ON_SURFACE))


def confirm(det: DiscDetector, frame_bgr: np.ndarray, priors: Detections, found: Detections) -> Detections:
    """The ``priors`` (discs at rest before the new fit) that ``found`` does not have and that a
    fit from where they were confirms in ``frame_bgr``, as that fit found them."""
    radius = det.board.disc_radius
    w = WEIGHTS
    out: list[Detections] = []
    taken = list(found.xy)
    for i, p in enumerate(priors.xy):
        if any(float(np.hypot(*(p - q))) < 1.6 * radius for q in taken):
            continue
        fit = det.refiner.refine(frame_bgr, p, radius, start_at=p)
        c = fit.centre
        if float(np.hypot(*(c - p))) > PRIOR_SHIFT * radius or any(float(np.hypot(*(c - q))) < 1.6 * radius for q in taken):
            continue
        # (the residual, radius and place as for any disc: ``verify.shape_ok``)
        if fit.coverage < PRIOR_COVERAGE or not verify.shape_ok(det, fit, radius) or not det._accept_colors(fit):
            continue
        assert fit.color is not None and fit.surround is not None
        colour = _cie(fit.color)
        if float(np.linalg.norm((colour - priors.color[i]) * w)) > PRIOR_COLOUR:
            continue
        out.append(Detections(xy=c[None], radius=np.array([fit.radius]), color=colour[None],
                              surround=_cie(fit.surround)[None], confidence=np.array([0.5 * fit.coverage]),
                              kind=np.array([DISC]), where=np.array([det.where_of(float(c[0]), float(c[1]), radius)])))
        taken.append(c)
    return Detections.merge(out) if out else Detections.empty()
