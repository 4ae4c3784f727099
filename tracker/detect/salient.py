"""Salient finds: discs whose outline passes only on the lower edge bar
(``DetectorSettings.edge_salience``), accepted only where the board's own paint cannot pass
for one.

At 1280x720 the hard renders' grain lifts a ray's texture level so that a dark disc on dark
wood, or a grey one in a glare, clears the resolution's own edge bar (``refine.edge_bar``: 3
there) on too few rays and is turned down; on a bar of 2 it is found. But on that bar the
board's paint closes disc-sized outlines too: the painted "10" numerals (c4h_9975 at (1, 154),
c2h_9932 at (2, 144): a false disc at rest for the whole match) and circles across the ditch's
edge (c4h_9921 at (238, 250) and (-266, 232)). A fit that passes only on the lower bar (its
``Fit.salient``: the refiner tries the lower bar only for an outline that fails the checks on
its own, so what the resolution's bar finds is found as before) is therefore kept only

* inside the shooting area, the whole disc (``inside_shooting_area``): not across the ditch's
  edge, and not the shooter's disc waiting on its line (seen at rest there before the flick,
  its flight then read as a foul to the ditch: c4h_9945's w1);
* at rest (``at_rest``: no pixel of its silhouette changed since the last call): a disc in
  flight is blurred, and a salient find on its way changed where the tracker last saw it
  (c4h_9945's w1 at 8.7 s, found on the hole's edge on its way in: then taken to rest there
  and its 20 lost);
* with a top face that differs from the empty board's picture at that place
  (``face_change``: against the background model, ``background.py``): the board's paint is in that
  picture, a disc set down on it is not (after the camera was knocked: the picture the
  replaced detector had learned, until the new one has learned its own). Where the empty board
  was never seen there (or no picture is learned yet: a single photo) the find is not kept.

Crokinole only (korona keeps its bar, ``strikers.fit_options``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tracker.boards import CrokinoleBoard
from tracker.detect.background import BackgroundModel
from tracker.detect.datatypes import Detections
from tracker.detect.marks import median_change
from tracker.detect.reuse import untouched
from tracker.detect.streaks import MIN_DIFF

if TYPE_CHECKING:
    from tracker.detect.detector import DiscDetector
    from tracker.detect.refine import Fit

# The edge bar of a crokinole disc fit at under 2 mm per image pixel (``DetectorSettings.edge_salience``
# None: this for the game, else the resolution's own bar)
GAME_EDGE_SALIENCE = {"crokinole": 2.0}
# A salient find's face differs from the empty board there by at least this much (weighted 8-bit
# Lab, the median inside ``INNER`` of its top face), and by the picture's noise bar
FACE_STEP = 20.0



def edge_salience(game: str, setting: float | None) -> float:
    """The fits' lower edge bar: the setting, or the game's own where it is None."""
    return GAME_EDGE_SALIENCE.get(game, 0.0) if setting is None else setting


def earlier_background(old: DiscDetector, shape: tuple[int, ...]) -> BackgroundModel | None:
    """The empty board as the detector ``old`` (replaced after a knock of the camera) had learned
    it, in the same board millimetres and view ``shape``, for the salient finds' face until the
    new detector has learned its own (``face_change``); None when it had learned none."""
    before = old.background if old.background.ready else old.earlier_background
    return before if before is not None and before.valid.shape == shape else None

def inside_shooting_area(det: DiscDetector, centre: np.ndarray, radius: float) -> bool:
    """Whether a disc of ``radius`` at ``centre`` lies wholly inside the crokinole shooting line."""
    b = det.board
    return isinstance(b, CrokinoleBoard) and \
        float(np.hypot(*centre)) + radius < b.shooting_line_radius - b.line_width / 2.0


def face_change(det: DiscDetector, centre: np.ndarray, radius: float) -> float | None:
    """By how much the median difference (weighted 8-bit Lab, ``BackgroundModel.difference``)
    between this call's view and the empty board's picture inside ``INNER`` of the circle at
    ``centre`` (``radius``) exceeds its bar (``FACE_STEP``, or the bar the picture's noise sets,
    ``BackgroundModel.threshold``, when higher); None
    where the picture is not known for half of it (or not learned yet). The detector's own
    picture first, else the one the detector it replaced had learned (``carry_over``: after
    the camera was knocked, a disc the new picture would start with is unknown to it).
    """
    for bg in (det.background, det.earlier_background):
        if bg is not None and (change := median_change(det, bg, centre, radius)) is not None:
            return change - max(bg.threshold(MIN_DIFF), FACE_STEP)
    return None


def salient_ok(det: DiscDetector, fit: Fit, radius: float) -> bool:
    """Whether a fit whose outline passed the checks is kept: always on the resolution's own
    bar; passing only on the lower one, inside the shooting area with a face unlike the empty
    board there (see the module's notes)."""
    if not fit.salient:
        return True
    if not inside_shooting_area(det, fit.centre, radius):
        return False
    if not at_rest(det, fit, radius):
        return False
    top = fit.top_centre if fit.top_centre is not None else fit.centre
    change = face_change(det, top, fit.top_radius if fit.top_radius > 0.0 else radius)
    return change is not None and change > 0.0


def at_rest(det: DiscDetector, fit: Fit, radius: float) -> bool:
    """Whether no pixel of the silhouette of a disc of ``radius`` at ``fit``'s centre changed
    since the last call (``DiscDetector.moved``; the first call's picture counts as at rest)."""
    if det.moved is None:
        return True
    one = Detections(xy=fit.centre[None], radius=np.array([radius]))
    return bool(untouched(one, det.moved, det.view, det.pose, det.thickness)[0])


def moving_salient(det: DiscDetector, fit: Fit, radius: float) -> bool:
    """A salient find turned down only while the picture at its place changes: not to be
    remembered as turned down (``rejects.py``), so that the pass once it rests fits it again."""
    return fit.salient and not at_rest(det, fit, radius)
