"""The output folder of a command: made, checked writable, before any work is done."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tracker.errors import InputError


def make_output_folder(out: Path, names: Sequence[str] = ()) -> list[Path]:
    """Make ``out`` (and its missing parents) and check it is writable and that none of the
    files ``names`` to be written there is a folder; the folders it made, deepest first.
    InputError, one line, when it cannot (before the work, not after it)."""
    made = [p for p in (out, *out.parents) if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create output folder {out}: {e.strerror}") from None
    if not os.access(out, os.W_OK):
        raise InputError(f"output folder {out} is not writable")
    for name in names:
        if (out / name).is_dir():
            raise InputError(f"cannot write {out / name}: a folder of that name is in the way")
    return made
