"""A resting crokinole disc the detector found at its place only now and then, and then not at
all, was not removed by hand (``ends.seen_seldom``); one found there on every frame and then gone
was (c2h_9932 with ``DetectorSettings.edge_salience``: n1, found at rest on 12 of 110 frames to
12.4 s and unseen after, was called removed by hand at 16.5 s)."""

from __future__ import annotations

from tests.infer.scenes import discs_at, feed, slide_to
from tracker.detect.datatypes import Detections
from tracker.infer.ends import seen_seldom
from tracker.pipeline import Pipeline

FPS = 30.0
REST = (-12.0, 45.0)  # inside the 15-circle: the first shot stays


def _scene(seen_at_rest: list[bool]) -> Pipeline:
    """South's disc slides up from its line to ``REST``; then, a frame each, found there or not."""
    run = [(0.0, -240.0)] * 15 + slide_to((0.0, -240.0), REST, 40)
    frames: list[tuple[float, Detections]] = [(k / FPS, discs_at(xy)) for k, xy in enumerate(run)]
    k0 = len(frames)
    for k, seen in enumerate(seen_at_rest):
        frames.append(((k0 + k) / FPS, discs_at(REST) if seen else discs_at()))
    return feed(frames)


def _by_hand(p: Pipeline) -> list[str]:
    return [e.data["disc"] for e in p.sorted_events() if e.type == "removed" and e.data["reason"] == "by_hand"]


def test_a_disc_seen_now_and_then_and_then_unseen_was_not_lifted() -> None:
    p = _scene([True] * 7 + [False] * 100 + [True] * 5 + [False] * 200)
    assert _by_hand(p) == []


def test_a_disc_seen_on_every_frame_and_then_gone_was_lifted() -> None:
    p = _scene([True] * 112 + [False] * 200)
    assert _by_hand(p) == ["s1"]


def test_seen_seldom_counts_the_frames_since_it_came_to_rest() -> None:
    p = _scene([True] * 7 + [False] * 100 + [True] * 5)
    tr = next(t for t in p.tracker.tracks if t.hits > 10)
    assert seen_seldom(tr)
    p = _scene([True] * 112)
    tr = next(t for t in p.tracker.tracks if t.hits > 10)
    assert not seen_seldom(tr)
