"""Where a crokinole disc lost in motion came to rest: found by what changed on the board.

``rest_unseen`` fits a disc the detector lost at rest from a few starts around its forecast
place: the tracker's last sighting of it, held where it was last seen. A disc lost while it
still slid (a light disc on a light board, one turned back by a peg or a disc) rests well past
that: c2h_9986's n2, last seen at (87, -11) as it came off the peg at (94, -39), rested against
the peg at (94, 39), 40 mm further; c4h_9993's s2, last seen at (63, -27) as it struck e1,
rested at (97, -7), 40 mm on. Both out of ``rest_unseen.REACH`` (1.5 radii), so their shots
reported the forecast (5 points lost on each round; c4h_9993's next shot, at the disc the tracker
did not know was there, swapped names too).

The board shows where it went. When a shot is judged, its settled frame is compared with the
frame the last shot was judged on (the board at rest then; the first frame tracked before the
first shot), in the detector's top-down view: the discs at rest then and now (and their
shadows, ``streaks.SHADOW_MM``), the shot disc's start, the 20-hole and the ditch explain their
change; what differs beyond that by ``LEVEL`` times the view's median difference, in a blob of
about a disc's area (``AREA``), within ``SEARCH_RADII`` disc radii of the forecast, is where a
lost disc may be. Each lost disc, nearest first, is fitted from its blob's centre as
``rest_unseen`` fits from the forecast (``rest_unseen.fit_near``); a fit the detector would not
accept is still taken when its outline shows (``MIN_COVERAGE``), its shape and place are a
disc's (``verify.shape_ok``) and its silhouette explains the blob (``EXPLAINS``), as
``rest_blobs`` takes a disc found by its blob (c2h_9986's n2 against its peg: coverage 0.53),
but only from a blob beyond the forecast's own reach (``rest_unseen.REACH``): a blob within it
backs the forecast, and such loose fits scatter by several millimetres on the hard camera
(c2h_9986's n1 on the shooting line, forecast 5 mm off: the loose fit 9 mm off). A loose fit's
place is the region model's (``MODEL``: ``chamfer.ChamferCorrection.modelled``, as korona's discs
at rest are placed, ``rest_places``) from the first loose fit, best first, it holds on from.

Replays of dets21 (31 crokinole dev matches, 6 crokinole fixtures), before -> after: c2h_9986
rounds 0/1 -> 1/1 (n2 40 mm -> 0.4 mm off; 0.95/5.06 -> 0.89/5.03 mm), c4h_9993 s2 40 -> 0.5 mm
(0.52/2.84 -> 0.50/2.69; the round still lost at w2's shot: w2 lost in flight, its track took
s2's run), c4h_9963 e1 5.9 -> 1.2 mm (p95 4.17 -> 1.44), c4h_9981 e1 found 0.55 mm off
(0.25/1.29 -> 0.26/1.23), c4h_9975 w1 26 -> 0.4 mm (0.40/4.04 -> 0.41/4.01); the others
identical. Without the model (edge fits alone): n2 5.3 mm, s2 0.6 mm off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect import verify
from tracker.detect.background import silhouettes
from tracker.detect.refine import Fit
from tracker.detect.streaks import SHADOW_MM
from tracker.pipeline import rest_unseen
from tracker.track.datatypes import Track

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# On: a lost disc's blob sought when no fit lies near its forecast (module docstring).
ON = True
# On: a disc found so is put there in the tracker too (its track's place and rest anchor). Off:
# replays (--dets), off -> on: c4h_9993's w2 still took the wrong run (rounds 0/1 as before; with
# ``lifecycle.VELOCITY_OVER_GAP`` too, 1/1), but c4h_9981 0/1 (e1, kept unseen and counted lifted
# at its found place, revived there when struck: its "off" missed) and c4h_9975 removed P 100 ->
# 20% (w1 found where it lay, s2's light blow on it unseen: false "no opponent disc hit" fouls).
MOVE_TRACK = False
# A blob pixel differs from the last judged frame by this many times the view's median difference.
LEVEL = 4.0
# ... and by at least this (Lab, L on the 8-bit scale): a still board's video noise is 3-5.
MIN_LEVEL = 12.0
# A blob's area, as a share of a disc's silhouette (foot, top face and the band between) there.
AREA = (0.45, 2.5)
# Disc radii from the forecast within which a blob is looked at.
SEARCH_RADII = 6.0
# The loose fit: its outline's share, and the share of the blob within its silhouette and shadow
# and of its silhouette that changed by half the blobs' level (``rest_blobs.EXPLAINS``).
MIN_COVERAGE = 0.3
EXPLAINS = (0.7, 0.6)
# Disc radii between a fit's centre and its blob's.
NEAR = 0.75
# On: a loose fit's place is the region model's (``chamfer.ChamferCorrection.modelled``, as korona's
# discs at rest: ``rest_places``) from the first loose fit it holds on; the edge fits alone scatter.
MODEL = True
# The fits' starts round a blob's centre (disc radii): a blob is a disc's shadow side, or the part
# of a faint disc that differs enough (c4h_9993's cream s2 on the cream board: its blob's centre
# 9 mm from the disc's).
RINGS = (0.4, 0.8)


@dataclass
class Judged:
    """The frame the last shot was judged on, and the places of the discs at rest then."""

    frame: np.ndarray
    places: list[tuple[float, float]] = field(default_factory=list)


def remember(frame: np.ndarray | None, tracks: list[Track]) -> Judged | None:
    """The board as a shot was judged on it (or as tracking began), for the next shot's search."""
    if frame is None:
        return None
    return Judged(frame.copy(), [(float(tr.xy[0]), float(tr.xy[1])) for tr in tracks if tr.state == "rest"])


def _sil(det: DiscDetector, places: np.ndarray, radius: float, margin: float, shape: tuple[int, int]) -> np.ndarray:
    """The view's pixels the discs at ``places`` (N, 2) hide, grown by ``margin`` mm."""
    if not len(places):
        return np.zeros(shape, bool)
    s, k = det.pose.top_shift(places, det.thickness)
    v = det.view
    r = (radius * k + margin) / v.mm_per_px
    return silhouettes(shape, v.to_px(places), v.to_px(places + s), np.broadcast_to(r, (len(places),)))


def _difference(det: DiscDetector, before: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Per view pixel, the Lab distance (L on the 8-bit scale) between the two frames' views."""
    a, b = (cv2.cvtColor(det.rectify(f).astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab) for f in (before, frame))
    d = (a - b) * np.array([2.55, 1.0, 1.0], np.float32)
    out: np.ndarray = cv2.GaussianBlur(np.sqrt((d * d).sum(axis=2)), (0, 0), 0.8)
    return out


@dataclass(eq=False)
class Blob:
    centre: np.ndarray  # mm
    mask: np.ndarray  # (view) bool
    area: int
    change: np.ndarray  # (view) bool: what differs by half the blobs' level, where no known disc explains it


def blobs(det: DiscDetector, judged: Judged, frame: np.ndarray, known: list[tuple[float, float]]) -> list[Blob]:
    """The disc-sized parts of the board that changed since ``judged`` and that no disc at rest
    then or now (``judged.places``, ``known``) explains."""
    b = det.board
    assert isinstance(b, CrokinoleBoard)
    R = b.disc_radius
    diff = _difference(det, judged.frame, frame)
    shape = (int(diff.shape[0]), int(diff.shape[1]))
    v = det.view
    u, w = np.meshgrid(np.arange(shape[1]), np.arange(shape[0]))
    xy = v.to_mm(np.stack([u.ravel(), w.ravel()], 1)).reshape(shape[0], shape[1], 2)
    r = np.hypot(xy[..., 0], xy[..., 1])
    surface = (r <= b.surface_radius) & (r > b.hole_radius + 1.0)
    if not surface.any():
        return []
    level = max(MIN_LEVEL, LEVEL * float(np.median(diff[surface])))
    places = np.array([*judged.places, *known], float).reshape(-1, 2)
    free = surface & ~_sil(det, places, R, SHADOW_MM + v.mm_per_px, shape)
    mask = (diff > level) & free
    change = (diff > 0.5 * level) & free
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
    out: list[Blob] = []
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        c = v.to_mm(cents[i][None].astype(float))[0]
        sil = int(_sil(det, c[None], R, 0.0, shape).sum())
        if AREA[0] * sil <= area <= AREA[1] * sil:
            out.append(Blob(c, labels == i, area, change))
    return out


def explains(det: DiscDetector, blob: Blob, centre: np.ndarray) -> bool:
    """Whether a disc at ``centre`` explains ``blob`` (``EXPLAINS``): the blob lies within its
    silhouette and shadow, and its silhouette changed (where no known disc explains the change)."""
    R = det.board.disc_radius
    shape = (int(blob.mask.shape[0]), int(blob.mask.shape[1]))
    own = _sil(det, centre[None], R, 0.0, shape)
    near = _sil(det, centre[None], R, SHADOW_MM + det.view.mm_per_px, shape)
    return bool((blob.mask & near).sum() >= EXPLAINS[0] * blob.area
                and (blob.change & own).sum() >= EXPLAINS[1] * own.sum())


def loose_ok(det: DiscDetector, fit: Fit, blob: Blob) -> bool:
    """A fit the detector would not accept taken for the disc of ``blob`` (module docstring)."""
    R = det.board.disc_radius
    return (fit.coverage >= MIN_COVERAGE and verify.shape_ok(det, fit, R, 1.5 if fit.visible < 1.0 else 1.0)
            and explains(det, blob, np.asarray(fit.centre, float)))


class Search:
    """One judged shot's search for its lost discs: the blobs, made once, each given to one disc."""

    def __init__(self, det: DiscDetector, judged: Judged, frame: np.ndarray, tracks: list[Track],
                 extra: list[tuple[float, float]]) -> None:
        self.det, self.judged, self.frame, self.tracks = det, judged, frame, tracks
        self.extra = extra  # places explained besides the discs at rest (the shot disc's start)
        self._blobs: list[Blob] | None = None

    def _modelled(self, fits: list[Fit]) -> np.ndarray | None:
        """The region model's centre (``rest_places.region_model``) from the first loose fit it holds
        on (``chamfer.ChamferCorrection.modelled`` gives its start back where it does not)."""
        from tracker.pipeline.rest_places import region_model

        model = region_model(self.det)
        R = self.det.board.disc_radius
        for fit in fits:
            start = np.asarray(fit.centre, float)
            centre = np.asarray(model.modelled(self.frame, start, R, fit), float)
            if not np.array_equal(centre, start):
                return centre
        return None

    def find(self, tr: Track, at_xy: tuple[float, float]) -> tuple[float, float] | None:
        """The place of the lost disc ``tr`` (forecast at ``at_xy``) fitted from the nearest blob
        within ``SEARCH_RADII`` that a fit takes; the blob is then used up."""
        R = self.det.board.disc_radius
        at = np.asarray(at_xy, float)
        if self._blobs is None:
            known = [(float(o.xy[0]), float(o.xy[1])) for o in self.tracks if o.state == "rest" and o is not tr
                     and not rest_unseen.unseen(o)]
            self._blobs = blobs(self.det, self.judged, self.frame, known + self.extra)
        for bl in sorted(self._blobs, key=lambda x: float(np.hypot(*(x.centre - at)))):
            if float(np.hypot(*(bl.centre - at))) > SEARCH_RADII * R:
                break
            # (a blob within the forecast's own reach backs the forecast: a loose fit is no better)
            far = float(np.hypot(*(bl.centre - at))) > rest_unseen.REACH * R
            xy = rest_unseen.fit_near(self.det, self.frame, self.tracks, tr, bl.centre, NEAR,
                                      loose=(lambda f, bl=bl: loose_ok(self.det, f, bl)) if far else None,  # type: ignore[misc]
                                      rings=RINGS, ties=True, settle=self._modelled if MODEL else None)
            if xy is not None:
                self._blobs.remove(bl)
                return xy
        return None
