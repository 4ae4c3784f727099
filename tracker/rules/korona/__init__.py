"""Korona rules engines: the Finnish rulebook (``variant="fi"``) and the Russian variant (``"ru"``).

Pure Python (no OpenCV, no I/O). :class:`KoronaEngine` takes shot-log entries one at a time
(``apply``) and returns an :class:`tracker.rules.datatypes.Outcome` with every decision's reason;
``summary()`` gives the SPEC section 4 summary (rounds are games, totals are games won per seat).

Shot-log extensions used by korona (all optional): the setup line may carry ``line_shot`` and
``starter``; a shot may carry ``announced.disc`` (the called disc), ``placed`` (discs put back by
hand) and ``referee`` inputs; a rim contact may name its side as ``"rim:north"``.
"""

from __future__ import annotations

from tracker.rules.korona.engine import KoronaEngine
from tracker.rules.korona.setup import line_shot_winner, standard_setup

__all__ = ["KoronaEngine", "line_shot_winner", "standard_setup"]
