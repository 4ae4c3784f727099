"""A find on the playing surface whose foot the camera sees as bare board: no disc stands there.

A disc standing on the board hides, as the camera sees it, every point of the board under it:
its foot's circle shows the disc (its side or its top face) in the picture, at any view. Seen
nearly edge on, a disc down in the far ditch shows only its top above the surface's edge; the
detector, which takes every disc as standing on the surface, puts it where a standing disc would
show its top there: tens of millimetres in from the edge (the ditch's depth over the tangent of
the camera's elevation), on the shooting line. There its foot's circle shows bare board, the
colour of the board round it and unlike the face found (broadcast stills 8v218JvUohQ and
iMgYR7GklqE, about 75 degrees from vertical: a black disc in the far ditch scored as a 0 on the
shooting line).

``board_footed``: the median colour at the foot (its centre and half a radius round it, on the
board plane) is nearer the board's colour round the find than the face's, and the face is
clearly unlike the board (``MIN_FACE_STEP``; a light disc on a light board is not judged). The
foot's distance to the face over its distance to the board (weighted Lab, ``lab_at``'s scale):
every disc on the surface of the ten labelled phone photos and the broadcast stills 0.26 or
less; 519 discs found on rendered stills (seeds 100-129, easy and hard, 1280x720, photo
settings) 0.43 or less, none left out; the far-ditch discs of 8v218JvUohQ and iMgYR7GklqE 2.4
and 5.1. Photo only, like ``framed.py``: the video detector is not touched.
"""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.calibration.datatypes import Calibration
from tracker.detect.datatypes import Detections
from tracker.detect.framed import CONTRARY_LAB, drop_on_surface
from tracker.detect.geometry import CameraPose
from tracker.detect.lab_weights import WEIGHTS as WEIGHT
from tracker.detect.linecall import lab_at

MIN_FACE_STEP = CONTRARY_LAB  # the face must differ from the board by a clear step to be judged


def foot_colours(image: np.ndarray, calib: Calibration, pose: CameraPose, board: CrokinoleBoard,
                 xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Median Lab (as ``lab_at``) of the foot, the top face and the board round the find whose
    foot is at ``xy`` (mm)."""
    P = np.asarray(xy, float).reshape(2)
    s, k = pose.top_shift(P[None], board.disc_thickness)
    T = P + s[0]
    R = float(k[0]) * board.disc_radius
    a = np.linspace(0.0, 2 * np.pi, 8, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    face = np.median(lab_at(image, calib, np.concatenate([T[None], T + 0.3 * R * u, T + 0.6 * R * u])), axis=0)
    foot = np.median(lab_at(image, calib, np.concatenate([P[None], P + 0.5 * board.disc_radius * u])), axis=0)
    a = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
    u = np.stack([np.cos(a), np.sin(a)], 1)
    mid, rr = 0.5 * (P + T), R + 0.5 * float(np.linalg.norm(T - P))
    around = np.median(lab_at(image, calib, mid + 1.5 * rr * u), axis=0)
    return foot, face, around


def board_footed(image: np.ndarray, calib: Calibration, pose: CameraPose, board: CrokinoleBoard,
                 xy: np.ndarray) -> bool:
    """Whether the camera sees bare board where the find at ``xy`` would stand (module docstring)."""
    foot, face, around = foot_colours(image, calib, pose, board, xy)
    if float(np.linalg.norm((face - around) * WEIGHT)) < MIN_FACE_STEP:
        return False
    return float(np.linalg.norm((foot - around) * WEIGHT)) < float(np.linalg.norm((foot - face) * WEIGHT))


def drop_board_footed(image: np.ndarray, calib: Calibration, pose: CameraPose, dets: Detections
                      ) -> tuple[Detections, np.ndarray]:
    """``dets`` without the finds on the surface that are ``board_footed``, and the places (N, 2)
    of those dropped."""
    return drop_on_surface(calib, dets, lambda board, i: board_footed(image, calib, pose, board, dets.xy[i]))
