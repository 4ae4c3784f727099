"""A disc lost in flight and found again further on its line, first seen slowing to rest.

A crokinole disc the detector misses for several frames in flight coasts on in the tracker at
the velocity it was last measured at; measured over a gap from its forecast, that velocity is
short (``lifecycle.VELOCITY_OVER_GAP`` off), so the forecast falls behind and its next sighting,
as it stops, lies beyond the second stage's reach: a new track is born there, at rest (not
"born moving", so ``merge.donor_of`` does not join it), while the lost disc's track, unseen,
is put at rest where its coast was judged to end (``fate.resolve_lost``) and, as a disc lying
where a mover just passed, may take a far detection of another disc (c4h_9993 at 18.03 s: w2,
missed for six frames after 17.83 s, was found stopping at (66, -12); the new track took w2's
end, and w2's track, put at rest at (32, -22), took s2's run off the board at 18.17 s).

``mover_ahead``: the moving disc such a new track is, when the new track's first detection lies
straight on along the disc's last measured run (within ``LATERAL_RADII`` of its line, ahead of
its last sighting) no further than its speed then could have carried it, the disc being unseen
since before that first detection. Crokinole only (``confirm.confirm``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.track.datatypes import Track

# On: a new track found at rest on a lost mover's line is that mover (module docstring).
# Replays of dets22 (35 crokinole dev matches incl. 10001-10004, 6 crokinole fixtures), off -> on:
# c4h_9993 rounds 0/1 -> 1/1 (0.50/2.69 -> 0.48/2.55 mm); the other 40 identical. Korona untouched.
ON = True
# How far to the side of the lost mover's line its new first detection may lie, in radii.
LATERAL_RADII = 1.0


def last_run(d: Track) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Disc ``d``'s last sighting, the unit heading and the speed (mm/s) of its last two
    sightings, or None (fewer than two, or no motion between them)."""
    seen = d.sightings(2)
    if len(seen) < 2 or seen[1].t - seen[0].t <= 1e-6:
        return None
    a, b = np.array([seen[0].x, seen[0].y]), np.array([seen[1].x, seen[1].y])
    step = float(np.hypot(*(b - a)))
    if step < 1e-6:
        return None
    return b, (b - a) / step, step / (seen[1].t - seen[0].t)


def mover_ahead(tracks: Sequence[Track], tr: Track) -> Track | None:
    """The moving disc unseen since before tentative track ``tr``'s first detection whose last
    measured run leads straight to it within the distance its speed then allows (the nearest
    to its line), or None."""
    first = tr.path[0]
    z = np.array([first.x, first.y])
    best, best_off = None, float("inf")
    for d in tracks:
        if d is tr or d.kind != tr.kind or d.state != "moving" or d.last_seen >= first.t - 1e-6:
            continue
        run = last_run(d)
        if run is None:
            continue
        at, u, speed = run
        w = z - at
        along = float(w @ u)
        off = abs(float(w[0] * u[1] - w[1] * u[0]))
        if along <= 0 or off > LATERAL_RADII * d.radius or along > speed * (first.t - d.last_seen) + d.radius:
            continue
        if off < best_off:
            best, best_off = d, off
    return best
