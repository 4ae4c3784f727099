"""Fallback 2: ArUco / AprilTag markers stuck at known board positions.

The marker map is JSON::

    {"dictionary": "DICT_4X4_50",
     "markers": {"7": [[x0, y0], [x1, y1], [x2, y2], [x3, y3]], ...}}

giving, per marker id, its four corners in board mm in OpenCV's corner order (the marker's own
top-left, top-right, bottom-right, bottom-left as printed). Every detected corner of a mapped
marker becomes a point pair for :func:`calibrate_points`; at least one whole marker is needed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.calibration.datatypes import Calibration
from tracker.calibration.points import calibrate_points
from tracker.errors import CalibrationError, InputError


def load_marker_map(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise InputError(f"marker map {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"marker map {p}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"marker map {p}: not JSON ({e.msg} at line {e.lineno})") from None
    return parse_marker_map(data, str(p))


def parse_marker_map(data: Any, source: str = "marker map") -> dict[str, Any]:
    import cv2

    if not isinstance(data, dict) or not isinstance(data.get("markers"), dict):
        raise InputError(f"{source}: expected {{\"dictionary\": ..., \"markers\": {{id: corners}}}}")
    name = str(data.get("dictionary", "DICT_4X4_50"))
    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        raise InputError(f"{source}: unknown marker dictionary {name!r}")
    markers: dict[int, np.ndarray] = {}
    for key, corners in data["markers"].items():
        try:
            mid = int(key)
            arr = np.asarray(corners, dtype=np.float64)
        except (TypeError, ValueError):
            raise InputError(f"{source}: marker {key!r} needs an integer id and 4 [x, y] corners") from None
        if arr.shape != (4, 2):
            raise InputError(f"{source}: marker {key} needs 4 [x, y] corners in mm, got shape {arr.shape}")
        markers[mid] = arr
    if not markers:
        raise InputError(f"{source}: no markers listed")
    return {"dictionary": name, "markers": markers}


def detect_markers(image: np.ndarray, dictionary: str) -> dict[int, np.ndarray]:
    """Marker id -> (4, 2) sub-pixel corner positions in the image."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(d, params).detectMarkers(grey)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel(), strict=True):
        out[int(i)] = np.asarray(c, dtype=np.float64).reshape(4, 2)
    return out


def calibrate_markers(image: np.ndarray, marker_map: dict[str, Any] | str | Path, game: str = "crokinole",
                      board: CrokinoleBoard | KoronaBoard | None = None) -> Calibration:
    """A calibration from the detected markers of ``marker_map`` (a parsed map or a JSON path)."""
    mmap = marker_map if isinstance(marker_map, dict) else load_marker_map(marker_map)
    if not isinstance(mmap.get("markers"), dict) or not all(isinstance(k, int) for k in mmap["markers"]):
        mmap = parse_marker_map(mmap)
    found = detect_markers(image, mmap["dictionary"])
    used = sorted(set(found) & set(mmap["markers"]))
    if not used:
        raise CalibrationError(
            f"no board markers found: detected ids {sorted(found) or 'none'}, "
            f"map has {sorted(mmap['markers'])}")
    px = np.concatenate([found[i] for i in used])
    mm = np.concatenate([mmap["markers"][i] for i in used])
    h, w = image.shape[:2]
    calib = calibrate_points(px, mm, (w, h), game=game, board=board, method="markers")
    res = np.array(list(calib.residuals_mm.values())).reshape(-1, 4)
    calib.residuals_mm = {f"marker{i}": float(np.sqrt(np.mean(r**2))) for i, r in zip(used, res, strict=True)}
    return calib
