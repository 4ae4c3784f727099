"""A find on the playing surface that is a patch of board framed by a shadow, not a disc.

A disc's face is one colour and the board just outside it another, so all round the disc the
board differs from the face the same way (a red disc on light wood: darker and redder than it,
on every side). A hand's shadow (broadcast still -2AxSj5mko0: a "red 5") frames a patch of board
with board lines and the shadow's soft edge: the fitted outline closes, the face differs from the
ring around it on the whole, but side by side the board outside is darker than the face here
(the shadow), clearly lighter there (the board in the light) and the same beyond a line.

``outline_agreement``, over the directions round a find, looking at the board just outside
(1.3-1.6 times the silhouette's radius, beyond its top face as seen): the share of directions
where it differs from the face by at least half of the overall difference, in the overall
difference's direction (``agree``), and the share where it differs the other way by a clear step
(``CONTRARY_LAB``, ``contrary``). Directions where the ring runs over another find, the 20-hole
or a peg do not vote: they are not the board. A find is framed when it agrees little and is
contradicted often: the shadow agrees 0.62 and is contradicted 0.29. Every disc on the surface of
the ten labelled phone photos and the broadcast stills agrees 0.85 or more; on 1475 discs of
rendered stills (seeds 100-174, easy and hard looks, 1280x720, photo settings) agreement alone
went down to 0.50 (a light disc on a light board, its own cast shadow on one side, is darker
than the board there and about the board's colour elsewhere) and the contrary share up to 0.23,
never both: none is framed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import ON_SURFACE, Detections
from tracker.detect.geometry import CameraPose
from tracker.detect.lab_weights import WEIGHTS as WEIGHT
from tracker.detect.linecall import lab_at

MIN_AGREEMENT = 0.75  # a find that agrees less ...
MIN_CONTRARY = 0.25  # ... and is contradicted in this share of the directions is framed
CONTRARY_LAB = 12.0  # a clear step the other way (weighted Lab; twice the detector's face step)
N_DIRECTIONS = 48
MIN_VOTES = 12  # directions that must vote for the share to be judged


def outline_agreement(image: np.ndarray, calib: Calibration, pose: CameraPose, board: CrokinoleBoard,
                      xy: np.ndarray, others: np.ndarray) -> tuple[float, float]:
    """(agree, contrary): the shares of directions round the find at ``xy`` (mm, where it
    stands) whose board just outside differs from its face the way the ring around it does as a
    whole, and clearly the other way (see the module docstring); (1.0, 0.0) when too few
    directions can vote. ``others`` (N, 2): the other finds."""
    P = np.asarray(xy, float).reshape(2)
    s, k = pose.top_shift(P[None], board.disc_thickness)
    T = P + s[0]
    R = float(k[0]) * board.disc_radius
    a = np.linspace(0.0, 2 * np.pi, N_DIRECTIONS, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    mid = 0.5 * (P + T)
    rr = R + 0.5 * float(np.linalg.norm(T - P))
    face = np.median(lab_at(image, calib, np.concatenate([T[None], T + 0.3 * R * u[::4], T + 0.6 * R * u[::4]])), axis=0)
    ring = np.stack([mid + 1.3 * rr * u, mid + 1.6 * rr * u], 1)  # (directions, 2, 2)
    outside = lab_at(image, calib, ring).mean(axis=1)
    near = ring[:, 0]
    votes = np.hypot(*near.T) > board.hole_radius + 2.0
    for q in np.asarray(others, float).reshape(-1, 2):
        votes &= np.hypot(*(near - q).T) > 1.3 * rr
    for peg in board.peg_positions():
        # (a peg stands 25 mm tall: seen obliquely its body leans beyond its foot)
        votes &= np.hypot(*(near - np.asarray(peg)).T) > board.peg_diameter / 2 + 0.5 * board.peg_height + 3.0
    if int(votes.sum()) < MIN_VOTES:
        return 1.0, 0.0
    step = (face - np.median(outside[votes], axis=0)) * WEIGHT
    n = float(np.linalg.norm(step))
    if n < 1e-6:
        return 0.0, 0.0
    along = ((face - outside[votes]) * WEIGHT) @ step / n
    return float(np.mean(along >= 0.5 * n)), float(np.mean(along <= -CONTRARY_LAB))


def framed(agreement: tuple[float, float]) -> bool:
    """Whether an ``outline_agreement`` says a patch of board framed by a shadow."""
    agree, contrary = agreement
    return agree < MIN_AGREEMENT and contrary >= MIN_CONTRARY


def drop_framed(image: np.ndarray, calib: Calibration, pose: CameraPose, dets: Detections
                ) -> tuple[Detections, np.ndarray]:
    """``dets`` without the finds on the surface that are ``framed``, and the places (N, 2) of
    those dropped."""
    return drop_on_surface(calib, dets, lambda board, i: framed(outline_agreement(
        image, calib, pose, board, dets.xy[i], np.delete(dets.xy, i, axis=0))))


def drop_on_surface(calib: Calibration, dets: Detections, false_find: Callable[[CrokinoleBoard, int], bool]
                    ) -> tuple[Detections, np.ndarray]:
    """``dets`` without the finds on a crokinole board's playing surface that ``false_find``
    (the board, the find's index) calls no disc, and the places (N, 2) of those dropped: the
    photo's checks of a find against the picture round it (``drop_framed``, ``footing.py``)."""
    board = calib.board
    if not isinstance(board, CrokinoleBoard) or not len(dets):
        return dets, np.zeros((0, 2))
    keep = np.ones(len(dets), bool)
    for i in np.nonzero(dets.where == ON_SURFACE)[0]:
        keep[i] = not false_find(board, int(i))
    return dets[keep], dets.xy[~keep]
