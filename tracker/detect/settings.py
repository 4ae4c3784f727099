"""``DetectorSettings``: the disc detector's thresholds and switches (``detector.py``).

Every tolerance here is in board millimetres, Lab units or shares of an outline; the detector
scales what depends on the image by the millimetres per pixel at the disc.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DetectorSettings:
    mm_per_px: float = 2.0  # coarse view scale (coarser when the camera itself sees less)
    min_coherence: float = 0.30  # coarse candidate: ring flux / ring gradient magnitude
    min_flux: float = 0.6  # coarse candidate: Lab units per px (noise floor)
    min_coverage: float = 0.6  # refined: fraction of rays with a consistent edge
    min_quarter_coverage: float = 0.25  # ... and in the worst quarter of the outline
    max_residual: float = 1.2  # refined: RMS edge residual, mm
    radius_tolerance: float = 0.15  # refined radius within +-15% of the nominal one
    # Size (mm) of the chamfer or rounding of the discs' top edge. At an oblique view it pulls the
    # far side's outline toward the camera by ``bevel * cot(elevation)`` (``Refiner._bevel_drop``)
    # and leaves a top-down view alone. None: the game's own (``GAME_BEVEL_MM``).
    bevel: float | None = None
    # Where the chamfer enters. False (video): the fits, and so every decision -- which discs are
    # accepted, reused, masked as neighbours -- are those of square-edged discs, and only the
    # reported centres are moved (``chamfer.py``: why). True (``tracker photo``): the chamfer is
    # modelled in the fit itself (``Refiner(bevel=...)``), for a single frame where nothing is
    # reused.
    bevel_in_fit: bool = False
    # The creep refits of ``deferred.py`` (a disc fitted in motion fitted again on the next calls
    # that keep it, the reported centre moved to where it crept) also where there is no chamfer
    # to allow for (korona; crokinole has them with its chamfer refits). Off by default: full
    # reviews, off -> on, the dev matches gain (k4h_9306 0/1 -> 1/1, pockets 100%/75% ->
    # 100%/100%, p95 9.11 -> 7.89 mm, but shots P 67% -> 58% and switches 0 -> 12.5; k2e_9605
    # shots 62%/71% -> 88%/100%, pockets 0%/100% -> 50%/100%, switches 12.5 -> 25; k2e_9505 median
    # 1.87 -> 1.42 mm; k4h_9606 shots P 73% -> 89%; k4h_9506 the same), but the korona fixtures
    # lose (korona_4p_part shots 100%/100% -> 90%/90%, pockets 50%/100% -> 33%/50%, switches
    # 10 -> 20; korona_2p_game pockets P 100% -> 93%, median 2.66 -> 4.84 mm; korona_ru_part
    # gains, pockets 50%/67% -> 75%/100%). Not examined why: the tracking takes a resting disc's
    # reported place moving by a millimetre or two a few calls after it stopped differently.
    creep_refits: bool = False
    # A disc over the 20-hole's edge found by the part of the hole it covers, where it shows no
    # outline of its own (``twenty_hole.covering_disc``; a disc of the board's colour on a noisy
    # board). Off by default: full reviews, off -> on, c4h_9921 (the blue disc on the blue board)
    # finds s1 at (-1, -13) mm, not in the hole (the extra 20 and the missed off_board gone; 20s P
    # 50% -> 100%), s2 at (-5, -22) instead of in the hole, but the round stays wrong (north's shot
    # at 8.3 s still unseen: its w1 then a foul of s2); c2h_9802 removed R 50% -> 100% but an extra
    # 20 and switches 0 -> 25; and crokinole_4p_part loses its exact round (a disc found at (-16, -4)
    # that is none, the hole's pattern at its low resolution), c2h_9914 shots P 100% -> 80%, c4h_9803
    # switches 0 -> 12.5. Every other crokinole dev match and fixture the same. Sought on full
    # passes only (not also where the view changed over the hole): crokinole_4p_part stays exact
    # (its false disc came on a pass over a change), but c4h_9921 got worse (A 20, B 65): s1 was
    # found on the settling pass, after the tracker had called it in the hole, and came back as a
    # new disc.
    covered_hole: bool = False
    # Crokinole: a disc is labelled down in the 20-hole (``IN_HOLE``) by its reported centre, the
    # chamfer-corrected one, too, not only by its fit's own (``twenty_hole.sunk_reported``)
    sunk_reported: bool = True
    # Crokinole: a disc at rest whose outline is too weak for the fits' checks, found where the view
    # differs from the empty board's picture (``background.py``) by a disc-shaped blob that stays:
    # looked at on a still call once the blob has stayed unexplained for a few of the model's
    # still updates, before the model absorbs it (``rest_blobs.stale_discs``); with
    # ``rest_blobs_full`` also on every full pass (``rest_blobs.resting_blobs``). Off by default.
    # Full reviews (1280x720), off -> on (median/p95 mm at rest): c4h_9921 shots P 89% -> 100% (its
    # false s2 off the board at 10.9 s gone), 1.17/3.88 -> 0.88/3.17, round still lost (s1 over the
    # hole's edge, blue on the blue board, not found: its blob is its shadow); c4h_9945 removed
    # 40%/33% -> 60%/60%, 0.68/4.56 -> 0.69/2.38; but c2h_9932 shots P 89% -> 80% and switches
    # 0 -> 12.5 per 100 shots (n3, lost at rest and found again by its blob 3 s later, a new
    # track: a phantom shot at 20.3 s), 20s P - -> 0% (two extra), though 2.67/9.63 -> 1.09/7.65;
    # c2h_9914 0.38/3.72 -> 0.38/0.92; c2h_9944 shots P 88% -> 100%, removed P 25% -> 100%, but
    # p95 4.30 -> 9.19; c4h_9951 shots P 89% -> 100%, 1.35 -> 0.87 p95, removed P 17% -> 14%;
    # c2h_9802, c2e_9501, c4h_9503, c2e_9943 identical; no round fixed; the 11 fixtures the same
    # but crokinole_2p_round 1.44/2.37 -> 1.41/2.37. With
    # ``rest_blobs_full`` too: c2h_9932 n1 (the black disc over the hole's edge under the glare
    # spot) found at rest by the settling pass, 2.2 mm off (its false fouls gone; shots P 89%, pos
    # 1.29/7.37, two extra 20s), c4h_9921 shots P 100% but p95 3.88 -> 8.68 (n2 found off its place
    # by its blob and shadow while it crept to a stop); crokinole_2p_round 1.44/2.37 -> 1.41/2.37,
    # the other fixtures, c2h_9802, c2e_9501, c4h_9503 and c2e_9943 identical.
    rest_blobs: bool = False
    # Crokinole: a disc at rest whose outline shows only this share of its rays (below ``min_coverage``,
    # no bar on its worst quarter: the side where the board's colour matches the disc's shows none)
    # is kept when its face differs clearly from the board around it (``verify.CAMO_STEP``) and its
    # fit's shape and place are a disc's, away from the 20-hole (``verify.camouflaged``); such a
    # fit turned down only because its picture still changed is not remembered as turned down
    # (``fitpass._camouflaged``). 0: off. Off by default. Fresh full passes on settled frames of
    # 6 dev matches (every 12th frame, fresh detector): found 30 -> 39 of 64 resting discs on
    # c2h_9932, 8 -> 10 of 21 on c4h_9921, 16 -> 24 of 25 on c4h_9963, none false, c2h_9944 and
    # c2e_9501 the same; the new finds are 1.5-3 mm off (the edge fit on the hard camera's blurred,
    # textured picture moves with its start). Full reviews (1280x720), 0 -> 0.4: c4h_9921 rounds
    # 0/1 -> 1/1 (removed 100%/50% -> 100%/100%, p95 6.33 -> 5.70 mm) but shots P 100% -> 89% (a
    # phantom s2 off at 10.9 s); c4h_9963 0/1 -> 1/1 (its false removals gone, 0.85/4.95 ->
    # 0.55/5.05) but shots 100%/89% -> 88%/88%; c2h_9802 p95 3.87 -> 0.69; c2h_9914 3.72 -> 0.92;
    # c4h_9945 0.68/4.56 -> 0.60/1.27 but removed P 75% -> 60%; c2h_9932 p95 8.65 -> 6.22 (n1 at
    # (28, -16) found at rest: 23 mm -> 2 mm) but two false 20s and a switch (12.5 per 100 shots);
    # c2h_9944 shots P 88% -> 100%, median 1.15 -> 0.74, but a false 20; c4h_9951 a shot into the
    # hole missed (shots 100%/89% -> 88%/88%, 20s R 100% -> 50%, p95 1.35 -> 5.71); c2h_9956,
    # c2e_9501 and the 6 crokinole fixtures the same (crokinole_2p_round p95 2.37 -> 2.57). The
    # false 20s (not fully examined): a disc found only at rest, unseen in motion, is a track lost
    # as soon as it is struck near the centre, which the tracker may put in the hole; without the
    # finds there was no such track. Replayed with the finds: ``TrackerConfig.unseen_into_hole``
    # off changes none of them; ``struck_not_in_hole`` on takes c2h_9944's away, but c4h_9921
    # then loses its true 20 (as without the finds).
    camo_coverage: float = 0.0
    rest_blobs_full: bool = False
    # With or without ``rest_blobs`` (its blobs, looked at as it says): a blob whose outline the edge refit cannot find (a disc of the board's
    # own colour: c4h_9921's blue discs on the blue board) placed by the picture of its change
    # instead (``blob_fit.py``: one face change inside the silhouette, the shadow learned from the
    # discs found at rest outside it; refitted by its outline from there where one shows:
    # ``rest_blobs._polished``). Off by default. Rendered stills (seed 9921's match look, 1280x720):
    # 4 of 5 blue discs found at 0.5-1.3 mm (a fifth, whose face barely differs from the board,
    # not), none by the fits or ``rest_blobs``; a fresh detector on c4h_9921's frame 700 finds s2
    # and n2 (1.2 and 0.5 mm). Full reviews (1280x720; before: main c80bc2c), with
    # ``rest_blobs_full``, ``rest_blobs`` off: c4h_9921 0/1 -> 0/1, 1.01/6.62 -> 1.06/6.62 mm: n2
    # is now found at rest at 21.7 s, 4 mm off, but after e2's shot at 23.5 s neither n2 nor s2 is
    # found again before the video ends 1.5 s later (at s2's new place the fit explains nothing:
    # not examined further); c4h_9975 0/1 -> 0/1 but removed P 100% -> 25% (a false foul of s2 at
    # 14.9 s: w1, now found at rest by its region 2 mm off, is not seen struck), p95 4.01 -> 8.54
    # mm. Without ``rest_blobs_full`` the same on both (c4h_9921 as before: n2 never found); with
    # ``rest_blobs`` too, c4h_9975 the same loss. On (with ``rest_blobs_full``): c4h_9945 identical;
    # c2h_9932 2.96/8.63 -> 1.15/6.19 mm; c4h_9963 round still exact but shots 100% -> 88%/88%
    # (e2's last shot read as a west shot: w2 takes e2's track, a contact e1-w2 made up).
    blob_regions: bool = False
    # The disc fits' edge bar (``refine.edge_bar``): an edge on a ray counts when it is this many
    # times the ray's texture level (the median edge strength away from the rim). 0: by the
    # image's resolution, 3 under 2 mm per image pixel, else 2; None: the game's
    # (``salient.GAME_EDGE_SALIENCE``: 2 for crokinole, korona by resolution). The hard renders'
    # grain at 1280x720 (1.3 mm per image pixel) puts a ray's texture level at 5-9 Lab units per
    # mm, and a dark disc on dark wood or a grey one in a glare peaks at only 2-3 times it, so
    # under 3 most of its rays read open and it is turned down (c4h_9975 at 11 s: e1 and w1,
    # coverage 0.67 and 0.31; with 2: 0.90 and 0.65). The lower bar is tried only for an outline
    # that fails on the resolution's own (``Fit.salient``), and such a find is kept only inside
    # the shooting area, at rest, with a face unlike the empty board's picture there
    # (``salient.py``): on a bar of 2 for every fit the board's painted "10" numerals and circles
    # across the ditch's edge were discs, the shooter's disc on its line was a disc at rest, and
    # the discs the bar of 3 found were fitted differently and some lost (c2h_9932 and c4h_9951
    # lost their rounds). Off by default: full reviews of 16 crokinole dev matches (main 9bed01e
    # caches -> None, fresh; rounds 9/16 -> 10/16): c4h_9975 0/1 -> 1/1, places at rest better
    # (c2h_9956 p95 7.38 -> 0.64 mm, c4h_9963 4.17 -> 1.23, c4h_9981 1.29 -> 0.76, c4h_9951 9.46
    # -> 6.09, c2h_9986 5.06 -> 4.42, c4h_9921 median 1.37 -> 0.99), but c2h_9802 1/1 -> 0/1 (a
    # switch: s3 now seen at rest at (5, -16) and s1 not, and after n3's shot at 18.3 s the
    # tracker gives s3's new place to s1), c4h_9945's 20 of w1 at 8.9 s lost (w1, now seen at
    # rest by the hole, kept there when it drops in), c4h_9951 removed R 100% -> 67% and c2h_9932
    # removed P -> 0% (discs taken off by hand called removals). Each is downstream of the
    # detector: a disc now found where it lies is followed worse than one never seen. The 6
    # crokinole fixtures (480x270: the bar is 2 there already) and korona are the same
    # (detections compared frame by frame).
    edge_salience: float | None = 0.0
    min_color_step: float = 6.0  # top face vs the board around it, weighted 8-bit Lab units
    max_candidates: int = 120
    reuse: bool = True  # keep unchanged discs from the previous call (video)
    change_level: float = 10.0  # grey levels: a coarse-view pixel changed
    # A changed part of the view stands only when some pixel of it changed by this many times the
    # picture's noise (``change_noise.py``; 0: off). A clean picture's noise stays under it, so
    # only noisy cameras are touched. Off by default: with 6, c4h_9503 (hard) ran 12% -> 20% of
    # decode speed, but lost accuracy: crokinole_4p_part shots P 100% -> 78%, removed 100% ->
    # 50%/25%; c4h_9503 a false removal; k4h_9506 shots 25%/100% -> 50%/67%, pockets 67% -> 33%
    # (``Pipeline.change_noise`` turns it on for a review; ``bench_speed.py``/``bench_review.py --noise``).
    # The pipeline sets it per game (``pipeline.CHANGE_NOISE``: crokinole 6, with the parts on the
    # discs found before kept, ``ChangeNoise.keep_on_discs``; korona off).
    change_noise_sigmas: float = 0.0
    # A kept disc with this many raw changed pixels on its silhouette is refitted (``reuse.crept``),
    # and kept discs are compared with the picture they were fitted on (``reuse.held_reference``):
    # a disc creeping to a stop no longer keeps the fit made while it slid. 0: the opened change
    # mask against the last call alone. Off by default: with 6, fresh fixture runs (median/p95 mm)
    # crokinole_4p_part 2.36/4.96 -> 2.44/2.84 (w2, 5.3 mm off at rest from 24.5 s, 2.7) and its
    # false shot gone (shots P 89% -> 100%), but its w1 at 8.3 s called off the board instead of
    # removed at the shooting line and a false removal at 25.1 s (removed 100% -> 50%); the other
    # crokinole fixtures the same or better (crokinole_2p_round p95 2.49 -> 2.40); korona worse
    # (korona_2p_game shots R 96% -> 82%, korona_4p_part switches 0 -> 30 per 100 shots: likely
    # the rim rows, completed only on full passes, lost when a kept row disc is refitted: not
    # checked).
    creep_pixels: int = 0
    refresh_frames: int = 50  # a full pass at least this often (calls; ``stillness.FullPasses``: frames)
    clusters: bool = True  # the occlusion-aware second pass for touching discs (``clusters.py``)
    # Korona: the pockets mask the outline of a disc just outside their mouths in that pass, as
    # the 20-hole does, on a second fit of a seed beside one (``ClusterPass._pocket_occluders``).
    # Off by default. Full reviews, off -> on: korona_ru_part (480x270) pockets 50% -> 75% (n8,
    # 4.5 mm from the sw pocket's mouth, found at rest, its pocketing at 19.3 s seen; the round
    # still wrong), the other korona fixtures and 14 of the 15 korona dev matches run identical,
    # but k4h_9912 (1280x720) called its ne pocket at 23.4 s only at 32.3 s (s5 kept at
    # (41, 395) meanwhile: pockets 100% -> 50%/50%), on the incremental passes (a fresh full pass
    # at 23.0 s and 24.0 s finds the same discs either way). Not examined further.
    pocket_occluders: bool = False
    # Korona: a row place the row pass put in (``rows.predicted``: no fit of its own, found on
    # full passes only) is kept by an incremental pass while under this share of its silhouette's
    # coarse-view pixels changed (``rows.held_places``, ``reuse.changed_share``); 0: any changed
    # pixel drops it, as a fitted disc. A disc knocked away or a hand over it changes nearly all of
    # it; the picture's grain on the hard preset changes a few pixels, and the row was lost until
    # the next full pass (k4h_9506: the east row, put in at 34.0 s, gone by 34.3 s with 6-10
    # changed pixels each and nothing near; with 0.25 it stands until the flick at 35.8 s).
    # Off by default. Full reviews, 0 -> 0.25: k4h_9606 pockets 0%/0% -> 0%/100% (its three false
    # pocketings, e1 at 8.7 s, e3 and e6 at 23.5 s, gone; the round still lost: s1 and n2 unseen),
    # pos 2.85/4.63 -> 2.91/5.16 mm; k4h_9506 pos 1.99/3.19 -> 1.89/2.80 mm, its round still lost
    # (w8's pocketing at 36.1 s: w8's track took w5's run); k4h_9924 shots P 80% -> 89%, pos
    # 2.14/7.38 -> 2.03/7.33 (round still lost); k2e_9505 1.50/3.30 -> 1.47/3.31,
    # k2e_9935 0.98/2.27 -> 0.96/2.27, k2e_9911 the same; but korona_4p_part (480x270) switches
    # 10 -> 20 per 100 shots and an extra off at 18.9 s (e4), median 1.81 -> 1.91 mm (with 0.1 the
    # same), korona_2p_game median 2.57 -> 2.76 (0.1: the same as off), korona_ru_part median
    # 5.31 -> 4.12 (0.1: as off); korona_overshot, korona_pocket identical. Not examined: the
    # fixtures' silhouettes are a few dozen coarse pixels, where a grain and a nudge look alike.
    row_hold: float = 0.0
    rows: bool = True  # korona: complete the rows of discs against the rim (``rows.py``), full passes
    # A resting disc hidden for a while comes back when its place looks as before (``lost.py``).
    # Off by default: on the fixtures it cut the per-frame misses of korona rows by a third, but
    # the reviews did not improve (an unseen korona match lost shots), so it is opt-in for now.
    restore_lost: bool = False
    # Korona: a resting row disc stays reported between full passes until its place shows it has
    # gone (``row_memory.py``). Off by default: on the korona fixtures it raises the per-frame
    # recall of resting rim discs (korona_4p_part 0.70 -> 0.84, korona_ru_part 0.54 -> 0.65,
    # korona_2p_game 0.57 -> 0.64; rim-line finds with no true disc within 8 mm, frames summed,
    # 4 -> 5, 395 -> 884 (places 8-9 mm off a loosely laid row), 38 -> 30), and truth-made
    # detections missing only the rim discs it still misses review korona_4p_part exactly (0/1
    # with the misses of today's detector); but the reviews of the detector's own output do not
    # gain yet (the three fixtures: shots 98%/92% both, pockets 68%/94% -> 60%/75%, switches
    # 8.0 -> 14.0 per 100 shots): the tracking was tuned on rows that come and go.
    row_memory: bool = False
    # Korona: a striker's groove, fitted as a disc, no longer hides the striker at rest
    # (``fitpass.blocked``, ``fitpass.at_rest``, ``strikers.drop_strikers_over_discs``,
    # ``strikers.striker_grooves``). Only where the picture of the striker's place did not change since
    # the last call or a striker was found there then (anywhere, a striker ring fitted over a fast
    # disc's blur won too: korona_4p_part at 22.5 s, 20 switches per 100 shots; now its row and
    # the other korona fixtures' are unchanged with it on). Still off by default: resting strikers are
    # measured better (k2e_9205 pos 1.34/5.55 -> 1.17/2.22 mm, k2e_9905 2.00/11.04 -> 1.64/3.62,
    # k2e_8805 switches 25 -> 12.5 per 100 shots) but the korona tracking does not yet follow a
    # striker seen as one: k2e_9905 at 5.6 s, lifted by a hand, it became a false shot pocketing
    # it (shots 100%/100% -> 100%/89%, pockets -> 100%/80%); k2e_8805 at 23 s the groove found
    # while the striker came to rest was taken by s8's track, and s8's pocket missed (pockets
    # 100%/100% -> 50%/50%, p95 6.95 -> 9.18 mm, shots 88%/100% -> 100%/89%).
    groove_strikers: bool = False
    # Korona rim rows (``rim.py``): the longest shadow, in disc radii, a run of discs may read
    # beyond its discs; and whether ``rows.py`` steps a row at its own measured pitch
    # (``rows._pitch``) instead of 2 r. Opt-in (0.7, False): with 1.0 and True (fresh detector
    # runs) k4h_9306 shots 88%/64% -> 100%/67%, pos p95 4.83 -> 2.17 mm (its east row after the
    # camera refit, 212.7 mm for 8 discs, is found), korona_4p_part, korona_overshot and
    # korona_pocket identical, but korona_ru_part pockets 75%/75% -> 50%/50% (not yet examined;
    # which of the two does it not known).
    # Korona: the row pass (``rows.py``) tells a place's colour from the bare board along the row's
    # own line (in the rim's shadow), not from the whole board's median. Off by default: full
    # reviews off -> on, k4h_9606's five phantom places on its south rim (10 s to the end) are
    # gone (pos p95 11.56 -> 4.63 mm) and k4h_9306's switches go 12.5 -> 0 per 100 shots, but
    # k4h_9606's shots go 100%/73% -> 75%/60% and k4h_9506's 100%/100% -> 88%/100% (not examined);
    # k2e_9505, k2e_9605, k2e_9705, k4h_9706 and the five korona fixtures identical.
    row_line_board: bool = False
    rim_shadow: float = 0.7
    row_pitch: bool = False
    # Korona: the outline of a striker at rest is chosen as a whole (``strikers.fit_options``: the
    # refinement's consensus outline, ``consensus.py``). k4h_9506 (hard preset) shots 0% -> 25%
    # recall (100% precision), pockets 0% -> 67%; the other korona dev matches and fixtures the
    # same or better (figures in ``strikers.fit_options``).
    striker_consensus: bool = True
    # Korona: a striker's outline sized before its fit can be given up (``strikers.CONSENSUS_AT``)
    # and a fit up to ``verify.STRIKER_LARGER`` larger than the board model's accepted: a striker
    # of another size than the model's (and the renderer's, drawn 26-30 mm against 25) is found
    # at rest. Off by default: the detector finds more resting strikers on the hard preset (fresh
    # detector, 12 still frames a match: k4h_9506 7 -> 8, k4h_9606 8 -> 11 of 12; strikers drawn
    # 10% larger 0 -> 9 of 15 in tests/detect/test_korona_strikers.py), but the full reviews do
    # not gain: k4h_9506 shots 100%/100% -> 100%/89%, pos 1.99/3.19 -> 2.02/3.26 mm; k4h_9606 shots
    # 100%/73% -> 88%/78%, pos 3.14/11.56 -> 3.19/11.78; k4h_9306, k4h_9706, k4h_9806,
    # korona_2p_game, korona_4p_part, korona_ru_part the same (not examined: the extra finds
    # are at moments the tracking did not expect a striker). With the change gate on for korona
    # (``pipeline.CHANGE_NOISE`` 6) k4h_9506 came to shots 75%/100%, pockets 67%/67% (gated
    # without it: 62%/83%, 33%; off on main: 100%/100%, 67%/100%).
    striker_any_size: bool = False
    # Korona: a striker kept unchanged (at rest) for the first time is fitted once more with its
    # outline chosen as a whole (``strikers.settle``): its last fit was made while it crept, by
    # the plain fit. Off by default: full reviews off -> on, the korona fixtures' positions gain
    # (median/p95 mm: korona_2p_game 2.76/6.86 -> 1.51/6.79, korona_4p_part 1.82/6.95 ->
    # 1.42/5.00, korona_ru_part 4.10/7.16 -> 1.85/6.22), but their events lose: korona_2p_game
    # pockets 87%/100% -> 87%/93% and switches 10.7 -> 25 per 100 shots, korona_4p_part switches
    # 10 -> 20, korona_ru_part shots 100%/86% -> 92%/79% (a struck disc taken for the striker);
    # dev matches: k2e_9505 1.59/3.83 -> 1.50/3.31 mm but switches 0 -> 12.5 (a south row disc),
    # k4h_9306 1.49/9.44 -> 1.38/9.79, round lost, pockets 100%/100% -> 67%/100%, switches
    # 0 -> 12.5; k4h_9706 1.35/2.46 -> 1.25/2.46; k2e_9605 the same.
    settle_strikers: bool = False
    # Korona: a disc reported within this many mm of a rim line is reported on it (``rim_line.py``:
    # fits against a rim are pulled 1-1.5 mm inward; ``rim_line.SNAP_MM``: 3); 0: off. Off by
    # default: full reviews, 0 -> 3 (median/p95 mm at rest), the dev matches' positions gain
    # (k2e_9505 1.59/3.83 -> 1.33/3.83, k2e_9705 0.74/5.95 -> 0.43/5.95, k2e_9805 1.25/2.28 ->
    # 0.85/2.20, k4h_9306 1.61/9.21 -> 1.49/9.21, k4h_9506 1.99/3.19 -> 1.91/4.15, k4h_9606
    # 3.14/11.56 -> 2.90/11.78, k4h_9706 1.35/2.48 -> 1.03/2.47, k4h_9806 1.90/2.67 -> 0.97/3.53,
    # k4h_9912 1.62/4.86 -> 1.41/3.80 and its round exact, k2e_9605 the same; k2e_9911 0.76/2.03
    # -> 0.95/1.97: its discs 1-3 mm off a rim are put on it), but identity switches rise (per
    # 100 shots: k2e_9805 0 -> 12.5, k4h_9506 0 -> 12.5, k4h_9806 25 -> 37.5 with pockets P 75% ->
    # 60%, k4h_9912 12.5 -> 25, korona_4p_part 10 -> 30; the two looked at were collisions in the
    # open, not discs moved by the snap: not examined further), and the coarse fixtures gain little
    # (korona_2p_game 2.76/6.86 -> 2.94/6.85, korona_4p_part 1.82/6.95 -> 1.93/8.03, korona_ru_part
    # 4.10/7.16 -> 3.86/6.40). The places a shot reports are put on the rim line after all, without
    # moving any detection: ``pipeline.rest_places`` (refitted on the settled frame, then snapped).
    rim_snap_mm: float = 0.0
    # Korona: a row the rim strip finds (``rim.py``) is measured from its end on the light's side
    # (the rims' own shadows tell it: ``rim_strip.shadow_lean``), not centred on the stretch that its
    # shadow lengthens at the other end. Off by default: full reviews off -> on (median/p95 mm at
    # rest), k4h_9306 1.61/9.21 -> 1.63/6.97 (its west row -4.7 -> -0.3 mm along the rim),
    # korona_ru_part 4.72/7.25 -> 3.99/6.41, k4h_9706's east row -2.7 -> +0.9 mm (its figures the
    # same), but k4h_9506 shots 100%/100% -> 100%/89% (a phantom shot at 34.7 s: rim places the
    # same there, the tracking's identities differ from earlier; not examined further); k2e_9505,
    # k2e_9705, k4h_9912, korona_2p_game, korona_4p_part, korona_overshot, korona_pocket identical.
    rim_lean: bool = False
