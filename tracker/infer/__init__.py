"""Events and the shot log from tracks: shots, contacts, ends, hands' work (SPEC 4, 4b)."""

from __future__ import annotations

from tracker.infer.contacts import infer_contacts
from tracker.infer.datatypes import Contact, HandEvent, ShotRecord
from tracker.infer.naming import Namer
from tracker.infer.segmenter import ShotSegmenter

__all__ = ["Contact", "HandEvent", "Namer", "ShotRecord", "ShotSegmenter", "infer_contacts"]
