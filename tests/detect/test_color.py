"""ColorModel: colour classes learned from the discs themselves."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detect.color import ColorModel, lab_to_hex


def _cloud(rng: np.random.Generator, centre: tuple[float, float, float], n: int, sd: float = 2.0) -> np.ndarray:
    return np.asarray(centre) + rng.normal(0.0, sd, (n, 3))


def test_two_wooden_sides_light_first() -> None:
    rng = np.random.default_rng(0)
    light = _cloud(rng, (68.0, 9.0, 30.0), 10)
    dark = _cloud(rng, (32.0, 8.0, 14.0), 10)
    model = ColorModel.fit(np.concatenate([dark, light]), k=2)
    assert model.k == 2
    assert model.centres[0, 0] > model.centres[1, 0]  # lightest first
    assert np.all(model.predict(light) == 0) and np.all(model.predict(dark) == 1)
    assert lab_to_hex(model.centres[0]).startswith("#") and len(lab_to_hex(model.centres[0])) == 7


def test_four_colours() -> None:
    rng = np.random.default_rng(1)
    centres = [(55.0, 65.0, 45.0), (12.0, 0.0, 0.0), (40.0, 10.0, -50.0), (75.0, 5.0, 25.0)]  # red black blue natural
    clouds = [_cloud(rng, c, 6) for c in centres]
    model = ColorModel.fit(np.concatenate(clouds), k=4)
    labels = [set(model.predict(c).tolist()) for c in clouds]
    assert all(len(s) == 1 for s in labels)
    assert len(set.union(*labels)) == 4
    assert list(np.argsort(-model.centres[:, 0])) == [0, 1, 2, 3]


@pytest.mark.parametrize("k", [2, 4])
def test_number_of_classes_chosen_when_not_given(k: int) -> None:
    rng = np.random.default_rng(2)
    centres = [(70.0, 10.0, 30.0), (25.0, 5.0, 10.0), (50.0, 60.0, 40.0), (45.0, -30.0, -30.0)][:k]
    model = ColorModel.fit(np.concatenate([_cloud(rng, c, 8) for c in centres]))
    assert model.k == k


def test_shade_is_cancelled_by_the_surround() -> None:
    """Light discs in a shaded ditch are darker than dark discs in the sun; relative to the board
    around them they are still the lighter side."""
    rng = np.random.default_rng(3)
    sun, shade = 1.0, 0.45
    light, dark = np.array([70.0, 9.0, 32.0]), np.array([36.0, 7.0, 15.0])
    board = np.array([60.0, 12.0, 35.0])
    colors, surround, truth = [], [], []
    for side, base in ((0, light), (1, dark)):
        for lit in (sun, shade):
            for _ in range(5):
                colors.append(base * [lit, lit, lit] + rng.normal(0, 1.0, 3))
                surround.append(board * [lit, lit, lit] + rng.normal(0, 1.0, 3))
                truth.append(side)
    colors_a, surround_a = np.array(colors), np.array(surround)
    naive = ColorModel.fit(colors_a, k=2).predict(colors_a)
    assert not (np.array_equal(naive, truth) or np.array_equal(1 - naive, truth))  # lightness alone fails
    model = ColorModel.fit(colors_a, k=2, surround=surround_a)
    assert np.array_equal(model.predict(colors_a, surround_a), truth)
    with pytest.raises(ValueError, match="surround"):
        model.predict(colors_a)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="no colours"):
        ColorModel.fit(np.zeros((0, 3)), k=2)
    with pytest.raises(ValueError, match="k must be"):
        ColorModel.fit(np.zeros((4, 3)), k=0)
