"""Corrections are patches on the shot log, applied in order; bad ones are refused by field."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.corrections import apply_corrections, line_origins, validate_patch
from tracker.errors import InputError

LOG: list[dict[str, Any]] = [
    {"seat": "south", "disc": "s1", "contacts": [], "end": {"s1": [0.0, -150.0]}},
    {"seat": "north", "disc": "n1", "contacts": [["n1", "s1"]], "end": {"n1": [10.0, 90.0], "s1": "off"}},
]


def test_end_override_and_contacts():
    out = apply_corrections(LOG, [
        {"shot": 0, "patch": {"end": {"s1": "hole"}}},
        {"shot": 1, "patch": {"remove_contacts": [["s1", "n1"]], "add_contacts": [["n1", "peg"]]}},
    ])
    assert out[0]["end"]["s1"] == "hole"
    assert out[1]["contacts"] == [["n1", "peg"]]
    assert LOG[0]["end"]["s1"] == [0.0, -150.0]  # the observed log is untouched


def test_insert_and_delete_shift_indices():
    missed = {"seat": "west", "disc": "w1", "end": {"w1": [5.0, 5.0]}}
    out = apply_corrections(LOG, [{"shot": 1, "patch": {"insert_before": missed}},
                                  {"shot": 0, "patch": {"delete": True}}])
    assert [line["disc"] for line in out] == ["w1", "n1"]


def test_line_origins_follow_inserts_and_deletes():
    fixes = [{"shot": 1, "patch": {"insert_before": {"seat": "west", "disc": "w1", "end": {}}}},
             {"shot": 0, "patch": {"delete": True}},
             {"shot": 1, "patch": {"end": {"n1": "off"}}}]
    # stored lines 0, 1, 2 -> corrected log: inserted w1, stored 1, stored 2
    assert line_origins(3, fixes) == [None, 1, 2]
    assert line_origins(3, []) == [0, 1, 2]


@pytest.mark.parametrize(("patch", "field"), [
    ({"colour": "red"}, "colour"),
    ({"end": [1, 2]}, "end"),
    ({"add_contacts": [["a"]]}, "add_contacts"),
    ({"delete": "yes"}, "delete"),
    ({}, "non-empty"),
])
def test_bad_patches_name_the_field(patch, field):
    with pytest.raises(InputError, match=field):
        validate_patch(patch)


def test_correction_must_leave_a_valid_line():
    with pytest.raises(InputError, match="seat"):
        apply_corrections(LOG, [{"shot": 0, "patch": {"seat": "middle"}}])
    with pytest.raises(InputError, match="outside the log"):
        apply_corrections(LOG, [{"shot": 7, "patch": {"delete": True}}])
