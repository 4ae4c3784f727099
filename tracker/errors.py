"""Errors that reach the user as one clear line (exit status 2), never as a traceback."""

from __future__ import annotations


class TrackerError(Exception):
    """A user-facing error: bad input, bad usage, a board that cannot be found.

    The CLI prints ``str(error)`` on one line of stderr and exits with status 2.
    """


class InputError(TrackerError):
    """The input (file, argument, log line) is malformed or unusable."""


class CalibrationError(TrackerError):
    """The board could not be found or calibrated; the message says why."""
