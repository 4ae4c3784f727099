"""The tracker's settings (:class:`TrackerConfig`): gates, timings and the switches of the
tracking rules, each with the figures that set it (see :mod:`tracker.track.tracker`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrackerConfig:
    move_mm: float = 2.5  # displacement from the rest anchor that counts as motion (2 frames)
    rest_mm: float = 1.5  # spread of positions that counts as rest
    rest_time: float = 0.15  # seconds of still positions before a disc is at rest
    lift_after: float = 4.0  # seconds a resting disc may stay unseen before it counts as lifted
    # korona: a disc against a rim, longer (the detector finds rim rows only on its full passes
    # and loses them for seconds while the striker or a hand is near)
    rim_lift_after: float = 12.0
    # crokinole: a disc that rested after it moved (in play), lost at rest, lifted after this long
    # (0: ``lift_after``); off: measured in the commit that added it (c4h_9951 exact, but c2h_9932/9944 worse)
    lift_after_moved: float = 0.0
    lost_after: float = 0.3  # seconds a moving disc may stay unseen before its fate is decided
    # korona: seconds in which a disc called off from its unseen course alone may be seen again
    # where it rested (``fate.off_unseen``): the detector's full pass once the board settles
    # (``pipeline.SETTLE_S`` after the last motion) finds a rim row it lost during the shot
    off_unseen_revive: float = 2.0
    v_max: float = 6000.0  # mm/s, fastest plausible disc
    decel: float = 1500.0  # mm/s^2, friction used to coast an unseen moving disc
    restitution: float = 0.9
    # korona: a disc resting against a rim and struck into it unseen slides along the rim and comes
    # back off it slowly, not at ``restitution`` (``rims.pressed_into_rim``). Replayed reviews
    # (--dets), off -> on: k2e_9911 switches 12.5 -> 0 per 100 shots, korona_2p_game 10.7 -> 7.1
    # (position median 2.57 -> 2.54 mm); the other 10 korona dev matches, 4 korona fixtures and
    # the 6 crokinole fixtures the same
    rim_pressed: bool = True
    # korona: a resting disc knocked away unseen starts from its rest place taken within the rims
    # (``rims.on_board``): a rim disc measured a mm or two past its limit is on the board, and its
    # forecast folds back off the rim like any other's (``rims.within_rims``). Replays (--dets),
    # off -> on: k4h_9912 false off_board at 23.9 s gone (p95 at rest 3.76 -> 3.74 mm); the other
    # 9 k4h and 10 k2e dev matches and the 5 korona fixtures the same
    rest_on_board: bool = True
    # korona: a disc knocked away unseen (its blow forecast, ``lifecycle.knocked_unseen``) may be
    # forecast over a rim when the blow sends it into the rim at ``rims.RIM_JUMP_SPEED`` or more.
    # Off: it comes back off the rim, and whether it jumped is judged from what is seen after
    # (``infer.rim_gone``: a disc knocked straight into the rim and never seen again went over
    # it). Faster than that a disc jumps the rim only now and then (the rendered matches: with
    # a chance growing from 0 at 1500 mm/s to 1 in 2 at 3500, ``sim.physics.PhysicsParams``),
    # and the forecast over the rim had it called off while it came back into the field, its
    # sightings there a new disc (k4h_9996 at 26.3 s: south's row disc, struck into the north rim
    # by the striker at 1.7 m/s and lost, seen again 6 mm from its place 0.07 s later). Replays
    # (--dets), on -> off: k4h_9996 false off_board at 27.6 s gone (median/p95 at rest 0.92/8.80
    # -> 0.88/8.77 mm); the other 9 k4h and 10 k2e dev matches and the 5 korona fixtures the same
    unseen_over_rim: bool = False
    # a mover strikes (``Tracker._struck``: knocked away unseen if lost now) only the resting discs
    # it meets before or as it bounces off the first (``association.reached``), not every disc its
    # straight line would touch within the frame (k4h_9972 at 3.63 s: the striker head-on into s8
    # at the end of south's rim row; its line's end lay within touch of s7 too, s7 was sent west
    # unseen, took s8's next find, and s8's track, left in place, was called off). Replays (--dets),
    # off -> on: k4h_9972 false off_board gone (median/p95 0.61/5.69 -> 0.53/5.46 mm), k2e_9941
    # switches 12.5 -> 0 (p95 2.43 -> 2.05; median 0.37 -> 0.58: n4 no longer listed as moved),
    # k2e_9971 p95 1.73 -> 1.61, k2e_9935 median 0.24 -> 0.22, korona_4p_part median/p95
    # 1.00/2.88 -> 1.03/2.75; the other korona dev matches and fixtures, the 23 crokinole dev
    # matches and the 6 crokinole fixtures the same
    shielded_blows: bool = True
    # korona: an unseen disc meeting a rim in a gap of a row against it (``rims.wedged``) comes back
    # off it at ``rims.PRESSED_RESTITUTION``. Off: replayed reviews (--dets), off -> on: k2e_9941
    # switches 37.5 -> 25 per 100 shots (p95 3.16 -> 2.59 mm) but a false pocket (pockets P 100 ->
    # 67%: n1's track, stale since its row was struck unseen at 21.7 s, took n2's detection at
    # 31.97 s and n2 was called pocketed); korona_2p_game median 2.54 -> 2.50 mm; the other korona
    # dev matches and fixtures the same
    rim_wedge: bool = False
    # korona: no wide-stage detection far off a mover's coasted line (``steady.coasted_line``, with
    # ``lifecycle.KORONA_VELOCITY_OVER_GAP``). Off: see ``steady.coasted_line`` for what it did
    coasted_line: bool = False
    # korona: a resting disc a mover is due to strike may take a blurred "striker" (``pair_costs.penalties``).
    # Off. Replays, off -> on: korona_ru_part pockets R 50 -> 75% (n7 into se at 24.3 s) but p95 5.52 ->
    # 6.20 mm; korona_2p_game pockets R 93 -> 87%, median 1.35 -> 1.40 (p95 5.56 -> 5.39); korona_4p_part
    # 1.00/2.88 -> 0.99/2.63 mm; the 7 k4h and 7 k2e dev matches and korona_overshot, korona_pocket the same
    struck_blur: bool = False
    max_path: int = 1800  # samples kept per track
    confirm_hits: int = 2
    chain_speed: float = 1500.0  # mm/s, least speed assumed for a mover that may have struck a disc
    hole_gone: float = 1.0  # seconds a disc in the 20-hole may stay unseen before it was taken out
    # korona: a striker all but stopped may take a disc-sized find deep inside it, the ring of its
    # top's groove (``pair_costs.striker_rings``)
    striker_rings: bool = True
    # Lab units: a disc seen sharp this far from a track's known colour is another disc (the other
    # side's): never its detection (``pair_costs.colour_penalty``), its donor (``merge.donor_of``),
    # its knocked-on or shot disc read from rest states (``infer.unseen``) nor its name after a
    # shot (``pipeline.identity.reconcile``). None: off. c2e_9943 at 8.0 s: south's light s2,
    # flicked unseen into north's dark n1, took n1's run and name (its later 20 logged as n1's,
    # false fouls); rounds 0/1 -> 1/1, the fixtures and other dev matches as before
    colour_gate: float | None = 45.0
    # the wide stage's reach for a moving disc counted from its last sighting, not from its coasted
    # forecast too (``steady.beyond_reach``)
    reach_from_sighting: bool = True
    # crokinole: a disc knocked away unseen whose forecast coast crossed the 20-hole slowly went in
    # (``hidden_blows.coasted_into_hole``; c4h_9945 at 8.5 s: 20s 0/1 -> 1/1, removals R/P
    # 40/33% -> 60/75%; the fixtures and other dev matches as before)
    unseen_into_hole: bool = True
    # ... held to this many hole radii of its centre: the course is a forecast (the blow's, the pegs'
    # bounces), not a sighting. 0.55 (the capture zone, as for a seen disc): with edge_salience's
    # finds c4h_9945's w1, its rest place measured 0.3 mm off, was forecast 10.8 mm from the centre
    # and left at its empty place (20s 100 -> 0%). Replays: dets with edge_salience 20s 93 -> 100%
    # (c4h_9945 rounds 0/1 -> 1/1), the 15 others the same; default dets: 31 dev + 6 fixtures the same
    unseen_hole_reach: float = 1.0
    # crokinole: a disc lost right after its blow on a resting disc is not put in the hole from its
    # heading before the blow (``lifecycle.struck_last``). Off: c2h_9944's false 20 goes (20s
    # 100%/0% -> none called), but c4h_9921 loses its 20 (100%/50% -> 0%/0%, shots P 100 -> 89%,
    # removed P 50 -> 17%); the fixtures and the other dev matches unchanged
    struck_not_in_hole: bool = False
    # crokinole: a disc lost near the 20-hole is put in it only if its slide from the last
    # sighting gets its centre over the hole's capture zone (``hole_course.short_of_hole``)
    hole_reach: bool = True
    # crokinole (figures in slide.py): a disc lost creeping to a stop rests where its creep ends
    creep_on: bool = True
    # crokinole, off (``slide.by_hole``): a lost disc's course stands unless its centre crosses the hole
    slide_past_hole: bool = False
    # crokinole: a disc at rest never seen at the place it is kept (lost while it slid, its place
    # an estimate: ``lifecycle.kept_unseen``) stays this long unseen before it counts as lifted
    # (``lift_after`` for the others: nothing says a hand took it, the detector just does not see
    # it there). None: ``lift_after``. Replayed (--dets), None -> 8 s, with ``fast_past_hole`` and
    # ``hole_passed``: removed P c4h_9921 50 -> 100%, c4h_9963 shots P 89 -> 100%; 12 s and more
    # gave c2h_9944 an identity switch (s2, kept unseen 9 s after a blow nobody saw moved it,
    # took s3's run)
    kept_unseen_lift_after: float | None = 8.0
    # crokinole: a lost disc's course cut short by a disc it struck stands by the 20-hole too when
    # it came too fast to drop in (``slide.slid_to``)
    fast_past_hole: bool = True
    # crokinole: a disc called into the 20-hole and found sliding on beyond it within
    # ``hole_course.PASSED_S`` crossed it (``hole_course.passed_over``)
    hole_passed: bool = True
    # korona: an unseen moving disc's coast strikes a free resting disc (no disc touching it) in its
    # way instead of running on through it (``hidden_blows.coast_into_disc``, crokinole's always);
    # with ``ghost_ahead`` (neither fixes k2e_9995 alone). Replays (--dets), both off -> on: k2e_9995
    # switches 25 -> 0 per 100 shots; the other 9 k2e, 10 k4h dev matches and 5 korona fixtures
    # identical. Unrestricted (rows, any ghost, any time) they cost k4h_9306, k4h_9912, k4h_9996,
    # k2e_9705, k2e_9911 switches or pockets
    korona_coast_blow: bool = True
    # korona: a disc knocked away unseen from a free place (a ghost) may take, within
    # ``ghost_course.FRESH_S`` of its last sighting, a wide-stage detection ahead of that place
    # along its blow's course (``ghost_course.behind_blow``); before, only a new track could.
    # Not beyond a disc resting across the straight way there (``ghost_course.across_rest``,
    # session 21): replays (--dets), k2e_9983 switches 25 -> 0 per 100 shots (as with this off);
    # the other 9 k2e, 10 k4h dev matches and 5 korona fixtures identical
    ghost_ahead: bool = True
    # korona (figures in the functions' notes): movers and resting discs' places
    # (``overlap.mover_on_rest_place``); off: a new board fit pairs all tracks jointly
    # (``refit.rebase_korona``), no unseen rim rebound onto a disc in play (``rims.rebound_blocked``),
    # an unseen resting disc overlapped by one seen at rest lies beside it (``overlap.pushed_aside``)
    no_overlap: bool = True
    # crokinole: the same rule for movers and resting discs' places, the mover unseen for up to a
    # frame (``overlap.MOVER_FRAMES``; figures in overlap.py)
    crokinole_no_overlap: bool = True
    # crokinole: a resting disc seen off its place on its last frame, in a blow, may be found as far
    # again along that step (``prediction.leaving``; figures there)
    leaving_ahead: bool = True
    rebase_movers: bool = False
    rebound_blocked: bool = False
    push_aside: bool = False
    # korona: a disc a striker knocked away unseen into its rim takes no detection on the place of
    # another disc unseen now (``pair_costs.rim_ghost_penalty``). Replays (--dets), off -> on:
    # k2e_9965 missed off_board of n5 found (p95 at rest 1.34 -> 1.48 mm: north's striker, now
    # measured at rest in that shot); k2e_9953 median 0.21 -> 0.20 mm; the other 9 k2e, 11 k4h dev
    # matches and the 5 korona fixtures identical. Taking seen row-mates' places too also fixed
    # k4h_9972 (p95 5.46 -> 3.39) and k4h_9984 (switches 37.5 -> 25) but cost k2e_9983 (switches
    # 0 -> 25) and k4h_9912 (a false off_board)
    rim_ghost_places: bool = True
    # korona: a resting disc a mover's forecast drives over a rim within the frame (not only one
    # resting within 3 mm of it) comes back off that rim, so a detection up to a radius back from
    # its place, against the push, may be its own (``prediction.pushed_into_rim``). Replays
    # (--dets), off -> on: k2e_10105 rounds 0/1 -> 1/1, pockets 75 -> 100%, its false off_board
    # gone, switches 37.5 -> 25, p95 2.27 -> 2.17 mm (median 0.47 -> 0.52: s7 now measured);
    # k4h_10106 median 1.67 -> 1.71 mm and a false off_board of s5 at 25.4 s (round lost either
    # way: without a phantom twin of s5 made in a camera shake at 21.6 s, which this prevents, a
    # stray find on s5's emptied place at 24.3 s went to a row-mate); the other 11 k2e, 11 k4h dev
    # matches and the 5 korona fixtures identical
    rim_push_ahead: bool = True
    # korona: stage 2 lets no resting disc jump to a detection beyond another disc resting across
    # its way there (seen within ``passed_on.SEEN_S``); that disc, unseen in its place, may take it
    # (``passed_on``). Off: replays (--dets), off -> on: korona_2p_game's false off_board of s1 at
    # 14.55 s gone, switches 7.1 -> 3.6, positions 1.40/5.22 -> 1.43/5.14 mm (its s1 pocket at
    # 35.4 s still missed); k4h_10006 median 1.03 -> 0.91 mm; but k4h_9912 (a pocket missed at
    # 23.4 s and a false off_board), k4h_9972 (a false pocket at 4.45 s) and k2e_10005 (a false
    # pocket at 8.78 s: a row disc no longer takes the find of n5 carried back to the centre at
    # 11.6 s, and the names after that shot are reconciled otherwise) lose their rounds, and
    # korona_ru_part misses s3's off_board at 3.55 s
    korona_passed_on: bool = False
