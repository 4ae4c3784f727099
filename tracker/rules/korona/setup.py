"""Starting a korona game: the standard setup line and the line shot that decides the starter.

Finnish rulebook 2.2: the target discs stand in a row against the rim, touching each other and the
rim, centred on the mark halfway along it. The rulebook does not say on which side; shots go
forwards from one's own striking line, so a player's discs start on the far side, as the Russian
rules say outright ("pawns ... on the side opposite the player"). We use the same for both.

Line shot (2.3; Russian "first shot"): each player strikes his striker and the one whose striker
stops closer to the centre point wins (measured from the centre of the disc). In the Finnish
rulebook the winner chooses who starts; in the Russian text the winner starts. The shot log
carries it in the setup line: ``"line_shot": {"south": [x, y], "north": [x, y]}`` and optionally
``"starter"`` (the winner's choice).
"""

from __future__ import annotations

import math

from tracker.boards.korona import KoronaBoard
from tracker.errors import InputError
from tracker.seats import Seat, opposite, seats_for
from tracker.shotlog import Setup

Point = tuple[float, float]


def standard_setup(
    players: int = 2, discs_per_player: int = 8, board: KoronaBoard | None = None, **extra: object
) -> Setup:
    """The setup line of a standard start: ids ``s1..s8`` (seat initial + number), strikers
    ``S``, ``W``, ``N``, ``E``."""
    b = board or KoronaBoard()
    r = b.disc_radius
    discs: dict[str, tuple[str, Point]] = {}
    for seat in seats_for("korona", players):
        far = opposite(seat)
        mx, my = b.rim_mark(far)
        ux, uy = (-mx / b.half, -my / b.half)  # inward unit vector from the far rim
        vx, vy = (-uy, ux)  # along the rim
        for k in range(discs_per_player):
            s = (k - (discs_per_player - 1) / 2.0) * b.disc_diameter
            x = mx + ux * r + vx * s
            y = my + uy * r + vy * s
            discs[f"{seat[0]}{k + 1}"] = (seat, (round(x, 2) + 0.0, round(y, 2) + 0.0))
    strikers = {seat: seat[0].upper() for seat in seats_for("korona", players)}
    return Setup(discs=discs, strikers=strikers, **extra)  # type: ignore[arg-type]


def line_shot_winner(stops: dict[str, Point]) -> tuple[Seat, str]:
    """The seat whose striker stopped closest to the centre point, and the reason in words."""
    if len(stops) < 2:
        raise InputError("line shot: needs where at least two strikers stopped")
    dist = {s: math.hypot(p[0], p[1]) for s, p in stops.items()}
    ranked = sorted(dist.items(), key=lambda kv: kv[1])
    if abs(ranked[0][1] - ranked[1][1]) < 0.5:
        raise InputError(f"line shot: {ranked[0][0]} and {ranked[1][0]} tie at {ranked[0][1]:.0f} mm "
                         "from the centre; repeat the line shot")
    words = ", ".join(f"{s} {d:.0f} mm" for s, d in ranked)
    return ranked[0][0], f"line shot ({words} from the centre point)"  # type: ignore[return-value]
