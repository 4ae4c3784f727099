"""Players: hands and forearms (a shaded tube from a shoulder outside the board to the
fingertips), and the shoulders and head they belong to.

The arm's centre line runs from the fingertips ``(x, y, z)`` of a :class:`HandSprite` toward a
shoulder beyond the board edge in the ``from_angle`` direction, rising toward it. Its half width
follows a per-pose profile in millimetres (a finger, the fist or palm, the wrist, the forearm, the
elbow). The silhouette is filled with a dark base tone and three lighter bands shifted toward the
light, then blurred inside the silhouette so the bands merge into a rounded, 3D-looking limb. A
sleeve covers the arm from the wrist (long sleeves) or the elbow (short ones). The same outline
pushed along the light onto the surface is the soft shadow. Thumb and fingers are small capsules
placed per pose. The hand's width lies flat, while the forearm's silhouette width is taken
across the line of sight (a tube looks as thick from the side as from above).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tracker.render.camera import Projector
from tracker.render.scene import HandSprite, Look
from tracker.render.sprites import ONE, SHIFT

# (distance from the fingertips in mm, half width in mm) per pose, fingertip first
PROFILES: dict[str, tuple[tuple[float, float], ...]] = {
    "flick": ((0, 7), (40, 9), (55, 34), (110, 42), (170, 27), (260, 33), (450, 40), (800, 55)),
    "pinch": ((0, 9), (35, 20), (85, 40), (120, 42), (175, 27), (260, 33), (450, 40), (800, 55)),
    "open": ((0, 20), (55, 38), (120, 44), (175, 28), (260, 33), (450, 40), (800, 55)),
}
# Digits beside the profile: (from s, lateral, to s, lateral, half width) in mm; lateral is
# along the arm's left side. The thumb, and for an open hand four spread fingers.
DIGITS: dict[str, tuple[tuple[float, float, float, float, float], ...]] = {
    "flick": ((100, 30, 60, 40, 10),),
    "pinch": ((95, 32, 14, 9, 10),),
    "open": ((70, -27, -5, -38, 8), (65, -9, -18, -12, 8.5), (65, 9, -16, 12, 8.5),
             (70, 27, -2, 36, 8), (125, 40, 65, 66, 10)),
}


def _shoulder(hand: HandSprite, reach: float) -> np.ndarray:
    """The shoulder the arm hangs from: the right or left one of the player's torso, whichever
    is on the side of the fingertips."""
    a = hand.from_angle
    out = np.array([math.cos(a), math.sin(a), 0.0])
    tan = np.array([-math.sin(a), math.cos(a), 0.0])
    lat = hand.x * tan[0] + hand.y * tan[1]
    side = 1.0 if lat >= 0 else -1.0
    return out * (reach + 110.0) + tan * side * 150.0 + np.array([0.0, 0.0, hand.z + 330.0])


def _centre_line(hand: HandSprite, reach: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Sample points (N, 3) along the arm, their distances from the tip, and the arm length."""
    shoulder = _shoulder(hand, reach)
    tip = np.array([hand.x, hand.y, hand.z])
    d = shoulder[:2] - tip[:2]
    length = max(float(np.linalg.norm(d)), 300.0)
    u = d / (np.linalg.norm(d) + 1e-9)
    s = np.concatenate([np.linspace(0, 180, 10), np.linspace(200, length, 8)])
    z = hand.z + (shoulder[2] - hand.z) * (s / length) ** 1.6
    pts = np.column_stack([tip[0] + u[0] * s, tip[1] + u[1] * s, z])
    return pts, s, length


def _outline(pts: np.ndarray, s: np.ndarray, widths: np.ndarray, start: float = 0.0,
             scale: float = 1.0, shift: float = 0.0, eye: np.ndarray | None = None) -> np.ndarray:
    """Closed outline (M, 3) of the arm from ``start`` mm on, with a rounded tip cap.

    The hand is flat, so its width lies in the horizontal plane; the forearm is a tube, so its
    silhouette width is taken across the line of sight from ``eye`` (when given): an arm seen
    from the side still looks as thick as from above.
    """
    keep = s >= start
    p, w, sk = pts[keep], widths[keep] * scale, s[keep]
    if len(p) < 2:
        return np.zeros((0, 3))
    d = p[-1, :2] - p[0, :2]
    d /= np.linalg.norm(d) + 1e-9
    side_h = np.array([-d[1], d[0], 0.0])
    side = np.repeat(side_h[None, :], len(p), axis=0)
    if eye is not None:
        tang = np.gradient(p, axis=0)
        bb = np.cross(tang, eye[None, :] - p)
        bb /= np.linalg.norm(bb, axis=1, keepdims=True) + 1e-9
        bb *= np.sign(bb @ side_h + 1e-9)[:, None]
        alpha = np.clip((sk - 150.0) / 100.0, 0.0, 1.0)[:, None]
        side = (1 - alpha) * side_h[None, :] + alpha * bb
        side /= np.linalg.norm(side, axis=1, keepdims=True) + 1e-9
    centre = p + side * (shift * w)[:, None]
    left = centre + side * w[:, None]
    right = centre - side * w[:, None]
    back = np.array([d[0], d[1], 0.0])
    phi = np.linspace(math.pi, 0.0, 9)[1:-1]
    tip = centre[0] + w[0] * (np.cos(phi)[:, None] * side[0] - 0.9 * np.sin(phi)[:, None] * back)
    return np.concatenate([left, right[::-1], tip])


def _capsule(p0: np.ndarray, p1: np.ndarray, w: float) -> np.ndarray:
    """Outline (M, 3) of a flat capsule from p0 to p1 with half width w (round ends)."""
    d = p1[:2] - p0[:2]
    d /= np.linalg.norm(d) + 1e-9
    side = np.array([-d[1], d[0], 0.0])
    fwd = np.array([d[0], d[1], 0.0])
    phi = np.linspace(0.0, math.pi, 7)
    cap1 = p1 + w * (np.cos(phi)[:, None] * -side + np.sin(phi)[:, None] * fwd)
    cap0 = p0 + w * (np.cos(phi)[:, None] * side - np.sin(phi)[:, None] * fwd)
    return np.concatenate([cap0, cap1])


def _digits(hand: HandSprite, pts: np.ndarray, s: np.ndarray) -> list[np.ndarray]:
    """The capsules of the thumb and spread fingers of the hand's pose, in board mm."""
    d = pts[-1, :2] - pts[0, :2]
    d /= np.linalg.norm(d) + 1e-9
    side = np.array([-d[1], d[0], 0.0])
    back = np.array([d[0], d[1], 0.0])
    out = []
    for s0, l0, s1, l1, w in DIGITS.get(hand.pose, ()):
        def at(sv: float, lat: float) -> np.ndarray:
            base = np.array([np.interp(max(sv, 0.0), s, pts[:, k]) for k in range(3)])
            return base + back * min(sv, 0.0) + side * lat
        out.append(_capsule(at(s0, l0), at(s1, l1), w))
    return out


def _wide_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur; a wide one is done on a smaller copy and scaled back up.

    A player's body near an oblique camera projects thousands of pixels across, and its soft
    edge (sigma = size / 25) then cost seconds per frame at full size; blurred at 1/f scale the
    result looks the same (the blur is far wider than a pixel) for a small fraction of the time.
    """
    f = int(sigma // 4)
    if f < 2:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def draw_hand(img: np.ndarray, proj: Projector, hand: HandSprite, look: Look, reach: float,
              light: np.ndarray) -> None:
    """Draw one hand and forearm into ``img`` (uint8 BGR, in place)."""
    h, w = img.shape[:2]
    pts, s, _ = _centre_line(hand, reach)
    prof = np.array(PROFILES.get(hand.pose, PROFILES["flick"]), float)
    widths = np.interp(s, prof[:, 0], prof[:, 1])
    skin = look.skin_tones[hand.skin % len(look.skin_tones)]
    sleeve = look.sleeve_colors[hand.sleeve % len(look.sleeve_colors)]
    sleeve_start = 200.0 if hand.sleeve % 2 == 0 else 430.0
    d = pts[-1, :2] - pts[0, :2]
    d /= np.linalg.norm(d) + 1e-9
    side = np.array([-d[1], d[0], 0.0])
    lit = float(side @ light)  # > 0: the left flank faces the light
    eye = proj.C
    shapes = [proj.polygon(p) for p in [_outline(pts, s, widths, eye=eye)]
              + _digits(hand, pts, s)]
    outer = np.concatenate([q for q in shapes if len(q)] or [np.zeros((0, 2))])
    if len(outer) == 0:
        return
    x0, y0 = np.floor(outer.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 4
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    off = np.array([x0, y0], float)
    canvas = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    alpha = np.zeros((y1 - y0, x1 - x0), np.uint8)

    def fill(target: np.ndarray, start: float, scale: float, shift: float,
             col: tuple[float, ...] | int) -> None:
        out = _outline(pts, s, widths, start, scale, shift, eye)
        if len(out) < 3:  # e.g. a forearm shorter than the sleeve's start: no sleeve
            return
        px = proj.polygon(out)
        if len(px) < 3:  # out of view
            return
        p = np.round((px - off) * ONE).astype(np.int32)
        cv2.fillPoly(target, [p], col, cv2.LINE_AA, SHIFT)

    fill(alpha, 0.0, 1.0, 0.0, 255)
    digits = _digits(hand, pts, s)
    for cap in digits:
        px = proj.polygon(cap)
        if len(px) < 3:
            continue
        q = np.round((px - off) * ONE).astype(np.int32)
        cv2.fillPoly(alpha, [q], 255, cv2.LINE_AA, SHIFT)
        cv2.fillPoly(canvas, [q], tuple(c * 0.8 for c in skin), cv2.LINE_AA, SHIFT)
    for start, base, wid in ((0.0, skin, 1.0), (sleeve_start, sleeve, 1.12)):
        for scale, k in ((1.0, 0.55), (0.8, 0.75), (0.55, 0.92), (0.28, 1.08)):
            col = tuple(min(255.0, c * k) for c in base)
            fill(canvas, start, scale * wid, (1.0 - scale) * 0.6 * lit, col)
        if start > 0:
            fill(alpha, start, wid, 0.0, 255)
    # soften the bands into a rounded limb
    wrist = proj(np.array([pts[9], pts[9] + side * 27.0]))
    wrist_px = float(np.linalg.norm(wrist[1] - wrist[0]))  # NaN: the wrist is behind the lens
    sig = float(np.clip(wrist_px / 5.0, 0.8, max(w, h) / 50.0)) if math.isfinite(wrist_px) \
        else max(w, h) / 50.0
    canvas_f = cv2.GaussianBlur(canvas.astype(np.float32), (0, 0), sig)
    a = cv2.GaussianBlur(alpha.astype(np.float32), (0, 0), 0.6)[..., None] / 255.0
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi * (1.0 - a) + canvas_f * a, 0, 255).astype(np.uint8)


def hand_shadow(mask: np.ndarray, proj: Projector, hand: HandSprite, reach: float,
                light: np.ndarray) -> None:
    """The hand's outline pushed along the light onto the surface (z = 0), filled into ``mask``."""
    pts, s, _ = _centre_line(hand, reach)
    prof = np.array(PROFILES.get(hand.pose, PROFILES["flick"]), float)
    widths = np.interp(s, prof[:, 0], prof[:, 1])
    out = _outline(pts, s, widths)
    lz = max(light[2], 0.05)
    k = out[:, 2] / lz
    flat = np.column_stack([out[:, :2] - light[None, :2] * k[:, None], np.zeros(len(out))])
    polys = [flat] + [_flatten(c, light) for c in _digits(hand, pts, s)]
    for poly in polys:
        px = proj.polygon(poly)
        if len(px) < 3:
            continue
        cv2.fillPoly(mask, [np.round(px * ONE).astype(np.int32)], 255, cv2.LINE_AA, SHIFT)


def _flatten(pts: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Points pushed along the light onto the surface z = 0."""
    k = pts[:, 2] / max(light[2], 0.05)
    return np.column_stack([pts[:, :2] - light[None, :2] * k[:, None], np.zeros(len(pts))])


HAIR: tuple[tuple[int, int, int], ...] = ((20, 25, 30), (30, 50, 80), (60, 110, 160),
                                          (150, 150, 150), (15, 15, 15))


def _ellipse(c: np.ndarray, u: np.ndarray, v: np.ndarray, a: float, b: float,
             n: int = 28) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return c[None, :] + np.cos(t)[:, None] * u[None, :] * a + np.sin(t)[:, None] * v[None, :] * b


def draw_body(img: np.ndarray, proj: Projector, hand: HandSprite, look: Look, reach: float,
              light: np.ndarray) -> None:
    """The player behind a hand: shoulders and head beyond the board edge (seen from above,
    as in overhead tournament footage; round heads are good distractors for a disc detector)."""
    h, w = img.shape[:2]
    a = hand.from_angle
    out = np.array([math.cos(a), math.sin(a), 0.0])
    tan = np.array([-math.sin(a), math.cos(a), 0.0])
    z = hand.z + 330.0
    torso_c = out * (reach + 140.0) + np.array([0.0, 0.0, z])
    head_c = out * (reach + 170.0) + np.array([0.0, 0.0, z + 170.0])
    sleeve = look.sleeve_colors[hand.sleeve % len(look.sleeve_colors)]
    hair = HAIR[(hand.skin * 7 + hand.sleeve * 3) % len(HAIR)]
    lit = 0.5 * float(np.array([light[0], light[1], 0.0]) @ tan)
    layers = []
    for frac, k in ((1.0, 0.5), (0.75, 0.7), (0.45, 0.85)):
        c = torso_c + tan * lit * (1 - frac) * 200.0
        layers.append((_ellipse(c, tan, out, 230.0 * frac, 120.0 * frac), sleeve, k))
    for frac, k in ((1.0, 0.55), (0.6, 0.85)):
        c = head_c + tan * lit * (1 - frac) * 80.0
        layers.append((_ellipse(c, tan, out, 80.0 * frac, 95.0 * frac), hair, k))
    polys = [proj.polygon(p) for p, _, _ in layers]
    if not any(len(px) for px in polys):
        return
    allp = np.concatenate([px for px in polys if len(px)])
    x0, y0 = np.floor(allp.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(allp.max(axis=0)).astype(int) + 4
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    off = np.array([x0, y0], float)
    canvas = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    alpha = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for i, (px, (_, base, k)) in enumerate(zip(polys, layers, strict=True)):
        if len(px) < 3:
            continue
        q = np.round((px - off) * ONE).astype(np.int32)
        if i in (0, 3):
            cv2.fillPoly(alpha, [q], 255, cv2.LINE_AA, SHIFT)
        cv2.fillPoly(canvas, [q], tuple(min(255.0, c * k) for c in base), cv2.LINE_AA, SHIFT)
    torso = polys[0] if len(polys[0]) else allp
    size = float(np.linalg.norm(torso.max(axis=0) - torso.min(axis=0)))
    canvas_f = _wide_blur(canvas.astype(np.float32), max(1.0, size / 25.0))
    al = cv2.GaussianBlur(alpha.astype(np.float32), (0, 0), 0.8)[..., None] / 255.0
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi * (1.0 - al) + canvas_f * al, 0, 255).astype(np.uint8)
