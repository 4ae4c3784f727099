"""A disc lost as it strikes a disc about head-on, its course cut short there, stopped where it
struck; when that place is over the 20-hole's capture zone it dropped in (detections of
c2h_10102 at 16.8-18.7 s, 30 fps).

n3, black, flew from the north line at about 900 mm/s towards s3, resting by the hole, and was
last seen 24 mm from the hole's centre; it struck s3 over the hole and dropped in, unseen (black
in the dark hole). Its course, cut short where it met s3's place (``slide.slid_to``, which keeps
such a course by the hole when the disc came too fast to drop in on its way), ended 9.2 mm from
the centre, inside the capture zone (``slide.HOLE_CAPTURE``): kept at rest there, n3 scored 15
and north's 20 was missed. s3 then bounced back off a peg over that very place."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.datatypes import Detections
from tracker.track import Tracker
from tracker.track.tracker import TrackerConfig

DT = 1.0 / 30
S1, S2, S3 = (118.1, -118.3), (-130.5, -54.5), (-7.3, -33.7)
N3_LINE = (196.2, 235.0)
# n3's flight (None: not found on that frame), and s3's run after the blow, back to rest
N3_RUN = [None, (163.0, 195.4), (140.0, 166.7), (117.8, 137.9), (96.7, 111.1), (76.5, 85.0), (56.5, 60.0),
          None, (20.6, 11.5)]
S3_RUN = [(-10.4, -39.9), (-22.5, -62.7), (-27.4, -71.7), (-21.0, -58.7), (-14.3, -46.0), (-8.2, -35.5),
          (-3.5, -25.1), (2.0, -16.3), (6.3, -8.4), (9.6, -2.3), (13.3, 3.2), (15.5, 7.3), (16.7, 9.7),
          (17.7, 11.3), (17.9, 11.9)]


def dets(*xy: tuple[float, float]) -> Detections:
    return Detections(xy=np.array(xy, float).reshape(-1, 2), radius=np.full(len(xy), CrokinoleBoard().disc_radius))


def test_a_disc_stopped_by_a_blow_over_the_hole_dropped_in() -> None:
    tk = Tracker(CrokinoleBoard(), TrackerConfig())
    frames = [dets(S1, S2, S3, N3_LINE)] * 15
    frames += [dets(S1, S2, S3, *([p] if p else [])) for p in N3_RUN]
    frames += [dets(S1, S2, p) for p in S3_RUN]
    frames += [dets(S1, S2, S3_RUN[-1])] * 5
    for k, d in enumerate(frames):
        tk.update(d, k * DT)
    n3 = next(tr for tr in tk.tracks if np.hypot(tr.path[0].x - N3_LINE[0], tr.path[0].y - N3_LINE[1]) < 3)
    # (the judge reads it once s3 is at rest: well within ``hole_gone`` of n3's last sighting)
    assert n3.state == "hole", (n3.state, n3.xy)
    assert abs(n3.last_seen - (15 + len(N3_RUN) - 1) * DT) < 1e-6  # its own last sighting: none of s3's
