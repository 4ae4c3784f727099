"""The calibration value passed downstream: image pixels <-> board millimetres."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard


@dataclass
class Calibration:
    """A fitted board.

    ``homography`` maps *undistorted* image pixels to board mm on the playing surface (z = 0).
    When ``camera_matrix``/``dist_coeffs`` are set, ``to_board`` undistorts first and ``to_image``
    distorts after, so both work on raw image pixels.
    """

    homography: np.ndarray  # 3x3, image px -> board mm
    image_size: tuple[int, int]  # (width, height)
    rms_mm: float
    board: CrokinoleBoard | KoronaBoard
    camera_matrix: np.ndarray | None = None
    dist_coeffs: np.ndarray | None = None
    residuals_mm: dict[str, float] = field(default_factory=dict)
    method: str = "auto"
    south: str = "bottom"

    @property
    def inverse(self) -> np.ndarray:
        return np.linalg.inv(self.homography)

    def to_board(self, pts_px: np.ndarray) -> np.ndarray:
        """(N, 2) image pixels -> (N, 2) board mm."""
        import cv2

        p: np.ndarray = np.asarray(pts_px, dtype=np.float64).reshape(-1, 1, 2)
        if self.camera_matrix is not None and self.dist_coeffs is not None:
            # OpenCV's default of 5 fixed-point iterations leaves ~1 px at the corners of a
            # strong lens; iterate to convergence
            crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
            p = cv2.undistortPoints(p, self.camera_matrix, self.dist_coeffs, None, None,
                                    self.camera_matrix, crit)
        return cv2.perspectiveTransform(p, self.homography).reshape(-1, 2)

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N, 2) image pixels."""
        import cv2

        p = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 1, 2)
        q = cv2.perspectiveTransform(p, self.inverse).reshape(-1, 2)
        if self.camera_matrix is not None and self.dist_coeffs is not None:
            K = self.camera_matrix
            n = (q - K[:2, 2]) / np.array([K[0, 0], K[1, 1]])
            pts3 = np.concatenate([n, np.ones((len(n), 1))], axis=1)
            q, _ = cv2.projectPoints(pts3, np.zeros(3), np.zeros(3), K, self.dist_coeffs)
            q = q.reshape(-1, 2)
        return q

    def to_json(self) -> dict[str, Any]:
        import dataclasses

        out: dict[str, Any] = {
            "homography": self.homography.tolist(),
            "image_size": list(self.image_size),
            "rms_mm": float(self.rms_mm),
            "board": dataclasses.asdict(self.board),
            "residuals_mm": {k: float(v) for k, v in self.residuals_mm.items()},
            "method": self.method,
            "south": self.south,
        }
        if self.camera_matrix is not None:
            out["camera_matrix"] = self.camera_matrix.tolist()
        if self.dist_coeffs is not None:
            out["dist_coeffs"] = np.asarray(self.dist_coeffs).ravel().tolist()
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Calibration:
        from tracker.boards.profile import profile_from_dict

        board = profile_from_dict(dict(obj["board"]), source="calibration")
        return Calibration(
            homography=np.array(obj["homography"], dtype=np.float64),
            image_size=(int(obj["image_size"][0]), int(obj["image_size"][1])),
            rms_mm=float(obj["rms_mm"]),
            board=board,
            camera_matrix=np.array(obj["camera_matrix"]) if "camera_matrix" in obj else None,
            dist_coeffs=np.array(obj["dist_coeffs"]) if "dist_coeffs" in obj else None,
            residuals_mm=dict(obj.get("residuals_mm", {})),
            method=str(obj.get("method", "auto")),
            south=str(obj.get("south", "bottom")),
        )
