"""A shooter unseen as it strikes a resting disc, whose forecast reaches the disc a hair after
the frame: the struck disc is seen driven off the next frame, so the shooter's coast meets its
place then (``hidden_blows.struck_now``), and does not run on through it."""

from __future__ import annotations

import numpy as np

from tests.track.crokinole_frames import dets, run


def test_a_shooter_unseen_as_it_strikes_does_not_coast_on_through_the_struck_disc() -> None:
    """c4h_9951 at 24.9 s (its detections): e2, going 1100 mm/s, struck s2 at (54, -52) nearly
    head-on and stopped by its place, unseen from the frame of the blow. Its coast reached s2's
    place a fraction of a millimetre after that frame, so no blow was forecast; the next frame s2
    was moving, and e2 coasted on through its place and took the first detection of e1 beyond it
    (a disc unseen since it came to rest): e2 lay on e1's place and e1 was lost."""
    e2, s2, e1 = (276.0, -129.0), (54.0, -52.0), (-40.0, -61.0)
    frames = [dets(e2, s2) for _ in range(20)]
    for xy in [(258.0, -124.0), (226.0, -112.0), (190.0, -99.0), (155.0, -88.0), (120.0, -76.0)]:
        frames.append(dets(xy, s2))  # e2 on its way
    frames.append(dets((53.0, -51.0)))  # e2 unseen from the blow on
    frames += [dets((30.0, -39.0)), dets((2.0, -25.0))]  # s2 driven off
    for xy in [(-27.0, -12.0), (-50.0, -2.0), (-75.0, 10.0), (-97.0, 18.0), (-120.0, 10.0), (-140.0, 4.0),
               (-159.0, -2.0), (-175.0, -9.0), (-190.0, -14.0), (-200.0, -17.0), (-205.0, -18.0)]:
        frames.append(dets(xy, e1))  # and e1 found
    frames += [dets((-206.0, -18.0), e1) for _ in range(30)]
    tk = run(frames)
    shooter = min(tk.tracks, key=lambda tr: np.hypot(*(tr.path[0].x - e2[0], tr.path[0].y - e2[1])))
    assert np.hypot(*(np.array(shooter.position()) - (80.0, -66.0))) < 10.0, shooter.position()
    found = [tr for tr in tk.tracks if tr.state == "rest" and np.hypot(*(np.array(tr.position()) - e1)) < 3.0]
    assert len(found) == 1 and found[0] is not shooter
