"""The level vocabulary shared by the grader, the store and the Slack surface (docs/grading.md).

Pure types, no I/O. A level is never averaged: the level of anything is the worst level among its
colouring dimensions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

# The stored sentence's column width. A sentence quotes what it found (every unbacked amount, a
# judge's own words), so its length follows the document; it is cut here, where it is built.
MAX_REASON_CHARS = 1024
_CUT_MARK = "…"


class Level(StrEnum):
    """How bad a finding is, in increasing order of severity."""

    PASS = "pass"
    REPAIR = "repair"
    HOLD = "hold"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        return _LEVEL_RANK[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return self.rank >= other.rank


_LEVEL_RANK = {Level.PASS: 0, Level.REPAIR: 1, Level.HOLD: 2, Level.BLOCK: 3}


def worst(levels: Iterable[Level]) -> Level:
    """The most severe level; `pass` for nothing at all (nothing coloured it)."""
    return max(levels, key=lambda level: level.rank, default=Level.PASS)


class Kind(StrEnum):
    DETERMINISTIC = "deterministic"
    JUDGED = "judged"


class Outcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_CHECKED = "not_checked"


class Scope(StrEnum):
    CONVERSATION = "conversation"
    TURN = "turn"


class Owner(StrEnum):
    CLARA = "clara"
    OURS = "ours"


class Layer(StrEnum):
    CONTEXT = "context"
    TOOLS = "tools"
    TRUTH = "truth"
    SHAPE = "shape"
    HANDOFF = "handoff"
    LOOP = "loop"
    OUTPUT = "output"
    PACING = "pacing"
    TONE = "tone"


_OURS_LAYERS = frozenset({Layer.CONTEXT, Layer.TOOLS, Layer.TRUTH, Layer.SHAPE, Layer.HANDOFF})


def default_owner(layer: Layer) -> Owner:
    """Context, tools, truth, shape and handoff are ours to fix; loop, output, pacing, tone are Clara's."""
    return Owner.OURS if layer in _OURS_LAYERS else Owner.CLARA


class NotCheckedWhy(StrEnum):
    """Why a dimension was not checked; "could not grade" is data, never a failure."""

    NOT_APPLICABLE = "not_applicable"
    DATA_MISSING = "data_missing"
    JUDGE_OFF = "judge_lane_off"
    JUDGE_PENDING = "judge_pending"  # the judge lane is on; its scores arrive after ingest
    JUDGE_ERROR = "judge_error"
    NO_RECEIPT = "no_receipt"
    TOO_SHORT = "too_short_to_tell"
    LANGUAGE_UNCLEAR = "language_unclear"


class Span(BaseModel):
    """A half-open character range [start, end) in a draft."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start: int = Field(ge=0)
    end: int = Field(ge=0)


class Evidence(BaseModel):
    """The receipt: what in the document proved the outcome."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message_id: str | None = None
    turn_id: str | None = None
    step_index: int | None = None
    fact_key: str | None = None
    tool_name: str | None = None
    quote: str | None = None
    span: Span | None = None
    detail: str | None = None
    # The rule entry that fired (a phrase pattern's or lexicon term's stable id), so a human's 👎 can
    # be traced to the exact entry and the calibration loop can propose changing it.
    rule_entry: str | None = None


class Reason(BaseModel):
    """A slug for machines and one plain sentence for people."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    sentence: str

    @field_validator("sentence")
    @classmethod
    def _fits_its_column(cls, sentence: str) -> str:
        return shorten(sentence, MAX_REASON_CHARS)

    @property
    def title(self) -> str:
        return self.slug.replace("_", " ")


class DimensionResult(BaseModel):
    """One check's result on one item."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: str
    layer: Layer
    owner: Owner
    kind: Kind
    scope: Scope
    outcome: Outcome
    level: Level
    reason: Reason
    evidence: tuple[Evidence, ...] = ()
    not_checked_why: NotCheckedWhy | None = None
    score: int | None = Field(default=None, ge=0, le=3)
    colours_verdict: bool = True

    @property
    def colouring_level(self) -> Level:
        """The level this dimension contributes to its grade's level (pass when it is advisory)."""
        return self.level if self.colours_verdict else Level.PASS

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAIL


def failed_and_coloured(dimension: Mapping[str, Any]) -> bool:
    """Whether a stored dimension (an item of a MachineGrade's `dimensions`) failed and coloured its
    grade's level: `DimensionResult.failed and colours_verdict`, read from the stored form. A row written
    before advisory dimensions existed has no `colours_verdict`: it coloured."""
    return dimension.get("outcome") == Outcome.FAIL and dimension.get("colours_verdict") is not False


ItemType = Literal["conversation", "turn"]


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, at a word boundary when one is near, marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(_CUT_MARK)]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip() + _CUT_MARK
