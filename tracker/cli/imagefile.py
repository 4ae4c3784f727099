"""Reading a still photo for ``tracker photo``: the one image reader of every command
(``tracker.calibration.imagefile``: a truncated JPEG or PNG is refused before decoding)."""

from tracker.calibration.imagefile import jpeg_complete, png_complete
from tracker.calibration.imagefile import read_image_file as read_photo

__all__ = ["jpeg_complete", "png_complete", "read_photo"]
