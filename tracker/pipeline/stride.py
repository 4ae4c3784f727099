"""Skipping every other moving frame at high frame rates, only where nothing can happen unseen.

At 30 fps a frame where something moves costs ~20 ms of detection, a still one ~1 ms; the tracker
was built and tuned on 10-15 fps, so at >= 30 fps a moving frame may go without detection or
tracker update (``stride = round(fps / 20)``; 1 below 30 fps: the fixtures are untouched): the
tracker just sees a longer step. But a blind stride is not safe, and whether it fails depends on
its phase. crokinole_2_hard seed 7104, last shot: n4 comes in at ~1.2 m/s and hits s3, which
rests 8 mm from s4, and s3 hits s4 (frames 751-752). Skipping every other moving frame in one
phase, the tracker sees s3 and s4 both displaced between two looks and swaps their names (2
identity switches; on the video when the odd frames go, on truth detections the even ones); in
the other phase it does not. Seed 7401 (hard) loses its round score the same way. So a frame is
skipped only when nothing can change places:

* no tentative track is waiting (a disc just born needs consecutive sightings);
* every moving disc has been moving ``LAUNCH_FRAMES`` frames (no velocity estimate before);
* no moving disc can reach another disc before the next look: the gap between them is more
  than both their travels over ``stride`` frames, times ``SAFETY``, plus ``MARGIN_MM``;
* nor the rim (crokinole ditch, korona rim) or a korona pocket, where a disc leaves play.
* and only while a disc is moving: a frame where the picture changes but no disc moves is a hand
  setting a disc down, lifting one out or hovering before the flick. Skipping those was most of
  what the rule skipped on seed 7401 (hard), and there the disc set on the shooting line was seen
  on two frames only, under the hand; with every other frame gone its track was never confirmed,
  the disc seemed to appear already sliding, and its shot dropped out of the log.

Not the pegs nor the 20-hole: a peg only turns a disc and the hole swallows it, both followed
unseen at 10-15 fps on every fixture; with them the rule hardly ever skipped on a crokinole shot
(every shot ends near the centre). In the open middle of a slide it skips freely.

The rule reads only the tracker's state (positions, velocities, states in mm), never the image,
so it costs microseconds and is the same in ``review`` and ``live``.
"""

from __future__ import annotations

import math

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.track import Track

# Frames a disc must have been tracked moving before its frames may be skipped (launch: no
# velocity estimate yet; a flick or a hand's push still accelerates it).
LAUNCH_FRAMES = 4
# Travel between two looks is speed x stride frames; times SAFETY (speeds are estimates, a disc
# may be speeding up from a knock), plus MARGIN_MM of clearance beyond contact.
SAFETY = 1.5
MARGIN_MM = 10.0


def stride_for(fps: float) -> int:
    """Detect one frame in ``stride`` while something moves (1: every frame; 2 at 30 fps)."""
    return max(1, round(fps / 20.0))


class StrideGate:
    """Decides, per frame, whether a moving frame may go undetected (see the module notes)."""

    def __init__(self, fps: float) -> None:
        self.stride = stride_for(fps)
        self.dt = 1.0 / fps if fps > 0 else 0.0
        self._moving_for: dict[int, int] = {}  # track id -> frames in a row seen moving
        self._run = 0  # frames skipped since the last processed one
        self.skipped = 0
        self.why = ""  # the reason the last frame was not skipped (diagnostics)

    def observe(self, tracks: list[Track]) -> None:
        """After a processed frame: count how long each disc has been moving."""
        seen = {tr.id for tr in tracks if tr.state == "moving"}
        self._moving_for = {k: self._moving_for.get(k, 0) + 1 for k in seen}

    def decide(self, mode: str, index: int, tracks: list[Track], tentative: bool,
               board: CrokinoleBoard | KoronaBoard) -> bool:
        """``skip`` under ``Pipeline.skip_moving``: "safe" (this rule), "off", or, for diagnostics,
        "blind" (every other moving frame), "odd"/"even" (blind, skipping odd/even frame numbers)."""
        if mode == "off" or self.stride <= 1:
            return False
        if mode in ("odd", "even"):
            return index % self.stride == (mode == "odd")
        if mode == "blind":
            self._run = (self._run + 1) % self.stride
            return self._run != 0
        return self.skip(tracks, tentative, board)

    def skip(self, tracks: list[Track], tentative: bool, board: CrokinoleBoard | KoronaBoard) -> bool:
        """True when this (moving) frame may go without detection or tracker update."""
        if self.stride <= 1 or self._run >= self.stride - 1:
            self._run = 0
            self.why = "stride"
            return False
        why = self.unsafe(tracks, tentative, board)
        self.why = why
        if why:
            self._run = 0
            return False
        self._run += 1
        self.skipped += 1
        return True

    def unsafe(self, tracks: list[Track], tentative: bool, board: CrokinoleBoard | KoronaBoard) -> str:
        """Why skipping now could miss something ('' when it cannot)."""
        if tentative:
            return "a new disc is being confirmed"
        moving = [tr for tr in tracks if tr.state == "moving"]
        if not moving:  # a hand (or a disc the tracker lost in blur just now, in a collision)
            return "no disc moving"
        # a disc the tracker put in the 20-hole may still be on the surface beside it (7101: n3 hit
        # s3, judged in the hole at 11 mm from the centre): it counts as an obstacle too
        others = [tr for tr in tracks if tr.alive or tr.state == "hole"]
        horizon = SAFETY * self.stride * self.dt  # from the last look to the next one, with a margin
        for tr in moving:
            if self._moving_for.get(tr.id, 0) < LAUNCH_FRAMES:
                return f"disc {tr.id} just started moving"
            reach = tr.speed * horizon + MARGIN_MM
            x, y = float(tr.xy[0]), float(tr.xy[1])
            for o in others:
                if o.id == tr.id:
                    continue
                gap = math.hypot(float(o.xy[0]) - x, float(o.xy[1]) - y) - tr.radius - o.radius
                if gap < reach + o.speed * horizon:
                    return f"disc {tr.id} near disc {o.id}"
            near = near_fixture(board, x, y, tr.radius, reach)
            if near:
                return f"disc {tr.id} near {near}"
        return ""


def near_fixture(b: CrokinoleBoard | KoronaBoard, x: float, y: float, r: float, reach: float) -> str:
    """The edge (crokinole rim, korona rim or pocket) a disc at (x, y) could reach within ``reach`` mm.

    Not the 20-hole nor the pegs: a disc dropping in just vanishes and a peg only turns it, both of
    which the tracker follows unseen at 10-15 fps on every fixture, and with them the rule hardly
    ever skipped on a crokinole shot (every shot ends near the centre). What 15 fps cannot afford
    is two discs exchanging places between looks: that is the disc-to-disc rule."""
    if isinstance(b, CrokinoleBoard):
        d = math.hypot(x, y)
        if d + r + reach >= b.surface_radius:
            return "the rim"
        return ""
    h = b.half
    if max(abs(x), abs(y)) + r + reach >= h:
        return "the rim"
    for px, py in b.pocket_centres().values():
        if math.hypot(px - x, py - y) - r - b.pocket_radius < reach:
            return "a pocket"
    return ""
