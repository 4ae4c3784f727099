"""A disc at rest placed by the picture of what it changed on the empty board, where its outline
shows no edge to fit: the region fit of a blob (``rest_blobs.py``) that the edge refit turns down.

A disc of the board's own colour (c4h_9921: blue discs on the blue board) shows almost no edge in
the frame: its top face is the board's colour, and the hard preset's grain hides what step there
is (a fit started at the true centre covers 0-0.3 of its outline, on the frame or on the frame
minus the empty board alike). Against the empty board's picture (``background.py``) it is a plain
blob, but not centred on the disc: the face is a little darker than the board it hides (some 10
Lab units), its cast shadow on one side much darker (some 35), and a soft darkening rings its foot.
The blob's centroid lies 5-12 mm off the disc, towards the shadow.

The region fit, in the view's signed difference from the empty board ``x`` (weighted 8-bit Lab,
exposure drift taken out): a disc at ``c`` predicts one mean change inside its silhouette's core
(foot, top face and the band between, anti-aliased, ``BAND_MM`` in from its edge) and, outside it
(``BAND_MM`` out), the change the discs found at rest show round their own silhouettes
(``shadow_template``: their shadows and the darkening round the foot, learned on this call, in
the view's pixels round the contact point); ``c`` minimises the squared error, on a 2 mm grid, then
0.5 mm and 0.25 mm. A model with a free shadow instead (one mean darker change anywhere outside)
put the fit 6 mm off, away from the shadow: the soft ring round the foot pulled it. The learned
template leaves 0.5-1.3 mm (rendered stills, seed 9921's look, 1280x720).

Kept (``BlobFit.ok``) when the fit explains enough of the window's change (``EXPLAINED``) and the
face's change stands out (``FACE_MIN`` of the blob finder's level). No disc found at rest to learn
from (the first shot of a round): no region fit. Used by ``rest_blobs`` with
``DetectorSettings.blob_regions``, off by default (its measurements there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from tracker.detect.background import BackgroundModel
from tracker.detect.datatypes import Detections
from tracker.detect.lab_weights import WEIGHTS32 as WEIGHTS
from tracker.detect.refine import Fit
from tracker.detect.streaks import explained

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

SEARCH_MM = 12.0  # the disc's centre within this of the blob's (the coarse grid's reach)
COARSE_MM = 1.0
FINE_MM = 0.25
BAND_MM = 2.0  # the blurred band about the silhouette's edge counts neither inside nor outside
SUPERSAMPLE = 4  # the silhouette's anti-aliasing (sub-pixels a view pixel)
SHADOW_REACH_MM = 14.0  # the window reaches this far past the silhouette (a shadow's length)
# The share of the window's squared change from the empty board the fit explains
EXPLAINED = 0.35
# The face's mean change from the board, in units of the model's change threshold
FACE_MIN = 0.5
# The shadow's strength, a share of the learned one's (``BlobFit.cast``)
CAST_MIN = 0.5


# A disc teaches the shadow (``shadow_template``) when its face's mean change from the empty
# board is at least this (weighted 8-bit Lab): a disc the board's picture does not show
TEACHER_FACE = 20.0


@dataclass
class BlobFit:
    centre: np.ndarray  # (2,) mm, where the disc touches the board
    explained: float  # share of the window's squared change explained
    face: float  # the face's mean change from the empty board (weighted Lab, its norm)
    # the shadow's strength against the learned one's (the change outside the silhouette projected
    # on the template's): a disc set down casts one; the board a disc left, absorbed with it
    # into the empty board's picture, shows the opposite (brighter where its shadow was)
    cast: float = 1.0

    def ok(self, level: float) -> bool:
        return self.explained >= EXPLAINED and self.face >= FACE_MIN * level and self.cast >= CAST_MIN


def signed_difference(model: BackgroundModel, blurred: np.ndarray) -> np.ndarray:
    """The view's weighted Lab minus the empty board's (exposure drift taken out), per channel;
    0 where the board was never seen."""
    assert model.lab is not None
    x = (blurred.astype(np.float32) - model.lab - model.exposure_offset(blurred)) * WEIGHTS
    return np.asarray(x * model.known[..., None])


def _soft_silhouette(det: DiscDetector, c: np.ndarray, radius: float, box: tuple[int, int, int, int]) -> np.ndarray:
    """The share of each view pixel of ``box`` (y0, y1, x0, x1) that a disc at ``c`` hides."""
    y0, y1, x0, x1 = box
    s, k = det.pose.top_shift(c[None], det.thickness)
    v = det.view
    a = (v.to_px(c[None])[0] - [x0, y0] + 0.5) * SUPERSAMPLE - 0.5
    b = (v.to_px(c[None] + s)[0] - [x0, y0] + 0.5) * SUPERSAMPLE - 0.5
    r = radius * float(k[0]) / v.mm_per_px * SUPERSAMPLE
    canvas = np.zeros(((y1 - y0) * SUPERSAMPLE, (x1 - x0) * SUPERSAMPLE), np.uint8)
    sh = 4  # fractional bits of cv2's drawing
    pa, pb = tuple(int(round(t * 16)) for t in a), tuple(int(round(t * 16)) for t in b)
    cv2.circle(canvas, pa, int(round(r * 16)), 255, -1, cv2.LINE_AA, sh)
    cv2.circle(canvas, pb, int(round(r * 16)), 255, -1, cv2.LINE_AA, sh)
    d = np.array(b) - np.array(a)
    n = float(np.hypot(*d))
    if n > 1e-6:
        e = np.array([-d[1], d[0]]) / n * r
        quad = np.array([a + e, b + e, b - e, a - e]) * 16
        cv2.fillConvexPoly(canvas, np.round(quad).astype(np.int32), 255, cv2.LINE_AA, sh)
    small = cv2.resize(canvas, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def _window(img: np.ndarray, centre_px: np.ndarray, half: int) -> np.ndarray:
    """The (2 half + 1)^2 window of ``img`` centred (bilinear, sub-pixel) on view pixel ``centre_px``."""
    g = np.arange(-half, half + 1, dtype=np.float32)
    mx = np.ascontiguousarray(np.broadcast_to(g[None, :] + np.float32(centre_px[0]), (len(g), len(g))))
    my = np.ascontiguousarray(np.broadcast_to(g[:, None] + np.float32(centre_px[1]), (len(g), len(g))))
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def shadow_template(det: DiscDetector, x: np.ndarray, usable: np.ndarray, found: np.ndarray, radius: float,
                    half: int) -> np.ndarray | None:
    """The mean change round a disc at rest outside its silhouette (its shadow and the darkening
    round its foot), learned from the discs ``found`` (N, 2 mm) whose windows are clear of others:
    (2 half + 1)^2 x 3, centred on the contact point; None when no disc gives one."""
    v = det.view
    acc = np.zeros((2 * half + 1, 2 * half + 1, 3), np.float32)
    wsum = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    for i, c in enumerate(found):
        others = np.delete(found, i, axis=0)
        cp = v.to_px(c[None])[0]
        if not (half <= cp[0] < x.shape[1] - half - 1 and half <= cp[1] < x.shape[0] - half - 1):
            continue
        box = (int(cp[1]) - half, int(cp[1]) + half + 1, int(cp[0]) - half, int(cp[0]) + half + 1)
        out = 1.0 - _soft_silhouette(det, c, radius + BAND_MM, box)
        clear = usable[box[0]:box[1], box[2]:box[3]].copy()
        if len(others):  # (another disc's silhouette and shadow teach nothing of this one's)
            clear &= ~explained(det, Detections(xy=others, radius=np.full(len(others), radius)),
                                clear.shape, (box[0], box[2]))
        core = _soft_silhouette(det, c, radius - BAND_MM, box) * clear
        xb = x[box[0]:box[1], box[2]:box[3]]
        if float(core.sum()) < 1.0 or \
                float(np.linalg.norm((xb * core[..., None]).sum((0, 1)) / float(core.sum()))) < TEACHER_FACE:
            continue  # (a find the empty board shows too, or hidden: no disc's picture to learn from)
        w = _window(clear.astype(np.float32), cp - [box[2], box[0]], half) * _window(out, cp - [box[2], box[0]], half)
        acc += _window(x, cp, half) * w[..., None]
        wsum += w
    if float(wsum.max()) <= 0.0:
        return None
    return acc / np.maximum(wsum, 1e-3)[..., None]


def template_fit(det: DiscDetector, x: np.ndarray, usable: np.ndarray, start: np.ndarray, radius: float,
                 template: np.ndarray) -> BlobFit | None:
    """The disc's place near ``start`` that best explains ``x`` as one face change inside the
    silhouette and ``template`` (``shadow_template``) outside it."""
    v = det.view
    half = template.shape[0] // 2
    reach = int(np.ceil(SEARCH_MM / v.mm_per_px)) + 1
    u0, w0 = v.to_px(start[None])[0]
    y0, y1, x0, x1 = int(w0) - half - reach, int(w0) + half + reach + 1, int(u0) - half - reach, int(u0) + half + reach + 1
    if y0 < 0 or x0 < 0 or y1 > x.shape[0] or x1 > x.shape[1]:
        return None
    box = (y0, y1, x0, x1)
    xs = x[y0:y1, x0:x1]
    use = usable[y0:y1, x0:x1].astype(np.float32)
    total = float((use * (xs * xs).sum(2)).sum())
    if total <= 0.0:
        return None
    pad = cv2.copyMakeBorder(template, reach + 2, reach + 2, reach + 2, reach + 2, cv2.BORDER_CONSTANT)

    def at(c: np.ndarray) -> tuple[float, float, float]:
        core = _soft_silhouette(det, c, radius - BAND_MM, box)
        out = 1.0 - _soft_silhouette(det, c, radius + BAND_MM, box)
        cp = v.to_px(c[None])[0] - [x0, y0]
        # the template placed at c over the box
        g = np.arange(y1 - y0, dtype=np.float32), np.arange(x1 - x0, dtype=np.float32)
        mx = np.ascontiguousarray(np.broadcast_to(g[1][None, :] - np.float32(cp[0]) + half + reach + 2, core.shape))
        my = np.ascontiguousarray(np.broadcast_to(g[0][:, None] - np.float32(cp[1]) + half + reach + 2, core.shape))
        t = cv2.remap(pad, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        mi = core * use
        si = float(mi.sum())
        if si < 1.0:
            return float("inf"), 0.0, 0.0
        mu = (xs * mi[..., None]).sum((0, 1)) / si
        mo = out * use
        pred = t  # (beyond the template's reach the board is as it was: 0)
        cost = float((mi * ((xs - mu) ** 2).sum(2)).sum() + (mo * ((xs - pred) ** 2).sum(2)).sum())
        # how much of the learned shadow is there (1: as strong; below 0: brighter than the board)
        pp = float((mo * (pred * pred).sum(2)).sum())
        cast = float((mo * (xs * pred).sum(2)).sum()) / pp if pp > 0.0 else 0.0
        return cost, float(np.linalg.norm(mu)), cast

    best: tuple[float, np.ndarray, float, float] = (float("inf"), start, 0.0, 0.0)
    for step, span, around in ((2 * COARSE_MM, SEARCH_MM, start), (COARSE_MM / 2, COARSE_MM, None),
                               (FINE_MM, COARSE_MM / 2, None)):
        centre = best[1] if around is None else around
        g1 = np.arange(-span, span + 1e-9, step)
        for dx in g1:
            for dy in g1:
                c = centre + [dx, dy]
                cost, face, cast = at(c)
                if cost < best[0]:
                    best = (cost, c, face, cast)
    cost, c, face, cast = best
    return BlobFit(centre=np.asarray(c, float), explained=1.0 - cost / total, face=face, cast=cast)


class RegionFinder:
    """One call's region fits (``rest_blobs``): the signed difference and the shadow template
    worked out once, on the first blob that needs them."""

    def __init__(self, det: DiscDetector, lab: np.ndarray, found: np.ndarray, radius: float) -> None:
        self.det, self.lab, self.found, self.radius = det, lab, found, radius
        self._x: np.ndarray | None = None
        self._usable: np.ndarray | None = None
        self._template: np.ndarray | None = None
        self._tried = False

    def _prepare(self) -> bool:
        if not self._tried:
            self._tried = True
            det, model = self.det, self.det.background
            self._x = signed_difference(model, BackgroundModel.prepare(self.lab))
            self._usable = model.valid & model.known
            v = det.view
            half = int(np.ceil((self.radius * 1.3 + SHADOW_REACH_MM) / v.mm_per_px))
            if len(self.found):
                self._template = shadow_template(det, self._x, self._usable, self.found, self.radius, half)
        return self._template is not None

    def place(self, start: np.ndarray, level: float) -> BlobFit | None:
        """The disc's place from the blob centred at ``start`` (mm), when the fit is kept
        (``BlobFit.ok`` against the model's change ``level``); None otherwise."""
        if not self._prepare():
            return None
        assert self._x is not None and self._usable is not None and self._template is not None
        fit = template_fit(self.det, self._x, self._usable, start, self.radius, self._template)
        return fit if fit is not None and fit.ok(level) else None


def region_fit(det: DiscDetector, centre: np.ndarray, radius: float, mm_per_px: float) -> Fit:
    """A ``Fit`` of a disc placed by its region (no outline found: coverage 0)."""
    s, k = det.pose.top_shift(centre[None], det.thickness)
    return Fit(centre=np.asarray(centre, float), radius=float(radius), coverage=0.0, quarter_coverage=0.0,
               residual=0.0, contrast=0.0, mm_per_px=mm_per_px, color=None, top_centre=centre + s[0],
               top_radius=float(radius * k[0]))
