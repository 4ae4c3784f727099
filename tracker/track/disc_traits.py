"""What a track knows of its disc besides its place: the board's colour around it
(:func:`see_surround`, folded in by :func:`running_mean`) and its radius (:func:`default_radius`,
:func:`rim_radius`)."""

from __future__ import annotations

import numpy as np

from tracker.boards import CrokinoleBoard, KoronaBoard
from tracker.detect.datatypes import Detections
from tracker.track.datatypes import Track


def see_surround(board: CrokinoleBoard | KoronaBoard, tr: Track, dets: Detections, j: int) -> None:
    """Fold detection ``j``'s surround colour (when the detector measured one) into the track's:
    the board's colour around the disc (``Namer.looks_like_board`` holds a find of about that
    colour for a mark on the board). Not from a crokinole disc over the 20-hole (its silhouette
    reaching over the hole's edge): the ring the detector reads round it (``Refiner.colors``)
    then crosses the hole, and a disc dropping in is fitted where its sinking face leads, the
    ring wherever that is. c4h_9921 at 7.63 s: n1, blue on the blue board, first seen in flight
    and then as it fell in, measured the board round it as (24, 17, -16) against (41, 10, -50)
    in flight; its mean came within 4.3 of its own colour, nearer than south's discs, and the
    shot was rejected as a mark's ("motion from (-28, -35): not where a shot starts"): its 20
    and the disc it knocked out were lost."""
    c = dets.surround[j]
    if isinstance(board, CrokinoleBoard) and float(np.hypot(*dets.xy[j])) < board.hole_radius + tr.radius:
        return
    if np.any(c):
        tr.surround, tr.surround_n = running_mean(tr.surround, tr.surround_n, c)


def running_mean(mean: np.ndarray, n: int, x: np.ndarray, cap: int = 50) -> tuple[np.ndarray, int]:
    """``mean`` of ``n`` samples with ``x`` folded in, the count capped at ``cap`` (so a change
    of light is followed: the last ``cap`` samples weigh most)."""
    n = min(n, cap)
    return (mean * n + x) / (n + 1), n + 1


def rim_radius(board: CrokinoleBoard | KoronaBoard, tr: Track) -> float:
    """The radius an unseen disc meets a korona rim with (``rims.within_rims``,
    ``rims.pressed_into_rim``): its track's, but no larger than its kind's on the board. A track's
    radius is its first find's, which a blurred or shadowed find makes too large; with it, a disc
    resting against the rim (its place there measured by the board's own radius) lay past its own
    limit and was taken to have jumped the rim already, so a blow into the rim sent it on through
    it unfolded (korona_4p_part at 18.1 s: e4, radius 15.3 mm against 12.5, struck into the west
    rim and forecast 57 mm beyond it). (That blow's sightings still go to the wrong row tracks:
    e5's track takes e4's, e4's takes e2's, and e2's, unseen, is put back at rest on the place
    e3 was knocked into, two tracks 4 mm apart; that association is another problem.)"""
    return min(tr.radius, default_radius(board, tr.kind)) if isinstance(board, KoronaBoard) else tr.radius


def default_radius(board: CrokinoleBoard | KoronaBoard, kind: int) -> float:
    if isinstance(board, KoronaBoard) and kind == 1:
        return board.striker_radius
    return board.disc_radius
