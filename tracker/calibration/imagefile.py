"""Reading an image file: refuse a truncated JPEG or PNG before decoding it.

The one reader of image files for every command (``tracker calibrate IMAGE``, through
``io.read_image``, and ``tracker photo``, through ``tracker.cli.imagefile``).

OpenCV decodes a JPEG that stops part-way (a photo cut off in transfer) without an error: it
prints "Premature end of JPEG file" on stderr from inside libjpeg and returns a picture whose
missing rows are flat grey, and a photo scored from that is silently wrong. So the file's own
structure is checked first: a JPEG must reach its end-of-image marker (its segments walked by
their lengths, the scan data up to the next marker, so the end marker of an embedded EXIF
thumbnail does not count), a PNG its ``IEND`` chunk. Other formats are left to the decoder.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tracker.errors import InputError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# The leading bytes of the still-image formats OpenCV reads (TIFF both byte orders; WebP is a
# RIFF file whose form type is WEBP). Not GIF: an animated GIF is a clip OpenCV plays as a video.
_IMAGE_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "JPEG"), (PNG_SIGNATURE, "PNG"),
    (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"),
)
_BMP_HEADER_SIZES = (12, 40, 52, 56, 64, 108, 124)  # "BM", then the size of its DIB header at byte 14
# major brands of still HEIF images (not the image-sequence brands msf1, hevs, avis)
_HEIF_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"mif1": "HEIF", b"avif": "AVIF"}


def still_image_format(head: bytes) -> str | None:
    """The still-image format (``"JPEG"``, ``"PNG"``, ...) of a file whose first bytes (18 or
    more) are ``head``, or None. ``tracker review`` refuses a photo with this: OpenCV opens a
    JPEG or PNG as a one-frame video, and the review scored nothing and exited 0."""
    for sig, name in _IMAGE_SIGNATURES:
        if head.startswith(sig):
            return name
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[:2] == b"BM" and int.from_bytes(head[14:18], "little") in _BMP_HEADER_SIZES:
        return "BMP"
    if head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS:  # a phone's HEIC/AVIF photo (ISO BMFF, as mp4)
        return _HEIF_BRANDS[head[8:12]]
    return None



def still_image_file(path: Path) -> str | None:
    """:func:`still_image_format` of the file at ``path`` (None when it cannot be read: the
    caller's own reader says why)."""
    try:
        with Path(path).open("rb") as f:
            return still_image_format(f.read(32))
    except OSError:
        return None


def jpeg_complete(data: bytes) -> bool:
    """True when the JPEG ``data`` reaches its end-of-image marker (FFD9) through its segments."""
    if data[:2] != b"\xff\xd8":
        return False
    n = len(data)
    i = 2
    while i < n:
        if data[i] != 0xFF:  # extraneous bytes before a marker (decoders skip them)
            i = data.find(b"\xff", i)
            if i < 0:
                return False
        while i < n and data[i] == 0xFF:  # fill bytes
            i += 1
        if i >= n:
            return False
        marker = data[i]
        i += 1
        if marker == 0xD9:
            return True
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # no length
            continue
        if i + 2 > n:
            return False
        length = int.from_bytes(data[i:i + 2], "big")
        if length < 2:
            return False
        i += length
        if marker == 0xDA:  # scan data: up to the next marker that is not stuffing or a restart
            j = i
            while True:
                j = data.find(b"\xff", j)
                if j < 0 or j + 1 >= n:
                    return False
                nxt = data[j + 1]
                if nxt == 0x00 or 0xD0 <= nxt <= 0xD7 or nxt == 0xFF:
                    j += 1
                    continue
                i = j
                break
    return False


def png_complete(data: bytes) -> bool:
    """True when the PNG ``data`` holds its chunks whole up to ``IEND``."""
    if not data.startswith(PNG_SIGNATURE):
        return False
    i, n = len(PNG_SIGNATURE), len(data)
    while i + 8 <= n:
        length = int.from_bytes(data[i:i + 4], "big")
        kind = data[i + 4:i + 8]
        end = i + 12 + length  # length, type, data, CRC
        if end > n:
            return False
        if kind == b"IEND":
            return True
        i = end
    return False


def read_image_file(path: str | Path) -> np.ndarray:
    """The colour image in ``path`` (BGR); InputError, one line naming the file, when it is
    empty, truncated, or not an image OpenCV can read."""
    import cv2

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"image {path} cannot be read ({e.strerror})") from None
    if not data:
        raise InputError(f"image {path} is empty (0 bytes)")
    if data[:2] == b"\xff\xd8" and not jpeg_complete(data):
        raise InputError(f"image {path} is truncated or damaged: the JPEG ends before its picture does")
    if data.startswith(PNG_SIGNATURE) and not png_complete(data):
        raise InputError(f"image {path} is truncated or damaged: the PNG ends before its picture does")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        kind = still_image_format(data[:32])
        if kind in ("HEIC", "HEIF", "AVIF"):
            raise InputError(f"image {path} is a {kind} photo, which this OpenCV cannot read: "
                             "save it as JPEG or PNG (most phones can, or any image viewer)")
        raise InputError(f"image {path} cannot be read (not an image, or an unsupported format)")
    return np.asarray(image)
