"""Ellipses joined from edge arcs: the board's rim found round a hand or a banner.

``features.candidate_ellipses`` fits one ellipse to each long contour. When a player's hand or a
broadcast's name banner lies across the rim, the rim's contour runs along the rim, then round
the hand, then on: the trimmed fit is pulled tens of pixels off, or the broken pieces are each
too short to trust. Here contours are first cut into smooth *arcs* at their corners (where the
edge turns sharply: the rim meets a hand, a table edge, a banner), so no arc mixes the rim with
the occluder. Arcs that lie on one ellipse are then joined: every pair of long arcs is fitted
together (a direct least-squares ellipse), kept when both arcs lie on the joint ellipse, and
grown greedily by every other arc that lies on it too; the support is the number of edge points
on the ellipse times the arc of angle they cover. A rim cut into two by a hand becomes one
ellipse through both pieces, and the hand's outline, which agrees with no other arc, drops out.
This is RANSAC with arcs for samples: two arcs are an almost sure sample where five points
rarely are, and there are few enough arcs to try every pair.
"""

from __future__ import annotations

import math

import numpy as np

from tracker.calibration.features import edge_contours, ellipse_uv

Ellipse = tuple[tuple[float, float], tuple[float, float], float, float]  # centre, semi-axes, angle, support

CORNER_DEG = 30.0  # an edge turning by more than this over STEP px is cut there
STEP = 4  # px, the baseline the turning is measured over
ON_TOL = 0.025  # a point is on an ellipse within this fraction of its radius
MAX_ARCS = 50  # the longest arcs are paired (MAX_ARCS^2 / 2 joint fits)


def split_arcs(contour: np.ndarray, min_len: int) -> list[np.ndarray]:
    """Cut one contour (N x 2 points, 8-connected) into pieces at its corners; pieces of at
    least ``min_len`` points."""
    n = len(contour)
    if n < min_len:
        return []
    p = contour.astype(np.float64)
    d = np.roll(p, -STEP, axis=0) - p
    ang = np.arctan2(d[:, 1], d[:, 0])
    turn = np.abs((np.roll(ang, -STEP) - ang + math.pi) % (2 * math.pi) - math.pi)
    corner = turn > math.radians(CORNER_DEG)
    if not corner.any():
        return [contour]
    # walk from one corner so that a closed contour's first and last pieces are one piece
    start = int(np.argmax(corner))
    order = np.roll(np.arange(n), -start)
    c = corner[order]
    out: list[np.ndarray] = []
    i = 0
    while i < n:
        while i < n and c[i]:
            i += 1
        j = i
        while j < n and not c[j]:
            j += 1
        if j - i >= min_len:
            # the turning is measured ahead of a point: drop STEP points each side of the cut
            seg = order[i + STEP: max(i + STEP, j - STEP)]
            if len(seg) >= min_len // 2:
                out.append(contour[seg])
        i = j
    return out


def _fit(pts: np.ndarray) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    import cv2

    if len(pts) < 6:
        return None
    try:
        (cx, cy), (d1, d2), ang = cv2.fitEllipseDirect(pts.astype(np.float32))
    except cv2.error:
        return None
    if not (np.isfinite(d1) and np.isfinite(d2)) or min(d1, d2) <= 2:
        return None
    a, b = max(d1, d2) / 2.0, min(d1, d2) / 2.0
    theta = math.radians(ang) if d1 >= d2 else math.radians(ang + 90.0)
    return (float(cx), float(cy)), (float(a), float(b)), theta


def _radial(e: tuple[tuple[float, float], tuple[float, float], float], pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(normalised radius - 1, polar angle) of points relative to ellipse ``e``."""
    u, v = ellipse_uv(*e, pts)
    return np.sqrt(u * u + v * v) - 1.0, np.arctan2(v, u)


def arc_ellipses(grey: np.ndarray, max_count: int = 12, extra_contours: list[np.ndarray] | None = None,
                 contours: list[np.ndarray] | None = None) -> list[Ellipse]:
    """Ellipses through two or more edge arcs that agree, best supported first, in the
    format of ``features.candidate_ellipses``. ``contours``: ``features.edge_contours`` of
    ``grey`` when already made."""
    h, w = grey.shape[:2]
    m = min(h, w)
    contours = list(edge_contours(grey) if contours is None else contours)
    contours += extra_contours or []
    min_len = max(20, m // 20)
    arcs: list[np.ndarray] = []
    for c in contours:
        if len(c) < min_len:
            continue
        for a in split_arcs(c.reshape(-1, 2), min_len):
            span = a.max(axis=0) - a.min(axis=0)
            if max(span) >= 0.04 * m:
                arcs.append(a.astype(np.float64))
    arcs.sort(key=lambda a: -len(a))
    arcs = arcs[:MAX_ARCS]
    # pairs are tried on thinned arcs (the ellipse through two arcs is fixed by a few dozen of
    # their points); the support is counted on all points
    thin = [a[:: max(1, len(a) // 40)] for a in arcs]
    allp = np.concatenate(thin) if thin else np.zeros((0, 2))
    owner = np.concatenate([np.full(len(a), k) for k, a in enumerate(thin)]) if thin else np.zeros(0, int)
    counts = np.bincount(owner, minlength=len(thin)).astype(np.float64)
    done: set[tuple[int, int]] = set()  # pairs already inside a found ellipse
    found: list[Ellipse] = []
    used: set[frozenset[int]] = set()
    for i in range(len(arcs)):
        for j in range(i + 1, len(arcs)):
            if (i, j) in done:
                continue
            e = _fit(np.concatenate([thin[i], thin[j]]))
            if e is None or not _plausible(e, w, h):
                continue
            if not all(np.mean(np.abs(_radial(e, thin[k])[0]) < ON_TOL) > 0.8 for k in (i, j)):
                continue
            members = _grow(e, thin, allp, owner, counts, {i, j})
            done.update((p, q) for p in members for q in members if p < q)
            key = frozenset(members)
            if key in used:
                continue
            used.add(key)
            e2 = _fit(np.concatenate([arcs[k] for k in members]))
            if e2 is None or not _plausible(e2, w, h):
                continue
            pts = np.concatenate([arcs[k] for k in members])
            r, t = _radial(e2, pts)
            on = np.abs(r) < ON_TOL
            cover = len(np.unique(np.floor(t[on] * 18 / math.pi).astype(int)))
            if cover < 12:  # under 120 degrees of arc: too little to trust
                continue
            found.append((e2[0], e2[1], e2[2], float(on.sum()) * cover / 36.0))
    found.sort(key=lambda c: -c[3])
    merged: list[Ellipse] = []
    for cand in found:
        if any(math.hypot(cand[0][0] - f[0][0], cand[0][1] - f[0][1]) < 0.03 * f[1][0]
               and abs(cand[1][0] / f[1][0] - 1) < 0.03 and abs(cand[1][1] / f[1][1] - 1) < 0.03 for f in merged):
            continue
        merged.append(cand)
        if len(merged) >= max_count:
            break
    return merged


def _plausible(e: tuple[tuple[float, float], tuple[float, float], float], w: int, h: int) -> bool:
    (cx, cy), (a, b), _ = e
    m = min(h, w)
    return (b >= 0.08 * m and a <= 1.2 * max(h, w) and b >= 0.25 * a
            and -0.1 * w < cx < 1.1 * w and -0.1 * h < cy < 1.1 * h)


def _grow(e: tuple[tuple[float, float], tuple[float, float], float], arcs: list[np.ndarray],
          allp: np.ndarray, owner: np.ndarray, counts: np.ndarray, members: set[int]) -> list[int]:
    """Every arc lying mostly on ``e`` joins it (a second round on the refitted ellipse).
    ``allp``/``owner``/``counts``: all arcs' points, the arc of each, points per arc."""
    for _ in range(2):
        on = np.abs(_radial(e, allp)[0]) < ON_TOL
        frac = np.bincount(owner[on], minlength=len(arcs)) / np.maximum(counts, 1)
        add = [k for k in np.flatnonzero(frac > 0.8).tolist() if k not in members]
        if not add:
            break
        members = members | set(add)
        e2 = _fit(np.concatenate([arcs[k] for k in sorted(members)]))
        if e2 is None:
            break
        e = e2
    return sorted(members)
