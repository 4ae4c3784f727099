"""The renderer: a webcam over a 3D board (issue 2, part 5).

``Renderer(board, look, size, seed).render(subframes, camera, frame_index)`` turns
:class:`~tracker.render.scene.SceneFrame` s (board millimetres) into BGR images that look like a
real camera's: procedural wood or paint, ring lines, pegs with height, ditch and rails seen in
perspective, discs as shaded cylinders with shadows, hands, cues, and the camera's lighting,
glare, lens distortion, noise and compression. ``sample_look`` and ``sample_camera`` draw random
setups for the ``easy`` and ``hard`` presets; ``true_homography``, ``intrinsics`` and ``project``
give the ground truth of the geometry.
"""

from __future__ import annotations

from tracker.render.camera import intrinsics, project, true_homography
from tracker.render.renderer import Renderer
from tracker.render.sampling import sample_camera, sample_look
from tracker.render.scene import Camera, CueSprite, DiscSprite, HandSprite, Look, SceneFrame

__all__ = [
    "Renderer",
    "sample_look",
    "sample_camera",
    "true_homography",
    "intrinsics",
    "project",
    "Camera",
    "Look",
    "SceneFrame",
    "DiscSprite",
    "HandSprite",
    "CueSprite",
]
