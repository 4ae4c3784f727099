"""Korona: a striker "put down" in a rim zone and first seen running back towards that zone's rim
was not flicked from there (``start_places.forward``: shots are directed forwards, and no disc
turns a striker back; constructed paths, board mm).

k4h_10206 at 15.4 s: a false striker find on a player's sleeve by the north row at (-114, 374),
seen three times, then "ran" 50 mm out to (-157, 400) and on with the finds of north's striker,
carried off the board over the north rim under that hand; ``put_down_and_flicked`` took it for a
striker put down on north's side and flicked, and a north shot was logged."""

from __future__ import annotations

import numpy as np

from tracker.boards import KoronaBoard
from tracker.detect.datatypes import STRIKER
from tracker.infer import start_places
from tracker.track.datatypes import Sample, Track

KB = KoronaBoard()


def _striker(p: np.ndarray) -> Track:
    return Track(id=64, kind=STRIKER, radius=KB.striker_radius, xy=p[-1, 1:].copy(), born=float(p[0, 0]),
                 path=[Sample(float(t), float(x), float(y), True) for t, x, y in p])


def test_a_striker_first_running_back_to_its_own_rim_was_not_flicked() -> None:
    p = np.array([(15.067, -108.0, 376.0), (15.1, -114.0, 374.0), (15.367, -114.0, 374.0),
                  (15.5, -157.0, 400.0), (15.567, 0.0, 351.0), (15.6, -39.0, 348.0)])
    assert start_places.put_down_and_flicked(KB, p, _striker(p), 350.0) is None


def test_a_striker_first_running_into_the_field_was_flicked() -> None:
    """The same put-down, the run mirrored into the field: a shot from there."""
    p = np.array([(15.067, -108.0, 376.0), (15.1, -114.0, 374.0), (15.367, -114.0, 374.0),
                  (15.5, -157.0, 348.0), (15.567, -200.0, 322.0), (15.6, -243.0, 296.0)])
    put = start_places.put_down_and_flicked(KB, p, _striker(p), 350.0)
    assert put is not None and put[0] == (-114.0, 374.0)
