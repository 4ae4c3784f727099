"""Telling a still photo from a video by its first bytes (``imagefile.still_image_format``):
``tracker review`` refuses a photo with it, ``tracker photo`` names a phone's HEIC photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tracker.calibration.imagefile import read_image_file, still_image_format
from tracker.errors import InputError

PICTURE = (np.arange(64 * 80 * 3) % 251).astype(np.uint8).reshape(64, 80, 3)


@pytest.mark.parametrize(("ext", "kind"), [(".jpg", "JPEG"), (".png", "PNG"), (".bmp", "BMP"),
                                           (".tiff", "TIFF"), (".webp", "WebP")])
def test_the_encoders_images_are_still_images(ext: str, kind: str) -> None:
    ok, data = cv2.imencode(ext, PICTURE)
    if not ok:
        pytest.skip(f"this OpenCV writes no {ext}")
    assert still_image_format(data.tobytes()[:32]) == kind


def test_videos_and_text_are_not(tmp_path: Path) -> None:
    for fourcc, name in (("mp4v", "v.mp4"), ("MJPG", "v.avi")):
        vw = cv2.VideoWriter(str(tmp_path / name), cv2.VideoWriter.fourcc(*fourcc), 10.0, (80, 64))
        for _ in range(3):
            vw.write(PICTURE)
        vw.release()
        assert still_image_format((tmp_path / name).read_bytes()[:32]) is None, name
    assert still_image_format(b"BMX: notes about the match\n") is None  # "BM" alone is no bitmap
    assert still_image_format(b"") is None


def test_a_heic_photo_is_named(tmp_path: Path) -> None:
    """A phone's HEIC photo is an ISO media file like an mp4: it is a still image, and a
    build of OpenCV that cannot decode it says so (was 'not an image, or an unsupported format')."""
    head = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 40
    assert still_image_format(head[:32]) == "HEIC"
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(head)
    with pytest.raises(InputError, match="HEIC photo.*JPEG or PNG"):
        read_image_file(path)
