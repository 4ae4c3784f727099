"""Korona: a disc called pocketed or off by the shot whose own place a new track was found on
during it never left (``identity.reconcile`` asks this after its own pairings).

Pure function on the shot record and the tracks.
"""

from __future__ import annotations

import math

from tracker.infer import ShotRecord
from tracker.infer.rim_gone import PLACE_FRAC
from tracker.track import Track


def found_in_place(rec: ShotRecord, tracks: dict[int, Track], names: dict[int, str],
                    used: set[int]) -> list[tuple[int, int]]:
    """Korona: a named disc the shot's ends send down a pocket or off, and a nameless track first
    found during the shot where that disc rested before it (within ``PLACE_FRAC`` of a radius) and
    seen only there since: the disc never left its place; its track followed something else away
    (k4h_9606 at 8.5 s: e1's track took south's striker's path off the west rim into the nw
    pocket while e1 was found again at its place 0.1 s later, and a pocket nobody made was
    scored). Nearest first."""
    gone = [tracks[k] for k, end in rec.ends.items() if k in tracks and k in names and k not in used
            and k != rec.disc and k in rec.before and (end == "off" or str(end).startswith("pocket:"))]
    found = []
    for k in rec.ends:
        tr = tracks.get(k)
        if tr is None or k in names or k in used or k in rec.before or k == rec.disc \
                or tr.born < rec.t_start - 0.05 or tr.state != "rest":
            continue
        seen = [sm for sm in tr.path if sm.measured]
        if seen and all(math.hypot(sm.x - seen[0].x, sm.y - seen[0].y) <= PLACE_FRAC * tr.radius for sm in seen):
            found.append(tr)
    if not gone or not found:
        return []
    pairs = sorted((math.hypot(n.path[0].x - rec.before[o.id][0], n.path[0].y - rec.before[o.id][1]), n.id, o.id)
                   for n in found for o in gone if n.kind == o.kind and (n.cls < 0 or o.cls < 0 or n.cls == o.cls))
    out: list[tuple[int, int]] = []
    for d, a, b in pairs:
        if d > PLACE_FRAC * tracks[b].radius or a in used or b in used:
            continue
        used |= {a, b}
        out.append((a, b))
    return out
