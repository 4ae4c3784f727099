"""Request bodies of the JSON API (pydantic: a malformed body is a 422 naming the field)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator


class NewMatch(BaseModel):
    game: Literal["crokinole", "korona"]
    players: int = Field(2, ge=2, le=4)
    variant: Literal["fi", "ru"] | None = None
    name: str | None = Field(None, max_length=200)
    options: dict[str, Any] = Field(default_factory=dict)


class Correction(BaseModel):
    shot: int = Field(..., ge=0, description="index of the shot-log line to correct")
    patch: dict[str, Any] = Field(..., description="see tracker.corrections for the forms")
    note: str = Field("", max_length=2000)

    @field_validator("patch")
    @classmethod
    def _known(cls, v: dict[str, Any]) -> dict[str, Any]:
        from tracker.corrections import validate_patch
        from tracker.errors import InputError

        try:
            validate_patch(v)
        except InputError as e:
            raise ValueError(str(e)) from None
        return v


class ShotLine(BaseModel):
    """One shot-log line (SPEC 4b), for manual scoring from a phone or a referee's entry."""

    entry: dict[str, Any]

    @field_validator("entry")
    @classmethod
    def _valid(cls, v: dict[str, Any]) -> dict[str, Any]:
        from tracker.errors import InputError
        from tracker.shotlog import parse_entry

        try:
            parse_entry(v, 1)
        except InputError as e:
            raise ValueError(str(e).replace("shot log line 1: ", "")) from None
        return v


class ClickPoints(BaseModel):
    """Manual calibration: image pixel -> board mm pairs (4 or more)."""

    points: list[tuple[float, float, float, float]] = Field(..., min_length=4)
    south: Literal["top", "bottom", "left", "right"] | None = None


class Status(BaseModel):
    status: Literal["live", "reviewing", "done", "failed"]


class South(BaseModel):
    south: Literal["top", "bottom", "left", "right"]
