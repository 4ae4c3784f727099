"""A disc lost as it slows towards the 20-hole stops where its slide ends, short of the hole
(``hole_course.short_of_hole``), unless its last step straddled a blow (``lifecycle.struck_last``:
a disc that rested beside its run left its place then). A disc that left such a place long
before, and lies in the ditch since, dealt no blow now."""

from __future__ import annotations

import numpy as np

from tests.track.crokinole_frames import R, run
from tracker.detect.datatypes import IN_DITCH, ON_SURFACE, Detections

DITCH = (355.0, -24.0)


def _dets(*xy: tuple[float, float], ditch: bool = True) -> Detections:
    """Detections at ``xy``, and the disc lying in the ditch when ``ditch``."""
    pts = [*xy, DITCH] if ditch else list(xy)
    where = [ON_SURFACE] * len(xy) + ([IN_DITCH] if ditch else [])
    return Detections(xy=np.array(pts, float).reshape(-1, 2), radius=np.full(len(pts), R), where=np.array(where))


def test_a_disc_lost_short_of_the_hole_slides_on_past_a_place_left_long_before() -> None:
    """c4h_9921 at 15.9 s (its detections): s2, blue on the blue board, was last seen 41 mm out
    from the 20-hole at 260 mm/s and never at rest (it stopped 24 mm out, over the hole's edge).
    s1, knocked from (-6, -15) into the ditch eleven seconds before and seen there since, was
    taken for a disc s2 struck as it was last seen (its place lay by s2's last run, and its
    sightings since lay away from it), so s2 was kept at its last sighting, 17 mm short."""
    frames = [_dets((-6.0, -15.0), ditch=False) for _ in range(20)]
    frames += [_dets((x, -15.0 - x / 40), ditch=False) for x in (40.0, 100.0, 160.0, 220.0, 280.0, 330.0)]
    frames += [_dets() for _ in range(40)]  # s1 in the ditch
    s2_run: list[tuple[float, float] | None] = [(-19.0, -161.0), (-17.0, -143.0), None, (-15.0, -111.0),
                                                (-15.0, -96.0), None, (-16.0, -72.0), (-11.0, -58.0),
                                                (-13.0, -50.0), (-13.0, -41.0)]
    frames += [_dets(xy) if xy is not None else _dets() for xy in s2_run]
    frames += [_dets() for _ in range(30)]  # s2 not seen at rest
    tk = run(frames)
    s2 = max(tk.tracks, key=lambda tr: tr.born)
    assert s2.state == "rest"
    assert np.hypot(*(np.array(s2.position()) - (-11.0, -22.0))) < 4.0, s2.position()
