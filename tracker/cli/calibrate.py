"""``tracker calibrate SOURCE --game ...``: find the board, write calib.json and overlay.png.

Modes: automatic (default), ``--points`` (4+ clicked points), ``--markers`` (ArUco map), and
``--chessboard COLSxROWS`` which instead fits camera intrinsics from a folder or video of
chessboard views and writes them to ``--out`` (default ``intrinsics.json``) for later
``--intrinsics FILE`` runs. A video is calibrated on the frames ``tracker review`` uses, in its
order (the median of the first 9 frames, then the last of them, then 4 frames on ...), so both
commands agree on it. The output path is checked before any work; outputs are written to
temporary files and renamed, and the overlay is removed again if the calibration cannot be
written, so a failure never leaves a half-written calibration behind.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from tracker.cli.common import add_board, add_game, board_profile


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="find the board in an image or video and write calib.json",
                       description=__doc__)
    p.add_argument("source", metavar="SOURCE", help="image or video (chessboard mode: folder or video)")
    add_game(p, required=False)
    p.add_argument("--out", help="output JSON (default calib.json; overlay.png is written beside it)")
    p.add_argument("--points", help='clicked points "x,y=bx,by;x,y=name;..." (image px = board mm or feature)')
    p.add_argument("--south", choices=("top", "left", "right", "bottom"), help="image side of the south seat (automatic mode; --points fix the seats themselves)")
    p.add_argument("--intrinsics", metavar="FILE", help="camera intrinsics JSON from a --chessboard run")
    p.add_argument("--markers", metavar="FILE", help="ArUco marker map JSON (id -> board mm corners)")
    add_board(p)
    p.add_argument("--chessboard", metavar="COLSxROWS", help="fit camera intrinsics from chessboard views instead")
    p.add_argument("--square-mm", type=float, default=25.0, help="chessboard square size (default 25)")
    p.set_defaults(func=run)


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _check_out(out: Path) -> Path:
    """Refuse an output path that cannot be written before any work is done."""
    from tracker.errors import InputError

    if out.is_dir():
        raise InputError(f"--out {out} is a folder; give a file name such as {out / 'calib.json'}")
    if not out.parent.exists():
        raise InputError(f"output folder {out.parent} does not exist")
    if not os.access(out.parent, os.W_OK):
        raise InputError(f"output folder {out.parent} is not writable")
    return out


def run(args: argparse.Namespace) -> int:
    import sys

    import cv2
    import numpy as np

    from tracker.boards import board_for
    from tracker.calibration import (
        calibrate_image,
        calibrate_markers,
        calibrate_points,
        parse_points,
    )
    from tracker.calibration.api import calibrate_video_frame
    from tracker.calibration.intrinsics import calibrate_intrinsics, load_intrinsics, parse_pattern
    from tracker.calibration.io import is_video, read_source
    from tracker.calibration.overlay import draw_overlay
    from tracker.errors import InputError

    if args.chessboard:
        pattern = parse_pattern(args.chessboard)
        out = _check_out(Path(args.out or "intrinsics.json"))
        data = calibrate_intrinsics(args.source, pattern, args.square_mm)
        _write_atomic(out, (json.dumps(data, indent=2) + "\n").encode())
        print(f"intrinsics from {data['views']} views, rms {data['rms_px']:.3f} px -> {out}")
        return 0
    if not args.game:
        raise InputError("--game crokinole|korona is required")
    out = _check_out(Path(args.out or "calib.json"))
    board = board_profile(args.board, args.game) or board_for(args.game)
    intr = load_intrinsics(args.intrinsics) if args.intrinsics else None
    video = is_video(args.source) and not args.points and not args.markers
    image = read_source(args.source) if not video else None
    h, w = image.shape[:2] if image is not None else (0, 0)
    if args.points:
        assert image is not None
        px, mm = parse_points(args.points, board)
        if intr is not None:
            px = cv2.undistortPoints(px.reshape(-1, 1, 2), intr["camera_matrix"], intr["dist_coeffs"],
                                     P=intr["camera_matrix"]).reshape(-1, 2)
        # the board positions given with the points already fix the seats: --south is not needed
        calib = calibrate_points(px, mm, (w, h), game=args.game, board=board)
    elif args.markers:
        assert image is not None
        # with intrinsics the homography maps undistorted pixels: find the markers in those
        work = image if intr is None else cv2.undistort(image, intr["camera_matrix"], intr["dist_coeffs"])
        calib = calibrate_markers(work, args.markers, game=args.game, board=board)
    elif video:
        # the frames review calibrates on, in its order: both commands agree on a video
        calib, image = calibrate_video_frame(args.source, args.game, board=board, south=args.south,
                                             intrinsics=intr)
    else:
        assert image is not None
        calib = calibrate_image(image, args.game, board=board, south=args.south, intrinsics=intr)
    if intr is not None:
        calib.camera_matrix = np.asarray(intr["camera_matrix"])
        calib.dist_coeffs = np.asarray(intr["dist_coeffs"])
    assert image is not None
    overlay = draw_overlay(image, calib)
    ok, png = cv2.imencode(".png", overlay)
    if not ok:
        raise InputError("could not encode the overlay image")
    payload = (json.dumps(calib.to_json(), indent=2) + "\n").encode()
    ov_path = out.with_name("overlay.png") if out.name != "overlay.png" else out.with_name("overlay2.png")
    try:
        _write_atomic(ov_path, png.tobytes())
        try:
            _write_atomic(out, payload)
        except BaseException:
            ov_path.unlink(missing_ok=True)  # never one file without the other
            raise
    except OSError as e:
        raise InputError(f"cannot write {out}: {e.strerror or e}") from None
    worst = max(calib.residuals_mm.items(), key=lambda kv: kv[1], default=("-", 0.0))
    sys.stdout.write(f"calibrated ({calib.method}): rms {calib.rms_mm:.2f} mm, worst feature "
                     f"{worst[0]} {worst[1]:.2f} mm -> {out}\n")
    for k, v in sorted(calib.residuals_mm.items()):
        sys.stdout.write(f"  {k:16s} {v:7.2f} mm\n")
    return 0
