"""Round scoring and the game's end, as pure functions over points per side.

EN chapter 7 / NL "Scoring": each side counts its discs (15, 10, 5; a disc touching a line counts
the lower value) and adds 20 for each 20 set aside. Then:

- differential (NL, EN "commonly used"): the larger score minus the smaller goes to the side with
  the larger score; a tie gives both 0. With three players (each their own side) the top side
  gets its lead over the runner-up and the others 0; the rulebooks have no 3-player text, so this
  is the natural extension that keeps "only the difference is awarded".
- simple (EN): every side keeps its own points.
- championship (EN): a fixed number of rounds; the round's winner gets 2 points, a tie gives the
  tied leaders 1 each, the others 0.
"""

from __future__ import annotations

from tracker.rules.crokinole.datatypes import Scoring


def award(points: dict[str, int], scoring: Scoring, championship: bool) -> dict[str, int]:
    """Points awarded per side for one round's counted points."""
    out = dict.fromkeys(points, 0)
    if not points:
        return out
    best = max(points.values())
    leaders = [s for s, p in points.items() if p == best]
    if championship:
        for s in leaders:
            out[s] = 2 if len(leaders) == 1 else 1
        return out
    if scoring == "simple":
        return dict(points)
    if len(leaders) == 1:
        runner_up = max((p for s, p in points.items() if s != leaders[0]), default=0)
        out[leaders[0]] = best - runner_up
    return out


def game_winner(totals: dict[str, int], target: int) -> tuple[bool, str | None]:
    """First to ``target`` wins (EN chapter 7, NL "Winning").

    Only simple scoring can take two sides past the target in the same round; the rulebooks do
    not say what happens then, so the higher total wins and equal totals play another round.
    Returns (game over, winner).
    """
    if not totals:
        return False, None
    best = max(totals.values())
    if best < target:
        return False, None
    leaders = [s for s, p in totals.items() if p == best]
    if len(leaders) > 1:
        return False, None
    return True, leaders[0]


def championship_winner(totals: dict[str, int]) -> str | None:
    """After the fixed rounds: most championship points wins, equal points are a draw (None)."""
    if not totals:
        return None
    best = max(totals.values())
    leaders = [s for s, p in totals.items() if p == best]
    return leaders[0] if len(leaders) == 1 else None
