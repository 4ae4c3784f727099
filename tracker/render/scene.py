"""What the renderer draws: the state of the scene at one instant, in board millimetres.

The simulation (``tracker.sim``) produces a ``SceneFrame`` per video frame (and per sub-frame for
motion blur); the renderer (``tracker.render``) turns it into pixels through a ``Camera``. This file
is the contract between the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DiscState = Literal["surface", "hole", "ditch", "pocket", "off", "lifted"]
Finish = Literal["natural", "dark", "blue", "red", "white", "birch", "black"]


@dataclass(frozen=True)
class DiscSprite:
    id: str  # stable id, e.g. "s3" (seat initial + number) or "S" for a striker
    x: float  # mm, board frame
    y: float
    radius: float  # mm
    thickness: float  # mm
    side: int  # colour index: 0, 1 (crokinole sides / korona players ...), for the look's palette
    kind: Literal["disc", "striker"] = "disc"
    state: DiscState = "surface"
    # Height of the disc's bottom face above the playing surface in mm (negative: sunk in the
    # hole or ditch; positive: lifted by a hand).
    z: float = 0.0
    angle: float = 0.0  # rotation about its axis, radians (wood grain of the disc turns with it)


@dataclass(frozen=True)
class HandSprite:
    """A hand and forearm reaching over the board from outside toward ``(x, y)`` (fingertips)."""

    x: float
    y: float
    from_angle: float  # radians: direction (board frame) from the board centre to the shoulder
    skin: int = 0  # index into the look's skin tones
    sleeve: int = 0  # index into the look's sleeve colours
    z: float = 40.0  # height of the hand above the surface, mm
    pose: Literal["flick", "pinch", "open"] = "flick"


@dataclass(frozen=True)
class CueSprite:
    """A korona cue: a stick from ``(x0, y0)`` (its tip) back to ``(x1, y1)``."""

    x0: float
    y0: float
    x1: float
    y1: float
    z: float = 6.0


@dataclass(frozen=True)
class SceneFrame:
    t: float
    discs: tuple[DiscSprite, ...] = ()
    hands: tuple[HandSprite, ...] = ()
    cues: tuple[CueSprite, ...] = ()


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the board with radial lens distortion.

    The camera stands at ``height`` mm above the surface, looking down with ``tilt`` degrees from
    vertical toward the board centre, from the direction ``azimuth`` degrees (0 = camera sits to
    the south of the centre, so south is at the bottom of the image; counted counter-clockwise
    seen from above like every board-frame angle, so 90 = camera to the east), rolled by ``roll`` degrees
    about its optical axis. ``focal`` is in pixels for the rendered size; ``k1``, ``k2`` are
    OpenCV radial distortion coefficients. ``target`` is the board point at the image centre.
    """

    height: float = 1500.0
    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    focal: float = 800.0
    k1: float = 0.0
    k2: float = 0.0
    target: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Look:
    """How a rendered match looks: board style, palettes, lighting and sensor effects."""

    surface: Literal["natural", "dark", "blue", "red", "white", "birch"] = "natural"
    line_color: tuple[int, int, int] = (20, 20, 20)  # BGR
    line_width: float = 2.0  # mm, as drawn
    outer_shape: Literal["round", "octagon", "square"] = "round"
    disc_colors: tuple[tuple[int, int, int], ...] = ((170, 210, 235), (30, 30, 30))  # BGR per side
    striker_color: tuple[int, int, int] = (25, 25, 25)
    skin_tones: tuple[tuple[int, int, int], ...] = ((140, 170, 220), (90, 120, 170), (50, 70, 110))
    sleeve_colors: tuple[tuple[int, int, int], ...] = ((120, 60, 30), (40, 40, 40), (200, 200, 200))
    light_gradient: float = 0.15  # brightness change across the image
    glare: float = 0.0  # strength of a specular glare spot, 0..1
    vignette: float = 0.2
    exposure_drift: float = 0.0  # amplitude of slow auto-exposure / white-balance drift
    noise_sigma: float = 2.0  # sensor noise, grey levels
    jpeg_quality: int = 90  # compression before video encoding
    shadow_strength: float = 0.35
    extras: dict[str, float] = field(default_factory=dict)
    # Added by the renderer (additive; defaults keep older callers working):
    rail: Finish = "dark"  # finish of the crokinole rail / korona rims
    ditch: Finish = "black"  # finish of the crokinole ditch floor and the 20-hole walls
    hole_color: tuple[int, int, int] = (30, 25, 25)  # BGR of the 20-hole / pocket bottom
    peg_color: tuple[int, int, int] = (45, 45, 50)  # BGR
    cue_color: tuple[int, int, int] = (120, 170, 205)  # BGR
    table_color: tuple[int, int, int] = (200, 200, 200)  # BGR of the table under the board
    floor_color: tuple[int, int, int] = (80, 85, 90)  # BGR of the floor beyond the table
    light_azimuth: float = 200.0  # degrees, board frame, direction toward the main light
    light_elevation: float = 60.0  # degrees above the horizon
    gloss: float = 0.3  # surface gloss: strength of specular highlights on discs and varnish
    blur_sigma: float = 0.5  # lens softness in pixels (at 720 px image height)
    sharpen: float = 0.0  # the webcam's unsharp masking (halos at edges), 0..1
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains: a colour cast
