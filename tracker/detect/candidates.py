"""Coarse disc candidates in a rectified view: a fixed-radius, four-quadrant radial-edge filter.

In the rectified (top-down, known mm/px) view every disc has the same known radius, so we need no
general circle finder. We measure, for every pixel, how much edge lies on a ring of the disc's
radius around it *and runs along the ring* (edge normal pointing radially).

* Colour edges of any polarity: the Di Zenzo structure tensor summed over the L, a and b channels
  gives an axial edge orientation and strength per pixel, so a disc that differs from the board only
  in hue (natural wood on natural wood) answers as well as a black disc on a white board, and a
  light disc with a dark bevel does not cancel itself.
* Alignment: with the double-angle field ``(cos 2phi, sin 2phi) * strength``, the radial alignment
  over the ring is a linear filter, evaluated for all pixels at once by FFT.
* Completeness: the ring is split into four quadrants, each filtered on its own. A disc has edges
  in every quadrant; a straight edge, a board line, the ditch wall, wood grain or the side of an arm
  fills one or two. The score is the weakest quadrant, and the candidate needs every quadrant
  coherent (aligned edge / all edge on the ring).

Cost: three forward and eight inverse real FFTs of the view, about 5 ms at 2 mm/px (crokinole).

``search`` is the detector's use of it (moved here from ``detector.py``): peaks above the
coherence and strength floors, over the whole view or only boxes around the separate parts of a
changed region (``boxes.py``), with a crop-sized filter per box size (a bounded cache, least
recently used out).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
import scipy.fft as sfft

from tracker.detect.boxes import Box, area, parts, region_boxes
from tracker.detect.lab_weights import CHANNEL_WEIGHTS
from tracker.detect.ring_filter import N_SECTORS, RingFilter

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector

# Crop-sized FFT ring filters kept at once per detector (each ~0.1-5 MB), at most this many and
# this many bytes of spectra. (At most 24: on a korona match at 1280x720, with two kinds of disc
# and ~70 crop sizes a kind, a third of the searches first rebuilt a filter.)
CROP_FILTER_CACHE = 96
CROP_FILTER_BYTES = 64 << 20



@dataclass
class RingResponse:
    score: np.ndarray  # weakest quadrant's aligned edge strength (Lab units per px)
    coherence: np.ndarray  # weakest quadrant's aligned / total edge strength, 0..1


# Rows of a large view (over ``EDGE_PIXELS``) ``edge_field`` works through at a time, past its
# blur: its dozen per-pixel steps then run on arrays that stay in the processor's cache (a whole
# 431x431 view's do not: 5.0 -> 3.4 ms a call, the same numbers; small boxes are faster whole).
EDGE_ROWS = 48
EDGE_PIXELS = 1 << 16
_TINY_ROOT = np.sqrt(np.float32(1e-6))  # (sqrt(max(n, 1e-6)) = max(sqrt(n), sqrt(1e-6)) exactly)


def edge_field(lab: np.ndarray, mask: np.ndarray | None = None, blurred: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Double-angle edge field of a float32 Lab image: (c, s, strength), strength in Lab/px.
    ``blurred``: ``lab`` blurred by one pixel (below), when already made."""
    if blurred is None:
        blurred = cv2.GaussianBlur(lab, (0, 0), 1.0)
    H, W = lab.shape[:2]
    if H * W <= EDGE_PIXELS or H <= EDGE_ROWS:
        c, s, strength = _edge_rows(blurred)
    else:
        c, s, strength = (np.empty(lab.shape[:2], np.float32) for _ in range(3))
        for y0 in range(0, H, EDGE_ROWS):
            # a row more each side (the 3x3 gradients'), cut off after
            y1 = min(y0 + EDGE_ROWS, H)
            a0, a1 = max(y0 - 1, 0), min(y1 + 1, H)
            part = _edge_rows(blurred[a0:a1])
            for out, got in zip((c, s, strength), part, strict=True):
                out[y0:y1] = got[y0 - a0 : y1 - a0]
    if mask is not None:
        c *= mask
        s *= mask
        strength = strength * mask
    return c, s, strength


def _edge_rows(blurred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``edge_field`` of a blurred float32 Lab image (or a band of rows of one), unmasked."""
    jxx = jyy = jxy = None
    for ci, wc in enumerate(CHANNEL_WEIGHTS):
        ch = np.ascontiguousarray(blurred[:, :, ci])
        gx = cv2.Sobel(ch, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(ch, cv2.CV_32F, 0, 1, ksize=3)
        k = np.float32(wc / 8.0)
        np.multiply(gx, k, out=gx)
        np.multiply(gy, k, out=gy)
        if jxx is None or jyy is None or jxy is None:
            jxx, jyy, jxy = gx * gx, gy * gy, gx * gy
        else:
            tmp = gx * gy
            jxy += tmp
            jxx += np.multiply(gx, gx, out=tmp)
            jyy += np.multiply(gy, gy, out=tmp)
    assert jxx is not None and jyy is not None and jxy is not None
    c = np.subtract(jxx, jyy, out=jxx)
    s = np.multiply(jxy, 2, out=jxy)
    n = c * c
    n += np.multiply(s, s, out=jyy)
    np.sqrt(n, out=n)
    strength = np.sqrt(n)
    inv = np.divide(1.0, np.maximum(strength, _TINY_ROOT, out=n), out=n)
    c *= inv
    s *= inv
    return c, s, strength


Spectra = tuple[np.ndarray, np.ndarray, np.ndarray]


def field_spectra(lab: np.ndarray, fft_shape: tuple[int, int], mask: np.ndarray | None = None,
                  blurred: np.ndarray | None = None) -> Spectra:
    """The spectra of the edge field (``edge_field``) of ``lab``, zero-padded to ``fft_shape``:
    what ``ring_response`` filters (the same for every ring radius with that FFT size)."""
    c, s, strength = edge_field(lab, mask, blurred)
    return (sfft.rfft2(c, s=fft_shape, workers=1), sfft.rfft2(s, s=fft_shape, workers=1),
            sfft.rfft2(strength, s=fft_shape, workers=1))


def ring_response(lab: np.ndarray, filt: RingFilter, mask: np.ndarray | None = None,
                  spectra: Spectra | None = None) -> RingResponse:
    """The ring filter's response over ``lab``; ``spectra``: ``field_spectra`` of it, when
    already made for another ring of the same FFT size."""
    C, S, M = spectra if spectra is not None else field_spectra(lab, filt.fft_shape, mask)
    # (the same operations as ``r = apply(C cos_k + S sin_k)``, ``q = r / max(m, 1e-3)``,
    # ``score = min(score, r)``, ... written into buffers made once: a full korona view's
    # spectra and responses are ~1 MB each, and making them anew for every sector cost a third
    # of the call, as much as four of its eight inverse transforms)
    spec = np.empty(C.shape, np.result_type(C, filt.cos_k[0], S, filt.sin_k[0]))
    part = np.empty_like(spec)
    score = None
    coh = None
    for k in range(N_SECTORS):
        np.multiply(C, filt.cos_k[k], out=spec)
        spec += np.multiply(S, filt.sin_k[k], out=part)
        r = filt._apply(spec)
        m = filt._apply(np.multiply(M, filt.mag_k[k], out=part))
        q = np.divide(r, np.maximum(m, 1e-3, out=m), out=m)
        score = r if score is None else np.minimum(score, r, out=score)
        coh = q if coh is None else np.minimum(coh, q, out=coh)
    assert score is not None and coh is not None
    return RingResponse(score=score.astype(np.float32), coherence=coh.astype(np.float32))


def peaks(score: np.ndarray, min_distance_px: float, threshold: float,
          valid: np.ndarray | None = None, limit: int = 200) -> np.ndarray:
    """Local maxima of ``score`` above ``threshold``, at least ``min_distance_px`` apart (greedy,
    strongest first). Returns (N, 2) pixel coordinates (u, v), with sub-pixel parabola offsets."""
    k = max(3, int(2 * round(min_distance_px / 2) + 1))
    cand = score > threshold
    if valid is not None:
        cand &= valid
    # The local maxima only where a candidate can be: the dilation over the candidates' box and
    # the kernel's reach around it (the same maxima as the whole map's, for less of it)
    bx, by, bw, bh = cv2.boundingRect(cand.view(np.uint8))
    if bw == 0:
        return np.zeros((0, 2))
    h, w = score.shape
    y0, y1, x0, x1 = max(by - k // 2, 0), min(by + bh + k // 2, h), max(bx - k // 2, 0), min(bx + bw + k // 2, w)
    dil = cv2.dilate(score[y0:y1, x0:x1], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    box = (slice(by, by + bh), slice(bx, bx + bw))
    vs, us = np.nonzero(cand[box] & (score[box] >= dil[by - y0 : by - y0 + bh, bx - x0 : bx - x0 + bw]))
    if len(us) == 0:
        return np.zeros((0, 2))
    vs, us = vs + by, us + bx
    order = np.argsort(-score[vs, us])[: 4 * limit]
    kept: list[tuple[float, float]] = []
    for i in order:
        u, v = int(us[i]), int(vs[i])
        if any((u - a) ** 2 + (v - b) ** 2 < min_distance_px**2 for a, b in kept):
            continue
        du = dv = 0.0
        if 0 < u < w - 1 and 0 < v < h - 1:
            left, c, right = score[v, u - 1], score[v, u], score[v, u + 1]
            den = left - 2 * c + right
            du = float(0.5 * (left - right) / den) if den < 0 else 0.0
            top, bottom = score[v - 1, u], score[v + 1, u]
            den = top - 2 * c + bottom
            dv = float(0.5 * (top - bottom) / den) if den < 0 else 0.0
        kept.append((u + float(np.clip(du, -0.5, 0.5)), v + float(np.clip(dv, -0.5, 0.5))))
        if len(kept) >= limit:
            break
    return np.array(kept, dtype=float).reshape(-1, 2)


def search(det: DiscDetector, view: np.ndarray, kind: int, radius: float,
           region: np.ndarray | None = None, lab: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Coarse centres (N, 2) in mm and their coherence (N,) in the coarse ``view`` (BGR),
    only inside ``region`` (a mask of the view) when given; the filter then runs on a box
    around each separate part of the region only (``boxes.py``), and only those boxes are
    converted to Lab (unless the whole view's ``lab`` is given)."""
    st = det.settings
    filt = det._filters[kind]
    H, W = view.shape[:2]
    valid = det._valid
    if region is not None:
        # (each kind searches the same region on a call: its parts are found once)
        if det._region_parts is None or det._region_parts[0] is not region:
            valid = det._valid & region
            # The boxes are disjoint and hold every pixel of ``valid``: with half the view or
            # more in it, their area is half the view or more, and the whole view is searched
            # below; its parts are not looked for (a noisy picture's change mask covers the
            # view: k4h_9506, 2200 calls of 0.75 ms)
            whole = np.count_nonzero(valid) >= 0.5 * H * W
            det._region_parts = (region, valid, None if whole else parts(valid))
        _, valid, stats = det._region_parts
        if stats is not None:
            boxes = region_boxes(valid, filt.half + 2, stats)
            if not boxes:
                return np.zeros((0, 2)), np.zeros(0)
            if area(boxes) < 0.5 * H * W:  # (else the whole view, as cheap)
                return _search_boxes(det, view, lab, kind, radius, valid, boxes)
    # The whole view: the same for every kind searched on this call, so its edge field's
    # spectra serve them all when their FFT sizes agree (korona's disc and striker rings:
    # a third of a full-view search).
    shared = det._view_spectra
    sub: np.ndarray
    if shared is not None and shared[0] is view and shared[1] == filt.fft_shape:
        spectra = shared[2]
        sub = view  # (only its shape is read below)
    else:
        if lab is None or det.colours.is_whole(view, lab):  # (its blur shared with the streak finder)
            sub = det.colours.lab(view)
            spectra = field_spectra(sub, filt.fft_shape, blurred=det.colours.blurred(view))
        else:
            sub = lab
            spectra = field_spectra(sub, filt.fft_shape)
        det._view_spectra = (view, filt.fft_shape, spectra)
    rr = ring_response(sub, filt, spectra=spectra)
    ok = valid & (rr.coherence >= st.min_coherence) & (rr.score >= st.min_flux)
    uv = peaks(rr.score, 0.9 * radius / det.mm_per_px, 0.0, ok, st.max_candidates)
    coh = rr.coherence[np.clip(np.round(uv[:, 1]).astype(int), 0, sub.shape[0] - 1),
                       np.clip(np.round(uv[:, 0]).astype(int), 0, sub.shape[1] - 1)]
    return det.view.to_mm(uv), coh


def _search_boxes(det: DiscDetector, view: np.ndarray, lab: np.ndarray | None, kind: int, radius: float,
                  valid: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, np.ndarray]:
    """``search`` over the ``boxes`` of a changed region only: the responses of each box put
    together in view-sized maps (``box_responses``), and the peaks found over them at once, as
    over one box."""
    st = det.settings
    score, coher = box_responses(det, view, lab, kind, boxes)
    ok = valid & (coher >= st.min_coherence) & (score >= st.min_flux)
    uv = peaks(score, 0.9 * radius / det.mm_per_px, 0.0, ok, st.max_candidates)
    coh = coher[np.round(uv[:, 1]).astype(int), np.round(uv[:, 0]).astype(int)]
    return det.view.to_mm(uv), coh


def box_responses(det: DiscDetector, view: np.ndarray, lab: np.ndarray | None, kind: int,
                  boxes: list[Box]) -> tuple[np.ndarray, np.ndarray]:
    """View-sized maps of the ring filter's score and coherence, each box's part filtered on
    its own (a crop-sized filter); zero outside the boxes."""
    score = np.zeros(view.shape[:2], np.float32)
    coher = np.zeros(view.shape[:2], np.float32)
    for y0, y1, x0, x1 in boxes:
        filt = _crop_filter(det, kind, y1 - y0, x1 - x0)
        hb, wb = filt.shape
        crop = lab[y0:y1, x0:x1] if lab is not None else det.colours.lab(view, (y0, y1, x0, x1))
        sub = cv2.copyMakeBorder(crop, 0, hb - (y1 - y0), 0, wb - (x1 - x0), cv2.BORDER_REPLICATE)
        rr = ring_response(sub, filt)
        score[y0:y1, x0:x1] = rr.score[: y1 - y0, : x1 - x0]
        coher[y0:y1, x0:x1] = rr.coherence[: y1 - y0, : x1 - x0]
    return score, coher


def _crop_filter(det: DiscDetector, kind: int, h: int, w: int) -> RingFilter:
    """The ring filter for a crop of ``h`` x ``w`` pixels, its size rounded up to 32 (from the
    detector's ``CropFilters``)."""
    hb, wb = -(-h // 32) * 32, -(-w // 32) * 32
    key = (kind, hb, wb)
    filt = det._crop_filters.get(key)
    if filt is None:
        rp, ep, sp = det._ring_px[kind]
        filt = det._crop_filters.add(key, RingFilter.build((hb, wb), rp, 1.5, ep, sp))
    return filt


class CropFilters:
    """Ring filters per (kind, crop height, crop width): a bounded cache, least recently used out
    (every crop size has its own FFT filter, and an unbounded cache grew without end over a long
    live match). The bytes it holds are counted as filters come and go (summing them over the
    cache on every new filter was half the cost of a filter's making: k2e_9505, 8100 sums of ~13
    filters for 165 filters made)."""

    def __init__(self, count: int = CROP_FILTER_CACHE, nbytes: int = CROP_FILTER_BYTES) -> None:
        self._filters: OrderedDict[tuple[int, int, int], RingFilter] = OrderedDict()
        self.max_count = count
        self.max_bytes = nbytes
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._filters)

    def get(self, key: tuple[int, int, int]) -> RingFilter | None:
        """The filter of ``key`` (now the most recently used), or None."""
        filt = self._filters.get(key)
        if filt is not None:
            self._filters.move_to_end(key)
        return filt

    def add(self, key: tuple[int, int, int], filt: RingFilter) -> RingFilter:
        """``filt`` kept under ``key`` as the most recently used, the least recently used ones
        let go while the cache holds too many or too many bytes (``filt`` itself among them
        when it alone is over the bytes); returns ``filt``."""
        self._filters[key] = filt
        self.nbytes += filt.nbytes
        while len(self._filters) > self.max_count or self.nbytes > self.max_bytes:
            _, out = self._filters.popitem(last=False)
            self.nbytes -= out.nbytes
        return filt
