"""``tracker calibrate VIDEO`` fits the frames ``tracker review`` fits, in the same order, so
the two agree on a video's calibration."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tracker.calibration import Calibration
from tracker.calibration.io import calibration_windows, read_source
from tracker.cli import main
from tracker.errors import InputError

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "videos" / "crokinole_4p_part" / "video.mp4"


def _numbered_video(path: Path, n: int) -> None:
    """Frame i is uniformly grey level 10 * i (lossless codec: the values survive)."""
    import cv2

    vw = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"FFV1"), 10.0, (96, 80))
    assert vw.isOpened()
    for i in range(n):
        vw.write(np.full((80, 96, 3), 10 * i, np.uint8))
    vw.release()


def test_windows_slide_by_half_like_the_review_pipeline(tmp_path: Path) -> None:
    p = tmp_path / "n.mkv"
    _numbered_video(p, 20)
    got = [(start, int(med[0, 0, 0]), int(last[0, 0, 0])) for start, med, last in calibration_windows(p)]
    # windows of 9 frames from 0, 4, 8, 12 (Pipeline.process keeps the second half and reads
    # on); the median of 9 consecutive frames is the middle one, the last window has 8
    assert got == [(0, 40, 80), (4, 80, 120), (8, 120, 160), (12, 155, 190)]


def test_short_video_gives_one_window_and_empty_video_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "short.mkv"
    _numbered_video(p, 4)
    got = [(s, int(m[0, 0, 0]), int(last[0, 0, 0])) for s, m, last in calibration_windows(p)]
    assert got == [(0, 15, 30)]  # even count: the two middle values averaged
    empty = tmp_path / "empty.mkv"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="video"):
        list(calibration_windows(empty))


@pytest.mark.skipif(not FIXTURE.exists(), reason="fixture video absent")
def test_calibrate_video_agrees_with_review(tmp_path: Path, capsys) -> None:
    """crokinole_4p_part (480x270, glare over the pegs): review calibrated it, calibrate refused
    (the spread-out median showed weaker quadrant lines). Both now fit the same frame."""
    from tracker.pipeline.pipeline import Pipeline
    from tracker.pipeline.video import VideoSource

    out = tmp_path / "calib.json"
    rc = main(["calibrate", str(FIXTURE), "--game", "crokinole", "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    mine = Calibration.from_json(json.loads(out.read_text()))
    assert (tmp_path / "overlay.png").stat().st_size > 1000

    src = VideoSource(FIXTURE)
    pipe = Pipeline("crokinole", 4, fps=src.info.fps)
    for i, t, frame in src:
        pipe.process(frame, t, i)
        if pipe.calib is not None:
            break
    assert pipe.calib is not None
    pts = np.array([[0.0, 0.0], [300.0, 0.0], [0.0, -300.0], [-212.0, 212.0]])
    assert np.abs(mine.to_image(pts) - pipe.calib.to_image(pts)).max() < 0.05
    # the overlay and --points read the same first frame
    assert read_source(FIXTURE).shape == (270, 480, 3)
