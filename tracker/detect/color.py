"""Colour classes learned from the discs themselves: k-means in a lightness-damped Lab space.

Disc sets come in any colours (natural and stained wood, red/black, korona's players), so nothing
is hard-coded: the classes are whatever clusters the discs' top-face colours form. We cluster in
CIE Lab with the lightness axis scaled down (``L_WEIGHT``): a change of light (a cloud, an
auto-exposure step, a shadow across half the board) moves L much more than a and b, while two
sides of wooden discs differ in both. The classes are ordered from the lightest centre to the
darkest, which is how ``tracker photo`` orders its teams.

Mapping classes to seats (which colour is shot from where) is the tracker's job; this module only
provides the classes. ``k`` may be given (the number of sides in play) or chosen from 2..4 by the
silhouette score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

L_WEIGHT = 0.5
LAB_WEIGHT = np.array([L_WEIGHT, 1.0, 1.0])  # Lab with the lightness damped (a shadow changes L most)


def lab_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance of two mean Lab colours, lightness damped (``LAB_WEIGHT``)."""
    return float(np.linalg.norm((a - b) * LAB_WEIGHT))


def _features(lab: np.ndarray, surround: np.ndarray | None = None) -> np.ndarray:
    """Clustering features. Without ``surround``: Lab with L damped. With the Lab of the board
    around each disc: lightness as a log-ratio to the surround and chroma scaled by the surround's
    lightness, which cancels the local illumination (a disc in the shaded ditch and one in the
    sun on the surface compare like for like)."""
    lab = np.asarray(lab, dtype=float).reshape(-1, 3)
    if surround is None:
        return lab * LAB_WEIGHT
    sur = np.asarray(surround, dtype=float).reshape(-1, 3)
    ls = np.maximum(sur[:, 0], 5.0)
    rel = 60.0 * np.log(np.maximum(lab[:, 0], 2.0) / ls)
    scale = 50.0 / ls
    return np.stack([rel, lab[:, 1] * scale, lab[:, 2] * scale], 1)


def _kmeans(X: np.ndarray, k: int, rng: np.random.Generator, iters: int = 50) -> tuple[np.ndarray, np.ndarray, float]:
    """k-means++ seeding and Lloyd iterations: (centres, labels, inertia)."""
    n = len(X)
    centres = [X[rng.integers(n)]]
    for _ in range(1, k):
        d2 = np.min(((X[:, None, :] - np.array(centres)[None]) ** 2).sum(2), axis=1)
        p = d2 / d2.sum() if d2.sum() > 0 else np.full(n, 1.0 / n)
        centres.append(X[rng.choice(n, p=p)])
    C = np.array(centres)
    labels = np.zeros(n, int)
    for _ in range(iters):
        d2 = ((X[:, None, :] - C[None]) ** 2).sum(2)
        new = np.argmin(d2, axis=1)
        if np.array_equal(new, labels) and _ > 0:
            break
        labels = new
        for j in range(k):
            if np.any(labels == j):
                C[j] = X[labels == j].mean(0)
    d2 = ((X[:, None, :] - C[None]) ** 2).sum(2)
    labels = np.argmin(d2, axis=1)
    return C, labels, float(d2[np.arange(n), labels].sum())


def _silhouette(X: np.ndarray, labels: np.ndarray) -> float:
    D = np.sqrt(((X[:, None, :] - X[None]) ** 2).sum(2))
    ks = np.unique(labels)
    if len(ks) < 2:
        return -1.0
    s = np.zeros(len(X))
    for i in range(len(X)):
        same = labels == labels[i]
        a = D[i, same].sum() / max(same.sum() - 1, 1)
        b = min(D[i, labels == j].mean() for j in ks if j != labels[i])
        s[i] = 0.0 if same.sum() == 1 else (b - a) / max(a, b, 1e-9)
    return float(s.mean())


@dataclass
class ColorModel:
    """Colour classes: ``centres`` (k, 3) in CIE Lab, ordered lightest first."""

    centres: np.ndarray  # (k, 3) CIE Lab (mean colour of each class's members)
    relative: bool = False  # learned from colours relative to their surround
    feature_centres: np.ndarray | None = None

    @property
    def k(self) -> int:
        return len(self.centres)

    @staticmethod
    def fit(colors_lab: np.ndarray, k: int | None = None, seed: int = 0, restarts: int = 8,
            surround: np.ndarray | None = None, choices: tuple[int, ...] = (2, 3, 4)) -> ColorModel:
        """Learn ``k`` classes (one of ``choices``, by silhouette, when ``k`` is None) from disc
        colours (N, 3) in CIE Lab, optionally with the board's colour around each disc
        (``surround``)."""
        X = _features(colors_lab, surround)
        n = len(X)
        if k is not None and not 1 <= k <= 8:
            raise ValueError(f"ColorModel.fit: k must be between 1 and 8, got {k}")
        if n == 0:
            raise ValueError("ColorModel.fit: no colours to learn from")
        candidates = [k] if k is not None else [c for c in choices if c < n] or [1]
        best: tuple[float, np.ndarray, np.ndarray] | None = None
        for kk in candidates:
            kk = min(kk, n)
            rng = np.random.default_rng(seed)
            runs = [_kmeans(X, kk, rng) for _ in range(restarts)]
            C, labels, _inertia = min(runs, key=lambda r: r[2])
            score = _silhouette(X, labels) if len(candidates) > 1 else 0.0
            if best is None or score > best[0]:
                best = (score, C, labels)
        assert best is not None
        _, C, labels = best
        lab = np.asarray(colors_lab, dtype=float).reshape(-1, 3)
        means = np.array([lab[labels == j].mean(0) if np.any(labels == j) else lab.mean(0) for j in range(len(C))])
        order = np.argsort(-C[:, 0])  # lightest first (relative lightness when relative)
        return ColorModel(centres=means[order], relative=surround is not None, feature_centres=C[order])

    def _d2(self, colors_lab: np.ndarray, surround: np.ndarray | None) -> np.ndarray:
        if self.relative:
            if surround is None:
                raise ValueError("ColorModel: this model was learned with surround colours; pass them")
            assert self.feature_centres is not None
            X, C = _features(colors_lab, surround), self.feature_centres
        else:
            X, C = _features(colors_lab), _features(self.centres)
        return ((X[:, None, :] - C[None]) ** 2).sum(2)

    def predict(self, colors_lab: np.ndarray, surround: np.ndarray | None = None) -> np.ndarray:
        """Class index (N,) of each colour: its nearest centre."""
        if len(np.asarray(colors_lab).reshape(-1, 3)) == 0:
            return np.zeros(0, int)
        return np.argmin(self._d2(colors_lab, surround), axis=1)

    def distance(self, colors_lab: np.ndarray, surround: np.ndarray | None = None) -> np.ndarray:
        """Distance (N,) of each colour to its nearest centre, in feature units."""
        return np.sqrt(self._d2(colors_lab, surround).min(axis=1))

    def hex(self, i: int) -> str:
        """The class centre as ``#rrggbb``."""
        return lab_to_hex(self.centres[i])


def lab_to_hex(lab: np.ndarray) -> str:
    import cv2

    px = np.asarray(lab, np.float32).reshape(1, 1, 3)
    bgr = cv2.cvtColor(px, cv2.COLOR_Lab2BGR).reshape(3)
    b, g, r = (int(round(float(np.clip(v, 0, 1)) * 255)) for v in bgr)
    return f"#{r:02x}{g:02x}{b:02x}"
