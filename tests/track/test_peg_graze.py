"""A disc lost in its blur as its forecast grazed a peg: the coast bounced off the peg, the disc
went on past it. Its next detection, ahead on its line, is the disc (``turn_back.backwards``: a peg
its coast met may have turned it, so the forecast's new heading does not make that detection
lie "behind" it)."""

from __future__ import annotations

import numpy as np

from tests.track.crokinole_frames import dets, run
from tracker.detect.datatypes import Detections


def test_a_disc_whose_coast_bounced_off_a_peg_it_passed_takes_its_next_detection_ahead() -> None:
    """c2h_9802 at 14.7 s: s3, flicked from (-196, -233) towards the 20-hole, was seen twice
    (the first a blurred find a little off its line), then lost in its blur for six frames; its
    coast, on the line those two sightings gave, met the peg at (-39, -94) and bounced west,
    while s3 passed the peg 0.6 mm clear and stopped against n1 at (4, -17). Its detection there
    lay behind the bounced coast's heading and was refused: a new track took it, and s3 was kept
    at its last sighting, 240 mm off (and the next shots named a phantom s4 and s5)."""
    start, stop, other = (-196.0, -233.0), (4.0, -17.0), (150.0, 150.0)
    frames: list[Detections] = [dets(start, other) for _ in range(20)]
    frames += [dets((-199.0, -215.0), other), dets((-160.0, -184.0), other)]  # seen twice, moving
    frames += [dets(other) for _ in range(6)]  # lost in its blur
    frames += [dets(stop, other) for _ in range(30)]  # found stopped, and seen there on
    tk = run(frames)
    shooter = min(tk.tracks, key=lambda tr: tr.born)
    assert np.hypot(*(np.array(shooter.position()) - stop)) < 2.0, shooter.position()
    live = [tr for tr in tk.tracks if tr.state in ("rest", "moving")]
    assert len(live) == 2, [(tr.id, tr.state, tr.position()) for tr in live]
