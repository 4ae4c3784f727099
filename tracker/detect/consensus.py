"""One circle through the rays' edge profiles: the outline a disc's picture shows most strongly.

A disc at rest is ringed by its own shadow: the contact shadow round its foot and the cast shadow
on the side away from the light, blurred into a penumbra a couple of millimetres wide. So a ray
across its outline meets two edges, disc -> shadow and shadow -> board, of comparable strength
for a coloured disc (for a dark one the first nearly vanishes). The refinement's per-ray search
(``refine.py``) takes one edge per ray within a window; while the windows are wide, some rays
take the inner edge and others the outer one, and the circle through that mix is pulled towards
the side where the outer edge was taken (1-2 mm on light or coloured discs; the same discs at
the same place, frame after frame, so averaging over a rest does not remove it).

Here the outline is chosen as a whole: the mean edge strength along a candidate disc's
silhouette (the farther of its top circle's and bottom circle's crossings on each ray; each ray's
profile relative to its texture level, clipped at ``CLIP`` so a board line or a neighbour's edge
cannot carry the circle) is maximised over the contact point and the radius, on a grid, coarse
then fine. A circle following one edge all round scores higher than one through a mix, and the
per-ray search then refines on that edge with narrow windows.

Meant for the reported position only (``chamfer.CONSENSUS``, off for now: see its note). Measured: see the commit message for
the dev matches and fixtures; on the set-up of ``tests/detect/test_consensus.py`` (rendered
480x270 frames at 1.5 mm a pixel, 4 looks, 8 discs, two starts; median/p95 mm) from above
0.71/3.63 -> 0.47/4.98, at 40 degrees 0.38/1.26 -> 0.33/0.59.

Known weaknesses. (1) With sharp, strong edges (a drawn disc at 1 mm a pixel) most rays reach
the clip all across the disc's picture, the score goes flat, and the circle chosen can be up to
the search's reach off (the narrow windows then recover only part of it). Relative to each ray's
own strongest edge instead of the clip, the score does not go flat and the renders above come to
0.27/1.23 and 0.43/1.01, but on the dev match c4e_9904 a disc held at the shooting line was then
seen to move and a false removal ended its round (not understood yet), so that variant is not
used. (2) A shadow that is not concentric (dark on one side only) still pulls the circle about
half a millimetre towards its dark side: which edge is the disc's own is not decided here.
(3) The candidate's top rim is a square-edged disc's (``k r``), while the refit it serves models
the chamfer (``Refiner._bevel_drop``: the far side's outline is the chamfer's lower edge, up to
``bevel`` nearer the centre): on a drawn light disc at 40 degrees of tilt
(test_chamfered_top_edge_at_an_oblique_view[light-shifted]) that alone put the centre 2.5 mm
off; with the drop subtracted from the top crossings that disc comes to 0.2 mm, but another
light disc of the same frames goes from 0.75 to 2.5 mm. (4) On the near side of an oblique
view the outline is the bottom edge (side wall -> shadow), often weak, with the strong top-rim
edge 2-3 mm inside it: a circle shifted that far away from the camera puts its outline on the
rim and scores as well under the clip (test_a_neighbour_moving_beside_a_still_disc...: a light
disc 1.3 mm off). Tried together (the chamfer drop; a crossing that brightens outwards with an
as-strong edge inside it weighted down, as a shadow ring's outer edge; the top rim's crossing
scored too where the wall shows; a tie-break on each ray's own strongest edge; radii 0.97-1.15):
the light-shifted test passes and c4h_8803 (re-rendered) goes 0.99/2.05 -> 0.85/2.17, but the
neighbour test still fails (1.3 mm), the chamfer-refit test reaches 0.57 mm (limit 0.5), and on
1280x720 stills (4 seeds a preset) easy 0.34/1.24 -> 0.34/1.66, hard 0.88/2.37 -> 0.97/2.31:
not kept. Measured with ``CONSENSUS`` on, c4h_8803 as re-rendered: 1.36/2.28 -> 0.99/2.05 mm,
events unchanged (its earlier 1.36 -> 1.78 was on the render with the clipping fault). On
9201-9204 (shot ends paired in time): c2e_9201 0.35/1.54 -> 0.36/1.42, c4h_9203 0.82/3.05 ->
0.78/2.32 and its round now exact (identity switches 12.5 -> 0), c4e_9204 0.34/2.01 ->
0.43/1.85, but c2h_9202 1.30/3.94 -> 1.50/7.12 (not looked into).
Re-measured on 2 December (detector runs, same code with it off -> on): crokinole fixtures every
row better, events identical (crokinole_2p_round 1.58/2.49 -> 1.39/2.47, crokinole_4p_part
2.20/7.60 -> 1.98/7.60, crokinole_foul 2.35/2.97 -> 0.95/2.08, crokinole_off_board 1.68/2.03 ->
0.85/1.29, crokinole_peg_ricochet 1.17/2.37 -> 0.90/1.07); 8801-8804 and 9901-9904 together
1.04/2.75 -> 0.77/2.61 and rounds 7/8 -> 8/8 (c2h_8802 exact), worse only c2h_9902's median
1.17 -> 1.78 and c4h_8803's p95 2.25 -> 2.36; 9201-9204 as above except c2h_9202 1.30/3.90 ->
1.23/6.76, whose p95 is one disc (8 ends measured): s3 at 14.8 s, fitted at frames 443-444
while still sliding (it stops at 446) and then kept as untouched until 17.5 s, 3.4 mm off
without the consensus, 9.3 mm with it -- the mid-slide fit kept at rest, not the consensus's fit
at rest. It stays off only for the three drawn-frame tests of ``tests/detect/test_detector.py``
that fail with it on, weaknesses (3) and (4) above (neighbour 1.38 mm, limit 1.0; chamfered
top edge light-shifted 2.5 mm, limit 0.4; chamfer refit 0.57 mm, limit 0.5).
Looked into again (2 December, later): on the drawn frames the wide radius range is what lets
the shadow carry the circle. A light disc at 25 degrees (the neighbour test's, alone too: the
neighbour plays no part) has, per ray, its outline and its cast shadow's outer edge 3 mm
beyond it on the shadow's side, both at the clip; the circle chosen was 17.05 mm (factor 1.07)
through the shadow's edge on the south and east, 1.4 mm off, and a chamfered light disc 2.9 mm
off the same way. With ``RADII = (0.97, 1.06)`` the neighbour test passes (1.37 -> 0.38 mm), the
chamfered disc comes to 0.42 mm and test_consensus still passes, but light-shifted is 1.09 mm
(limit 0.4) and the chamfer refit 0.57 mm (limit 0.5); the chamfer drop subtracted from the top
crossings as well (weakness 3) fixed neither and broke the neighbour test again (a square disc
the detector is told is chamfered: 1.35 mm) and test_consensus. Not kept: neither was measured
on video (the renders draw discs up to a pixel large, ``sprites.TRUE_SIZE``, which a narrow radius
range may not allow for).
"""

from __future__ import annotations

import numpy as np

# Search of the top-rim circle about the current estimate: centre offsets (mm) and radius
# factors, coarse then fine.
COARSE_MM = 0.5
COARSE_REACH_MM = 2.5
FINE_MM = 0.125
RADII = (0.94, 1.22)  # radius range, as factors of the nominal top radius
CLIP = 4.0  # a ray's strength counts up to this many times its texture level


def _far_crossing(origin: np.ndarray, dirs: np.ndarray, c: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Distance from ``origin`` along each of ``dirs`` (N, 2) to the far crossing of circles
    centred at ``c`` (M, 2) with radii ``R`` (M,): (M, N)."""
    d = c - origin  # (M, 2)
    ud = d @ dirs.T  # (M, N)
    return np.asarray(ud + np.sqrt(np.maximum(R[:, None] ** 2 - (d * d).sum(1)[:, None] + ud * ud, 0.0)))


def _values(rel: np.ndarray, rho0: float, step: float, origin: np.ndarray, dirs: np.ndarray,
            contacts: np.ndarray, radii: np.ndarray, use: np.ndarray, camera: np.ndarray, f: float) -> np.ndarray:
    """Relative strength on each ray ``use`` where each candidate disc's silhouette crosses it
    (contact points (M, 2), bottom radii (M,)): per ray the farther of the top circle's and the
    bottom circle's crossings (the outline against the board; on the near side of an oblique
    view the top rim lies inside it). (M, n)."""
    tops = contacts + (contacts - camera) * f
    rho = np.maximum(_far_crossing(origin, dirs[use], tops, radii * (1.0 + f)),
                     _far_crossing(origin, dirs[use], contacts, radii))  # (M, n)
    x = (rho - rho0) / step
    j = np.clip(np.floor(x).astype(int), 0, rel.shape[1] - 2)
    t = np.clip(x - j, 0.0, 1.0)
    rows = np.arange(rel.shape[0])[use][None, :]
    return np.asarray(rel[rows, j] * (1.0 - t) + rel[rows, j + 1] * t)


def consensus_circle(strength: np.ndarray, rho_mid: np.ndarray, base: np.ndarray, origin: np.ndarray,
                     dirs: np.ndarray, contact: np.ndarray, radius: float, use: np.ndarray,
                     camera: np.ndarray, f: float) -> tuple[np.ndarray, float]:
    """The disc (contact point, bottom radius in mm) near ``contact``/``radius`` whose silhouette
    the rays' edge ``strength`` (rays x samples at ``rho_mid`` from ``origin``, evenly spaced)
    follows most strongly on average, over the rays ``use`` (those no occluder hides).
    ``camera``: the camera's foot (board frame), ``f``: the top face's parallax factor."""
    if use.sum() < 8 or len(rho_mid) < 3:
        return contact, radius
    step = float(rho_mid[1] - rho_mid[0])
    # Each ray's strength relative to its texture level, clipped so that a board line or a
    # neighbour's edge cannot carry the circle.
    rel = np.minimum(strength / base[:, None], CLIP)
    rho0 = float(rho_mid[0])
    best_c, best_r = np.asarray(contact, float), float(radius)
    for reach, dc in ((COARSE_REACH_MM, COARSE_MM), (COARSE_MM, FINE_MM)):
        off = np.arange(-reach, reach + 1e-9, dc)
        gx, gy = np.meshgrid(off, off)
        cs = best_c[None] + np.stack([gx.ravel(), gy.ravel()], 1)
        if reach == COARSE_REACH_MM:
            rs = np.arange(RADII[0] * radius, RADII[1] * radius + 1e-9, dc)
        else:
            rs = np.arange(best_r - COARSE_MM, best_r + COARSE_MM + 1e-9, dc)
        C = np.repeat(cs, len(rs), axis=0)
        Rr = np.tile(rs, len(cs))
        k = int(np.argmax(_values(rel, rho0, step, origin, dirs, C, Rr, use, camera, f).mean(axis=1)))
        best_c, best_r = C[k], float(Rr[k])
    return best_c, best_r
