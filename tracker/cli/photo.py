"""``tracker photo IMAGE --game crokinole [--out DIR] [--board PROFILE]``: score a finished round from one photo.

Finds the board (or takes ``--calib calib.json`` from ``tracker calibrate``), finds every disc,
learns the two sides' colours from the discs, and scores them with the board as measured. Writes
``photo.json`` (SPEC section 4) and ``overlay.png`` (every disc marked with its points, close calls
in magenta with their gap), and prints the score with each close call.

Bad input is one line on stderr and exit status 2, with nothing written: a missing, empty,
truncated (``imagefile``) or unreadable image (a video is pointed at ``tracker review``), no
board found (naming a korona board when that is what it is), or no disc found anywhere (a
finished round leaves its discs on the board, in the hole or in the ditch; a round whose discs
are all in the ditch scores 0 - 0). Both files are written together or not at all.

``--sides N`` (3 or 4) counts the colours the discs show, up to N: a photo showing fewer has
those teams, lighter to darker, and the rest listed with no disc, ``"seen": false`` and
``color`` black in ``photo.json``, and a note saying so (a colour is never split to make up the number).

``--board PROFILE`` (a crokinole board profile JSON, as for ``tracker calibrate``) gives the board's
figures the board is found, and the discs sized and scored, on; a missing or malformed profile,
or a korona one, is refused. With ``--calib`` the calibration already holds its board, so the two
are not taken together (give ``--board`` to ``tracker calibrate``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.cli.common import add_board, add_game, board_profile, existing_file, output_dir

if TYPE_CHECKING:
    import numpy as np


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("photo", help="score the discs at rest in one photo of a finished round",
                       description=__doc__)
    p.add_argument("image", metavar="IMAGE", help="photo of the board (JPEG, PNG, ...)")
    add_game(p)
    p.add_argument("--out", help="output folder (default ./tracker-out/<image name>/)")
    p.add_argument("--calib", metavar="FILE", help="calib.json from `tracker calibrate` (default: find the board)")
    p.add_argument("--sides", type=int, default=2, choices=(2, 3, 4), help="number of sides (disc colours) in play (default 2); with 3 or 4, the colours the "
                   "discs show are counted up to this and a side with none is reported empty")
    add_board(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    import cv2

    from tracker.calibration import calibrate_image
    from tracker.calibration.datatypes import Calibration
    from tracker.calibration.io import check_frame
    from tracker.cli.imagefile import read_photo
    from tracker.detect.photo import draw_overlay, score_photo
    from tracker.errors import CalibrationError, InputError

    if args.game != "crokinole":
        raise InputError("photo scoring is for crokinole (korona is scored from video by `tracker review`)")
    if args.board and args.calib:
        raise InputError("--board and --calib: the calibration holds its board already "
                         "(give --board to `tracker calibrate` instead)")
    board = board_profile(args.board, args.game)
    path = existing_file(args.image, "image")
    try:
        image = read_photo(path)
    except InputError as e:
        if is_video(path):
            raise InputError(f"{path} is a video, not a photo: to score a recorded match, run "
                             f"`tracker review {path} --game crokinole`") from None
        raise e from None
    calib = None
    if args.calib:
        cpath = existing_file(args.calib, "calibration")
        try:
            calib = Calibration.from_json(json.loads(cpath.read_text()))
        except (ValueError, KeyError, TypeError) as e:
            raise InputError(f"calibration {cpath} is not a calib.json ({e})") from None
        w, h = calib.image_size
        if (w, h) != (image.shape[1], image.shape[0]):
            raise InputError(f"calibration {cpath} is for {w}x{h} images, {path} is {image.shape[1]}x{image.shape[0]}")
        if calib.board.game != "crokinole":
            raise InputError(f"calibration {cpath} is for a {calib.board.game} board")
    # Everything is worked out before the output folder is touched: a photo that cannot be
    # scored leaves nothing behind (no empty folder, no photo.json without its overlay).
    if calib is None:  # find the board; its errors name the photo
        try:
            calib = calibrate_image(check_frame(image, str(path)), args.game, board=board)
        except CalibrationError as e:
            raise CalibrationError(f"{path}: {e}{korona_hint(image)}") from None
    result = score_photo(image, args.game, calib=calib, sides=args.sides)
    if not result.discs:  # (what was found and left out is said: else the photo shows discs the message denies)
        left = [n for n in result.notes if n.startswith("left out")]
        raise InputError(f"no discs found in {path} (on the board, in the hole or in the ditch): "
                         "nothing to score; is it a photo of a finished round?"
                         + "".join(f"; {n}" for n in left))
    ok, overlay = cv2.imencode(".png", draw_overlay(image, result))
    if not ok:
        raise InputError(f"cannot encode the overlay of {path}")
    out = output_dir(args.out or Path("tracker-out") / path.stem)
    write_together(out, {"photo.json": (json.dumps(result.to_json(), indent=2) + "\n").encode(),
                         "overlay.png": overlay.tobytes()})
    on_board = [d for d in result.discs if d.where != "ditch"]
    if not on_board:
        print(f"no discs on the playing surface in {path.name}: 0 - 0 "
              f"({len(result.discs)} in the ditch)")
    for t in range(result.sides):
        print(f"team {t} ({result.team_colors[t] or 'no disc of its colour found'}): {result.team_points(t):3d} points  "
              f"{result.team_discs(t)} discs  {result.team_twenties(t)} twenties")
    for d in result.close_calls:
        verdict = "clear of" if d.gap > 0 else "touching"
        where = "measured beside the disc" if d.line_radius is not None else "the board's fitted circle"
        seen = (f"; its top face hides {d.hidden_mm:.1f} mm of board beyond its foot on that side, so the "
                f"{'gap' if d.gap > 0 else 'overlap'} is not seen in this photo: judged from the camera model, "
                "check it on the board") if d.unseen else ""
        print(f"close call: team {d.team} disc at ({d.x:.1f}, {d.y:.1f}) mm is {verdict} the {d.line} line, "
              f"gap {d.gap:+.2f} mm ({where}) -> {d.points} points{seen}")
    for note in result.notes:
        print(f"note: {note}")
    print(f"wrote {out / 'photo.json'} and {out / 'overlay.png'}")
    return 0


def is_video(path: Path) -> bool:
    """True when ``path`` is no still image (``imagefile.still_image_format``: a truncated photo
    stays a photo) and OpenCV plays at least a frame of it as a video."""
    import os

    from tracker.calibration.imagefile import still_image_file

    if still_image_file(path) is not None:
        return False
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # our one line, not FFmpeg's
    import cv2

    cap = cv2.VideoCapture(str(path))
    try:
        return bool(cap.isOpened() and cap.read()[0])
    finally:
        cap.release()


def korona_hint(image: np.ndarray) -> str:
    """'; it looks like a korona board ...' when a korona board is found in the photo."""
    from tracker.calibration.api import board_fits

    if not board_fits(image, "korona"):
        return ""
    return ("; it looks like a korona board: `tracker photo` scores crokinole "
            "(korona is scored from a video by `tracker review --game korona`)")


def write_together(out: Path, files: dict[str, bytes]) -> None:
    """Write every file or none: each goes to a temporary name first, and only once all are
    written are they renamed into place (an earlier run's files are replaced whole)."""
    import os

    from tracker.errors import InputError

    temps = [(out / f".{name}.part", out / name, data) for name, data in files.items()]
    for _, final, _ in temps:  # found before anything is written: a folder cannot be replaced
        if final.is_dir():
            raise InputError(f"cannot write {final}: a folder of that name is in the way")
    try:
        for tmp, _, data in temps:
            tmp.write_bytes(data)
    except OSError as e:
        for tmp, _, _ in temps:
            tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write into {out}: {e.strerror}") from None
    try:
        for tmp, final, _ in temps:
            os.replace(tmp, final)
    except OSError as e:
        for tmp, _, _ in temps:
            tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write into {out}: {e.strerror}") from None
