"""A shot, from the segmenter's record to the referee and back: split out of ``pipeline.py``
(behaviour unchanged; the functions take the :class:`Pipeline` whose state they read and set).

* The korona setup line is written with the first shot of each game (the discs at rest before
  it, by owner: ``colours.korona_owners``, ``korona_rows``; a row nobody saw is assumed in the
  standard setup, with a warning).
* The record's track ids become names (``Namer``): tracks found to be one disc are joined
  (``identity.reconcile``), a shot read from rest states takes over the track where its disc
  turned up (``_link``), and a disc first seen struck whose own shot was missed gets that shot
  logged first (``missed.py``).
* The shot-log entry goes to the rules engine; its outcome becomes events (shot, off board,
  pocketed, and the engine's own decisions), and its actions go back to the tracker: discs the
  rules said must come out are watched for (``hands.py``), discs they put back are expected at
  their place.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tracker import events as ev
from tracker.boards import KoronaBoard
from tracker.infer import Contact, Namer, ShotRecord
from tracker.infer.never_seen import UNSEEN_DISC
from tracker.pipeline import camera, hands, missed
from tracker.pipeline.colours import crokinole_owners, korona_owners
from tracker.pipeline.identity import reconcile
from tracker.pipeline.korona_rows import colour_classes, late_row_discs
from tracker.pipeline.players_ruling import doubtful_foul, left_on, take_players_ruling
from tracker.pipeline.withdraw import moved_again
from tracker.rules import outcome_events, shot_flags
from tracker.shotlog import Shot
from tracker.track import Track

if TYPE_CHECKING:
    from tracker.pipeline.pipeline import FrameResult, Pipeline


def judge(p: Pipeline, rec: ShotRecord, res: FrameResult) -> None:
    if rec.disc == UNSEEN_DISC:
        rec = _unseen_disc(p, rec)
    tracks = {tr.id: tr for tr in p.tracker.tracks}
    doubt, p._doubtful_foul = p._doubtful_foul, None
    if doubt is not None and left_on(doubt.fouled, p.namer.names, tracks.values()):
        take_players_ruling(p, doubt, res, rec.t_start, rec.frame_start)
    for tid, reason in list(p._pending_lift.items()):
        tr = tracks.get(tid)
        if tr is not None and tr.alive:
            p._emit(ev.Event("not_removed", rec.t_start, rec.frame_start,
                                {"disc": p.namer.name(tid), "reason": reason}), res)
            p.warnings.append(f"t = {rec.t_start:.2f} s: {p.namer.name(tid)} was not removed ({reason})")
    p._pending_lift.clear()
    hands.expire_placements(p)
    p._flush_lifts(res)
    p._round_over = False
    if p._need_setup:
        before = {k: v for k, v in rec.before.items() if k in tracks}
        if isinstance(p.board, KoronaBoard):  # rows found only during the first shot
            before.update(late_row_discs(p.board, p.namer.seats, tracks, before, rec.t_end))
        _classify_colours(p, tracks, before)
        setup = p.namer.setup(tracks, before, rec.disc, rec.t_start)
        if p.namer.dropped:
            p.warnings.append(f"t = {rec.t_start:.2f} s: {len(p.namer.dropped)} disc(s) left out of the setup "
                                 "to give every player the same number")
        for seat in sorted({o for n, (o, _) in setup.discs.items() if n in p.namer.assumed}):
            n_assumed = sum(1 for n, (o, _) in setup.discs.items() if o == seat and n in p.namer.assumed)
            if n_assumed == sum(1 for o, _ in setup.discs.values() if o == seat):
                p.warnings.append(f"t = {rec.t_start:.2f} s: no disc of {seat}'s was seen at the start; "
                                     "they are assumed in the standard setup")
            else:
                p.warnings.append(f"t = {rec.t_start:.2f} s: {n_assumed} disc(s) of {seat}'s not seen at the "
                                     "start; assumed in their standard places")
        if p._apply(setup, res, rec.t_start, rec.frame_start) is not None:
            p._need_setup = False
    if p.game == "korona":  # colour classes: the setup's discs by owner, the rest by colour
        owners = {tid: setup_owner for tid, name in p.namer.names.items()
                  if (setup_owner := name_owner(p, name)) is not None}
        colour_classes(p.namer.seats, p._seat_colours, owners, tracks)
    rec = _reconcile(p, rec, tracks)
    expected = p.outcomes[-1].next_seat if p.outcomes else None
    camera.seat_side_hint(p, rec.start)
    if p.game == "crokinole":  # owners of discs never seen shot, by colour (``colours.py``)
        p.namer.owners = crokinole_owners(p.namer.seats, tracks, rec,
                                             p.namer.seat_of_start(rec.start, expected))
        missed.on_board_at_start(p, rec, tracks, res)  # a video begun mid-round
    shot = p.namer.shot(rec, tracks, expected)
    if p.game == "korona" and not rec.inferred:  # the strikers' colour (``striker_look``)
        p.striker_look.learn(shot.seat, tracks.get(rec.disc))
    for tid, name in p.namer.adopted:
        missed.missed_shot(p, tid, name, rec, tracks, res)
    if p.namer.left_out:
        p.warnings.append(f"t = {rec.t_end:.2f} s: {len(p.namer.left_out)} disc(s) moved that were "
                             "never seen shot; left out of the shot log")
    for c in rec.contacts:
        a, b = shot_name(p.namer, shot, c.a), shot_name(p.namer, shot, c.b)
        if a in p.namer.left_out or b in p.namer.left_out:
            continue
        p._emit(ev.collision(c.t, p._frame_of(c.t), a, b), res)
    _link(p, rec, tracks)
    moved_again(p, rec, res)  # a disc called gone that this shot moved was on the board after all
    out = p._apply(shot, res, rec.t_end, rec.frame_end)
    if out is None:
        return
    hit, foul = shot_flags(out)
    p._doubtful_foul = doubtful_foul(p, rec, shot, out, tracks)
    p._emit(ev.shot(rec.t_end, rec.frame_end, shot.seat, shot.disc, round(rec.t_start, 3),
                       round(rec.t_end, 3), hit, foul, speed_mm_s=round(rec.peak_speed, 1)), res)
    for name, end in shot.end.items():
        if end == "off":
            p._emit(ev.off_board(rec.t_end, rec.frame_end, name), res)
        elif isinstance(end, str) and end.startswith("pocket:"):
            p._emit(ev.pocketed(rec.t_end, rec.frame_end, name, _owner(p, name, shot), end[7:]), res)
    for e in outcome_events(out, rec.t_end, rec.frame_end):
        p._emit(e, res)
    ids = p.namer.ids()
    for act in out.actions:
        found = ids.get(act.disc)
        if found is None:
            continue
        tid = found
        if act.kind == "lift_out":
            p._pending_lift[tid] = act.reason
            p.tracker.leaving(tid)
        elif act.kind.startswith("place"):
            p._expect_place.append((act.disc, act.at))
            if act.at is not None:
                p.tracker.expect(tid, act.at)
    if out.round_over or out.game_over:
        p._round_over = True
        p.tracker.drop_finished()  # a long live match must not keep every disc it saw
        if p.game == "korona":
            p._need_setup = True

def _unseen_disc(p: Pipeline, rec: ShotRecord) -> ShotRecord:
    """A shot whose disc nobody saw (``infer.never_seen``): the disc gets a track, kept unseen
    where it stopped (``Tracker.add_unseen``), and the record its id."""
    end = rec.ends.get(UNSEEN_DISC)
    at = end if isinstance(end, tuple) else rec.start
    tid = p.tracker.add_unseen(at, rec.start, rec.t_end, p.board.disc_radius)

    def swap(k: int | str) -> int | str:
        return tid if k == UNSEEN_DISC else k
    p.warnings.append(f"t = {rec.t_end:.2f} s: a shot whose disc was never seen, read from the disc it struck")
    return replace(rec, disc=tid, ends={int(swap(k)): e for k, e in rec.ends.items()},
                   before={int(swap(k)): xy for k, xy in rec.before.items()},
                   contacts=tuple(Contact(c.t, int(swap(c.a)), swap(c.b)) for c in rec.contacts))


def _reconcile(p: Pipeline, rec: ShotRecord, tracks: dict[int, Track]) -> ShotRecord:
    """The record with the tracks ``identity.reconcile`` finds to be one disc joined: the new
    track takes the old one's name and, crokinole, its contacts (a disc lost at rest and struck:
    the blow was read on its old place; the contact named after the old track was left out of
    the log, and its collision event named the disc anew, "x7": c4e_10104 at 24.7 s)."""
    swap: dict[int, int] = {}
    for new, old in reconcile(rec, tracks, p.namer.names, p.game == "korona", p.tracker.cfg.colour_gate,
                              retired=p.tracker.retired):
        p.namer.names[new] = p.namer.names.pop(old)
        p.tracker.retire(old)
        tracks[old].state, tracks[old].occluded = "lifted", False
        swap[old] = new
    # (crokinole: korona's contacts, which call indirect shots, not measured with it)
    if p.game != "crokinole" or not any(c.a in swap or c.b in swap for c in rec.contacts):
        return rec

    def to(k: int | str) -> int | str:
        return swap.get(k, k) if isinstance(k, int) else k
    return replace(rec, contacts=tuple(Contact(c.t, int(to(c.a)), to(c.b)) for c in rec.contacts))

def _link(p: Pipeline, rec: ShotRecord, tracks: dict[int, Track]) -> None:
    """A shot read from rest states: the new track where the shot disc turned up is that
    disc; it takes the name, and the old track (last seen waiting to be shot) is retired."""
    who = p.namer.names.get(rec.disc, "a disc")
    for new, old in rec.links:
        if old in p.namer.names:
            p.namer.names[new] = p.namer.names.pop(old)
        p.tracker.retire(old)
        if old in tracks:
            tracks[old].state, tracks[old].occluded = "lifted", False
    if rec.inferred:
        p.warnings.append(f"t = {rec.t_end:.2f} s: shot by {who} inferred from where discs rest "
                             "(its motion was not seen)")

def _owner(p: Pipeline, name: str, shot: Shot) -> str:
    """Whose the disc ``name`` is: its name's seat, the shooter's for a striker."""
    return name_owner(p, name) or shot.seat

def _classify_colours(p: Pipeline, tracks: dict[int, Track], before: dict[int, tuple[float, float]]) -> None:
    """Korona: the owners of the discs at rest before the first shot and the players' disc
    colours (``colours.korona_owners``), handed to the namer."""
    p.namer.owners, p._seat_colours = korona_owners(p.board, p.namer.seats, p.players, tracks,
                                                          before)

def name_owner(p: Pipeline, name: str) -> str | None:
    """The seat a target disc's name gives (its initial; names are given for the seats that
    play), None for a striker."""
    if name in p.namer.strikers.values():
        return None
    return next((str(s) for s in p.namer.seats if name[:1] == str(s)[0]), None)


def shot_name(namer: Namer, shot: Shot, who: int | str) -> str:
    if isinstance(who, str):
        return who
    if namer.game == "korona" and who not in namer.names:
        return shot.disc
    return namer.name(who)
