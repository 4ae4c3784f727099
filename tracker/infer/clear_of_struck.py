"""A crokinole disc's end that no sighting at rest backs is kept clear of where a disc it struck
rested (a function of the shot's judging, ``judge.py``).

Two discs that meet are found, on the frame of the blow, as one blob between them: the detector
reports a single disc at about the middle of the pair. When that find is the shot disc's last (a
dark disc on a dark board, never found at rest), its place at rest is that find, well inside
where the disc it struck lay (c4h_9975 at 22.5 s: east's e2 struck north's n1 resting at (64, -14)
and stopped at (93, -19); its last find, (77, -12), was 13 mm from n1's place, and e2 scored 15
for the true 10). A disc that strikes another is two radii from the struck one's centre at the
blow; struck, the other leaves along the line of centres and the striker carries on across that
line (equal masses), or stops where it is when the blow is full: it does not slide into the place
the other left. So an end backed by fewer than ``FEW_SIGHTINGS`` sightings at rest, nearer than
``OVERLAP_SHARE`` of the two radii to the rest place of a disc it touched in the shot that moved
away, is where the blow was: moved out along the line from that place to the two radii.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tracker.infer.datatypes import Contact, End

# On: ends kept clear of the places of the discs they struck (module doc).
ON = True
# Sightings at rest that make a place (``pipeline.rest_unseen.MIN_SIGHTINGS``): fewer, the place is
# a forecast or a single find.
FEW_SIGHTINGS = 2
# Nearer than this share of the two radii to the struck disc's rest place, the end is no place
# the disc stopped at (a disc struck obliquely, or one that follows through a little, stays
# within a few mm of the two radii).
OVERLAP_SHARE = 0.75


def clear_of_struck(ends: Mapping[int, End], before: Mapping[int, tuple[float, float]],
                    radius: Mapping[int, float], contacts: Sequence[Contact],
                    sightings: Mapping[int, int]) -> dict[int, End]:
    """``ends`` with each place that fewer than ``FEW_SIGHTINGS`` sightings at rest back
    (``sightings``: per disc) moved out of the rest place of a disc it touched in the shot and
    that left it, to the two radii (module doc)."""
    out: dict[int, End] = dict(ends)
    if not ON:
        return out
    for c in contacts:
        if isinstance(c.b, str):
            continue
        for me, other in ((c.a, c.b), (c.b, c.a)):
            e, was, gone = out.get(me), before.get(other), out.get(other)
            if not isinstance(e, tuple) or was is None or gone is None or sightings.get(me, 0) >= FEW_SIGHTINGS:
                continue
            if isinstance(gone, tuple) and float(np.hypot(gone[0] - was[0], gone[1] - was[1])) <= radius[other]:
                continue  # the other did not leave its place
            reach = radius[me] + radius[other]
            d = float(np.hypot(e[0] - was[0], e[1] - was[1]))
            if d >= OVERLAP_SHARE * reach or d < 1e-6:
                continue
            u = ((e[0] - was[0]) / d, (e[1] - was[1]) / d)
            out[me] = (round(was[0] + u[0] * reach, 2), round(was[1] + u[1] * reach, 2))
    return out
