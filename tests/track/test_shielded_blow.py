"""A striker into the end disc of a korona row against the rim strikes that disc only: its
row-mate, which the straight line's end would touch too, is shielded by the disc struck first
(``association.reached``). The detector's own detections of k4h_9972 at 3.33-4.13 s (30 fps,
the south rim row): the striker comes up the board head-on into s8 at the row's east end; s7
and s8 are both lost as it strikes; s8 is found bouncing off the rim eastwards and stops at
(172, 332); s7, which never moved, is not seen again for seconds. s8's track must follow s8 (not
s7's, leaving s8's in place to be called knocked off the board)."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import DISC, STRIKER, Detections
from tracker.track import Tracker
from tracker.track.association import reached

DT = 1.0 / 30
ROW = [(-39.0, 410.1), (-14.0, 412.5), (11.0, 412.5), (36.0, 412.5)]
S7, S8 = (61.0, 412.5), (86.0, 412.5)
STRIKER_RUN = [(75.7, 173.7), (77.5, 216.7), (79.0, 257.8), (81.1, 296.3), (83.8, 334.7)]  # s7, s8 seen
HIT = [(87.9, 370.4)]  # s7, s8 lost
AFTER = [((98.7, 403.2), (86.2, 347.9)), ((111.0, 392.2), (85.1, 322.7)), ((120.5, 382.5), (83.0, 296.6)),
         ((129.5, 373.1), (82.9, 270.9)), ((138.9, 364.2), (81.4, 248.8)), ((145.6, 357.3), (80.2, 226.4)),
         ((151.7, 352.3), (79.4, 206.3)), ((157.9, 345.8), (78.9, 186.9)), ((163.7, 341.7), (77.5, 169.5)),
         ((167.2, 338.8), (76.5, 152.4)), ((169.6, 334.4), None), ((172.3, 331.7), None)]
REST = (172.3, 332.1)


def dets(discs: list[tuple[float, float]], striker: tuple[float, float] | None = None) -> Detections:
    pts = [(*p, DISC) for p in discs] + ([(*striker, STRIKER)] if striker is not None else [])
    a = np.array([(x, y) for x, y, _ in pts], float).reshape(-1, 2)
    return Detections(xy=a, kind=np.array([k for _, _, k in pts], int), where=np.zeros(len(a), int))


def _id_at(tk: Tracker, p: tuple[float, float]) -> int:
    best = min(tk.tracks, key=lambda x: float(np.hypot(*(x.xy - np.array(p)))))
    return best.id if float(np.hypot(*(best.xy - np.array(p)))) < 3.0 else -1


def test_the_row_mate_behind_the_struck_end_disc_is_not_struck() -> None:
    tk = Tracker(KoronaBoard())
    k = 0
    for _ in range(30):
        tk.update(dets([*ROW, S7, S8]), k * DT)
        k += 1
    s7, s8 = _id_at(tk, S7), _id_at(tk, S8)
    assert s7 >= 0 and s8 >= 0 and s7 != s8
    for p in STRIKER_RUN:
        tk.update(dets([*ROW, S7, S8], p), k * DT)
        k += 1
    for p in HIT:
        tk.update(dets(ROW, p), k * DT)
        k += 1
    for disc, striker in AFTER:
        tk.update(dets([*ROW, disc], striker), k * DT)
        k += 1
    for _ in range(45):  # s7 still unseen (1.5 s), s8 at rest where it stopped
        tk.update(dets([*ROW, REST]), k * DT)
        k += 1
    for _ in range(10):  # s7 found again where it lay
        tk.update(dets([*ROW, REST, (64.8, 410.6)]), k * DT)
        k += 1
    t8, t7 = tk.get(s8), tk.get(s7)
    assert t8 is not None and t8.state == "rest" and np.hypot(*(np.array(t8.position()) - REST)) < 3.0
    assert t7 is not None and t7.state == "rest" and np.hypot(*(np.array(t7.position()) - S7)) < 5.0
    assert not [tr for tr in tk.tracks if tr.state == "off"]


def test_only_discs_met_before_the_bounce_are_reached() -> None:
    r, rs = 12.5, 25.0  # disc, striker
    p, v = np.array([88.0, 370.0]), np.array([0.0, 1100.0])
    # head-on into the end disc: its neighbour, touched only by the line's end, is shielded
    assert reached(p, v, rs, [np.array(S8), np.array(S7)], [r, r], DT) == [True, False]
    # into the gap between two touching discs: both at once
    mid = np.array([0.5 * (S7[0] + S8[0]), 370.0])
    assert reached(mid, v, rs, [np.array(S8), np.array(S7)], [r, r], DT) == [True, True]
    # nothing in the way: no contact
    assert reached(p, v, rs, [np.array((300.0, 0.0))], [r], DT) == [False]
    # a blow along a row runs on through it: the disc struck first heads into its row-mate
    row = [np.array((0.0, 300.0)), np.array((25.0, 300.0))]
    assert reached(np.array((-60.0, 300.0)), np.array((1500.0, 0.0)), rs, row, [r, r], 0.1) == [True, True]
    # head-on into the middle of a rim row: hemmed in by its row-mates, the disc passes the blow
    # along the row both ways
    rim_row = [np.array((61.0, 412.5)), np.array((36.0, 412.5)), np.array((86.0, 412.5))]
    assert reached(np.array((61.0, 370.0)), np.array((0.0, 1100.0)), rs, rim_row, [r, r, r], 0.1) == [True, True, True]
