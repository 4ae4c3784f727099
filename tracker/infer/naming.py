"""From shot records (track ids) to shot-log entries (SPEC 4b): seats and disc names.

* The shooter's seat comes from where the shot disc started: crokinole, the quadrant of the
  shooting line it was flicked from; korona, the rim zone behind the striking line. When that is
  not an occupied seat (a disc right on a quadrant line) the rules engine's next seat decides.
* Disc names are stable per physical disc (per track): crokinole discs are named when first shot,
  by seat initial and count (``s1``, ``n3``), as a disc belongs to the seat that shot it first;
  korona target discs are named at the setup of each game by owner (``s1`` ... ``n8``) and the
  striker takes the shooter's striker id (``S``, ``N``, ...).
* Colour classes are mapped to seats as shots are seen (the colour a seat shoots), and decide the
  owner of korona discs at setup.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.color import lab_distance
from tracker.detect.datatypes import DISC
from tracker.infer.datatypes import End, ShotRecord
from tracker.infer.setup_counts import even_out, missing_places, setup_count
from tracker.seats import CLOCKWISE, seats_for
from tracker.shotlog import Announced, Setup, Shot
from tracker.track.datatypes import Track

SEAT_ANGLE = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}
# Lab distance (lightness halved) beyond which a track looks like no side's discs: a disc's own
# colour stays within about 20 of its mean at rest, 33 while it moves (``track.prediction``).
UNLIKE_LAB = 40.0
# ... and within which of the board around it a track is the board itself (a painted mark)
BOARD_LAB = 12.0


class Namer:
    def __init__(self, game: str, players: int, board: CrokinoleBoard | KoronaBoard) -> None:
        self.game = game
        self.board = board
        self.seats = seats_for(game, players)
        self.names: dict[int, str] = {}
        self._count: Counter[str] = Counter()
        self.cls_seat: dict[int, Counter[str]] = {}
        self.strikers: dict[str, str] = {str(s): s[0].upper() for s in self.seats}
        self.left_out: list[str] = []  # unknown discs left out of the last shot's entry
        # crokinole: (track, name) of the discs the last shot struck that no shot was seen
        # bringing on (``_adopt``): their own shots were missed
        self.adopted: list[tuple[int, str]] = []
        self.dropped: list[int] = []  # tracks left out of the last korona setup (uneven counts)
        self.owners: dict[int, str] = {}  # korona: owner seat per track from the disc colours
        # korona: discs of the last setup that no track stands for (a row nobody saw), by name
        self.assumed: dict[str, tuple[float, float]] = {}
        # crokinole: the mean colour (Lab) of the discs each seat was seen shooting, and how many
        self._seat_colour: dict[str, tuple[np.ndarray, int]] = {}

    def seat_of_start(self, start: tuple[float, float], expected: str | None = None) -> str:
        x, y = start
        b = self.board
        seat = b.seat_of(x, y) if isinstance(b, CrokinoleBoard) else (b.rim_zone_of(x, y) or b.seat_of(x, y))
        if seat in self.seats:
            return seat
        if expected in self.seats:
            return str(expected)
        a = math.degrees(math.atan2(y, x)) % 360
        return min(self.seats, key=lambda s: abs((SEAT_ANGLE[s] - a + 180) % 360 - 180))

    def name(self, track: int) -> str:
        return self.names.get(track, f"x{track}")

    def ids(self) -> dict[str, int]:
        """The track of each name (``names`` the other way round)."""
        return {name: tid for tid, name in self.names.items()}

    def _new_name(self, seat: str, track: int) -> str:
        self._count[seat] += 1
        name = f"{seat[0]}{self._count[seat]}"
        self.names[track] = name
        return name

    def _adopt(self, track: int, tr: Track | None, at: tuple[float, float]) -> str:
        """Name a crokinole disc found at rest on the surface that was never seen shot (its shot
        was missed, or it was put down by hand): the seat of its colour when known, else the seat
        whose side it lies on. The pipeline logs the shot that brought it there, unseen, before
        the shot that struck it (``adopted``), so the rules know it where it lay."""
        seat = self.seat_by_colour(tr) if tr is not None else None
        if seat is None:  # crokinole: its colour against the shot disc's (``pipeline.colours``)
            seat = self.owners.get(track)
        if seat is None and tr is not None and tr.cls >= 0:
            seat = _colour_seat(self.cls_seat, tuple(self.seats), tr.cls)
        if seat is None:
            seat = self.seat_of_start(at)
        return self._new_name(seat, track)

    def learn_colour(self, seat: str, tr: Track | None) -> None:
        """Remember the colour of a disc ``seat`` was seen shooting (the classes are learned
        from every disc seen shot, so they follow the light of this video)."""
        if tr is None or tr.color_n <= 0:
            return
        mean, n = self._seat_colour.get(seat, (np.zeros(3), 0))
        self._seat_colour[seat] = ((mean * n + tr.color) / (n + 1), n + 1)

    def seat_by_colour(self, tr: Track) -> str | None:
        """The seat whose shot discs look most like ``tr``: nearest mean colour in Lab with the
        lightness damped (a shadow changes L most; sides differ in hue too), and only when that
        is clearly nearer than any other side's (half the distance). With partners sharing a
        colour (4-player crokinole) the nearer partner by board side. None when unsure: the
        caller falls back on where the disc lies."""
        if tr.color_n <= 0 or len(self._seat_colour) < 2:
            return None
        d = {seat: lab_distance(tr.color, m) for seat, (m, _) in self._seat_colour.items()}
        best = min(d, key=lambda k: d[k])
        team = [k for k in d if _partners(k, best, len(self.seats))]
        others = [v for k, v in d.items() if k not in team]
        if not others or d[best] > 0.5 * min(others):
            return None
        if len(team) > 1:  # partners look alike: the one on whose side it lies, if either
            side = self.seat_of_start((float(tr.xy[0]), float(tr.xy[1])))
            return side if side in team else best
        return best

    def looks_like_board(self, tr: Track | None) -> bool:
        """Crokinole: ``tr`` is not a disc but a false find of the detector (a zone number
        painted on the board, a shadow), which a disc sliding over it seemed to move: its colour
        looks more like the board around it than like any side's discs, or like none of the
        sides' discs at all (Lab distance, lightness halved, over ``UNLIKE_LAB`` from every
        seat's mean). Judged once both sides were seen shooting (their colours known; partners
        share one: with 4 players, south and north alone are one colour, and the other side's
        discs are unlike it -- c4h_9403 at 11.2 s, east's shot was rejected as a false find's).
        Such a track is not adopted as a disc (rendered matches, hard preset: seed 7502, the
        "15" painted by the 15 line, hidden and found again 30 mm on as the shot disc passed,
        was named n3 and later knocked off; seed 7506, a pale number on a light board)."""
        if tr is None or tr.color_n <= 0 or not self._both_sides_seen():
            return False
        nearest = min(lab_distance(tr.color, m) for m, _ in self._seat_colour.values())
        if nearest > UNLIKE_LAB:
            return True
        # nearer the board around it than any side's discs, and near it in absolute terms:
        # one side's discs may be about the board's colour (light discs on a light board, seed
        # 7511: contrast 3.9, their side's colour 4.1 away; painted marks: 7 to 10 against 17 to
        # 28). Within half that distance was too strict: c2h_9702's "15" by the 15 line, darker
        # than the light board (10.8 from it), lies 15.4 from the light side's discs, which are
        # near the board's colour themselves, and was adopted as a disc nobody saw shot.
        return tr.surround_n > 0 and lab_distance(tr.color, tr.surround) < min(
            BOARD_LAB, 0.75 * nearest)

    def _both_sides_seen(self) -> bool:
        """Whether discs of two seats that are not partners were seen shot (both colours known)."""
        seen = list(self._seat_colour)
        return any(not _partners(a, b, len(self.seats)) for a in seen for b in seen)

    def setup(self, tracks: dict[int, Track], before: dict[int, tuple[float, float]], striker: int,
              t_start: float | None = None) -> Setup:
        """The korona setup line of a new game: every target disc at rest, named by owner.
        ``t_start``: when the first shot began (the striker's flick)."""
        self.names = {k: v for k, v in self.names.items() if k == striker}
        self._count = Counter()
        # colour class i belongs to the i-th occupied seat (classes are ordered lightest first)
        owner_of_cls = {i: seat for i, seat in enumerate(self.seats)}
        discs: dict[str, tuple[str, tuple[float, float]]] = {}
        owners: dict[int, str] = {}
        for tid, xy in before.items():
            tr = tracks.get(tid)
            if tr is None or tid == striker or tr.kind != 0:
                continue
            owner: str = self.owners.get(tid) or owner_of_cls.get(tr.cls) or self.board.seat_of(*xy)
            owners[tid] = owner if owner in self.seats else min(self.seats, key=lambda s: CLOCKWISE.index(s))
        # discs the first shot moved are real (they answered a blow): never the ones dropped
        moved = {tid for tid in owners if tracks[tid].state != "rest"
                 or float(np.hypot(*(np.array(tracks[tid].position())
                                     - _seen_before(tracks[tid], t_start, before[tid])))) > tracks[tid].radius}
        k = setup_count(owners, self.board)
        self.dropped = even_out(owners, tracks, k, moved)
        for tid, xy in sorted(before.items(), key=lambda kv: (kv[1][1], kv[1][0])):
            if tid in owners:
                owner = owners[tid]
                discs[self._new_name(owner, tid)] = (owner, (round(xy[0], 2), round(xy[1], 2)))
        self.assumed = self._assume_unseen_rows(discs, k)
        return Setup(discs=discs, strikers=dict(self.strikers))

    def _assume_unseen_rows(self, discs: dict[str, tuple[str, tuple[float, float]]], k: int | None
                            ) -> dict[str, tuple[float, float]]:
        """Korona: a playing seat of which no disc was seen at the start still has its discs
        (its row hidden under a hand while the first shot was set up, or discs about the
        board's colour that the detector missed: k4h_9306 under the hard preset's light, white
        discs on a cream board). Every game starts from the standard setup (Finnish rulebook
        2.2), so they are put where it says, ``k`` of them (``setup_counts.setup_count``), and
        added to ``discs``; the rules then referee the other seats' play instead of refusing the
        whole game for uneven counts. So are the discs a seat seen in part is short of ``k``, at
        the places of its row no seen disc stands on (``setup_counts.missing_places``: k4h_9984,
        south's row seen 4 of 8). A disc later found at rest in one of those places takes its
        name (:meth:`claim_assumed`). Returns the assumed places by name."""
        b = self.board
        if not isinstance(b, KoronaBoard) or not k:
            return {}
        from tracker.rules.korona.setup import standard_setup

        counts = Counter(o for o, _ in discs.values())
        missing = [s for s in self.seats if counts[s] == 0]
        places: list[tuple[str, tuple[float, float]]] = [
            (o, at) for o, at in standard_setup(len(self.seats), k, b).discs.values() if o in missing]
        places += missing_places(b, self.seats, k, list(discs.values()))
        out: dict[str, tuple[float, float]] = {}
        for owner, at in places:
            self._count[owner] += 1
            name = f"{owner[0]}{self._count[owner]}"
            discs[name] = (owner, at)
            out[name] = at
        return out

    def claim_assumed(self, rec: ShotRecord, tracks: dict[int, Track] | None = None) -> None:
        """Korona: a disc of no name that rested before the shot where the setup assumed an unseen
        disc (within a disc's radius of the place; moved by the shot or found there since) is
        that disc; so is one first found during the shot within a diameter of such a place (the
        detector found the row only as it was struck: k4h_9706, south's row unseen until its
        first shot knocked s3 out of it; its track, never named, went down the nw pocket at
        32.2 s and the pocket was left out of the log). Nearest first. Then one first found
        during the shot against the rim of a row with an assumed place left, farther off: a disc
        of the row the detector never saw, struck along its rim and first found sliding (k4h_9984
        at 3.9 s: south's s8, found 240 mm from its place on its way down the ne pocket), takes
        the nearest such place along that rim."""
        if not self.assumed:
            return
        r = self.board.disc_radius if isinstance(self.board, KoronaBoard) else 0.0
        found: list[tuple[int, tuple[float, float], float]] = []
        for tid in set(rec.before) | set(rec.ends):
            tr = tracks.get(tid) if tracks is not None else None
            if tid in self.names or tid == rec.disc or (tr is not None and tr.kind != DISC):
                continue
            if tid in rec.before:
                found.append((tid, rec.before[tid], r))
            elif tr is not None and tr.path and tr.born >= rec.t_start - 0.05:
                found.append((tid, (tr.path[0].x, tr.path[0].y), 2 * r))
        pairs = sorted((math.dist(at, xy), tid, name, reach) for tid, xy, reach in found
                       for name, at in self.assumed.items())
        for d, tid, name, reach in pairs:
            if d <= reach and tid not in self.names and name in self.assumed:
                self.names[tid] = name
                del self.assumed[name]
        for tid, xy, reach in found:  # first found during the shot, sliding along a row's rim
            rim = _rim_of(self.board, xy)
            if tid in self.names or reach <= r or rim is None:
                continue
            along = [(abs(at[rim[0] ^ 1] - xy[rim[0] ^ 1]), name) for name, at in self.assumed.items()
                     if _rim_of(self.board, at) == rim]
            if along:
                name = min(along)[1]
                self.names[tid] = name
                del self.assumed[name]

    def shot(self, rec: ShotRecord, tracks: dict[int, Track], expected: str | None = None) -> Shot:
        seat = self.seat_of_start(rec.start, expected)
        tr = tracks.get(rec.disc)
        if tr is not None and tr.cls >= 0:
            self.cls_seat.setdefault(tr.cls, Counter())[seat] += 1
        if self.game == "crokinole" and not rec.inferred:
            self.learn_colour(seat, tr)
        if self.game == "korona":
            disc = self.strikers[seat]
            local = {rec.disc: disc}
            self.claim_assumed(rec, tracks)
        else:
            disc = self.names.get(rec.disc) or self._new_name(seat, rec.disc)
            local = {}

        def nm(t: int | str) -> str:
            if isinstance(t, str):
                return t
            return local.get(t) or self.name(t)

        self.adopted = []
        if self.game == "crokinole":  # discs first seen at rest on the surface, never shot
            for tid in rec.ends:
                if tid not in self.names and tid != rec.disc and tid in rec.before \
                        and not self.looks_like_board(tracks.get(tid)):
                    self.adopted.append((tid, self._adopt(tid, tracks.get(tid), rec.before[tid])))
        contacts = tuple((nm(c.a), nm(c.b)) for c in rec.contacts)
        end: dict[str, tuple[float, float] | str] = {}
        for tid, e in rec.ends.items():
            if e == "lifted":
                continue
            end[nm(tid)] = _end(e)
        announced = Announced()
        # Discs the rules never met are left out of the log: korona discs not in the setup, and
        # crokinole discs never shot (waiting in the ditch, or first seen at rest because their
        # shot was missed): the rules would ignore their moves, and a made-up name helps no one.
        known = set(self.names.values()) | (set(self.strikers.values()) if self.game == "korona" else set())
        known.add(disc)
        self.left_out = sorted({nm(t) for t in rec.ends if nm(t) not in known and rec.ends[t] != "lifted"})
        contacts = tuple(c for c in contacts if all(x in known or x == "peg" or x.startswith("rim") for x in c))
        end = {k: v for k, v in end.items() if k in known}
        if self.game == "korona" and _indirect(contacts, disc, seat) and not rec.grazed:
            announced = Announced(indirect=True, pocket=self._called_pocket(end, seat))
        return Shot(seat=seat, disc=disc, start=(round(rec.start[0], 2), round(rec.start[1], 2)),
                    contacts=contacts, end=end, announced=announced)


    def _called_pocket(self, end: dict[str, tuple[float, float] | str], seat: str) -> str | None:
        """Korona: the pocket an indirect shot is assumed to have called. An own disc pocketed
        behind the shooter's own striking line counts only if that pocket was called (an
        overshot otherwise, put back); a camera cannot hear the call, and a bank shot into a
        pocket behind the line is played on purpose, so the call is assumed when the shot reads
        indirect (as the indirect call itself is). A direct shot that overshoots stays uncalled."""
        if not isinstance(self.board, KoronaBoard):
            return None
        behind = self.board.pockets_behind(seat)  # type: ignore[arg-type]
        for name, e in end.items():
            if isinstance(e, str) and e.startswith("pocket:") and e[7:] in behind and name.startswith(seat[0]) \
                    and name not in self.strikers.values():
                return e[7:]
        return None


def _partners(a: str, b: str, players: int) -> bool:
    """Same side: crokinole partners sit opposite (4 players); with 2 each seat is its own."""
    if a == b:
        return True
    return players == 4 and {a, b} in ({"south", "north"}, {"west", "east"})


def _indirect(contacts: tuple[tuple[str, str], ...], striker: str, seat: str) -> bool:
    """Korona: the striker touched the rim or a disc not its player's first. Such a shot must be
    announced (Finnish rules); a camera cannot hear the call, so the shot log assumes it was made
    when the chain reads indirect (one wrong rim-first guess at a low frame rate would otherwise
    be a foul that hands over the turn, and every later shot would be out of turn). Not for a
    striker that grazed the rim on its way into the disc it struck (``ShotRecord.grazed``): a
    shot aimed at that disc, called as nothing, which the rulebook (2.6) makes a foul."""
    for a, b in contacts:
        if striker in (a, b):
            other = b if a == striker else a
            return not other.startswith(seat[0])
    return False


def _rim_of(board: CrokinoleBoard | KoronaBoard, xy: tuple[float, float]) -> tuple[int, int] | None:
    """The korona rim a disc centred at ``xy`` stands against (``KoronaBoard.rim_against``), else None."""
    return board.rim_against(xy[0], xy[1], board.disc_radius) if isinstance(board, KoronaBoard) else None


def _seen_before(tr: Track, t: float | None, rest: tuple[float, float]) -> tuple[float, float]:
    """Where a disc was last seen before time ``t`` (the first shot's start), else ``rest``. A
    shot's ``before`` is where a disc rested before the episode's motion, and the episode may
    open before the flick: a false disc by the striker (the player's fingers, korona_ru_part at
    2.6 s: born 60 mm behind the striker, jumping 20 mm on its next sighting) moved before the
    shot, not by it, and is no proof of a real disc."""
    if t is not None:
        seen = [s for s in tr.path if s.measured and s.t <= t]
        if seen:
            return seen[-1].x, seen[-1].y
    return rest


def _colour_seat(cls_seat: dict[int, Counter[str]], seats: tuple[str, ...], cls: int) -> str | None:
    """The seat a colour class belongs to: the one seen shooting it most; or, when every other
    colour is known and one seat is left, that seat."""
    if cls in cls_seat and cls_seat[cls]:
        return cls_seat[cls].most_common(1)[0][0]
    taken = {c.most_common(1)[0][0] for c in cls_seat.values() if c}
    free = [s for s in seats if s not in taken]
    return free[0] if len(free) == 1 else None


def _end(e: End) -> tuple[float, float] | str:
    return e if isinstance(e, str) else (float(e[0]), float(e[1]))
