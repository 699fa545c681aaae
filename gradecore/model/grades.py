"""The shape of a grade: what Cerebrus returns and what the store and Slack surface read (docs/grading.md).

A grade is per-dimension results plus the headline level (the worst colouring level); never an
average, never a score.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from gradecore.model.vocabulary import DimensionResult, Layer, Level, NotCheckedWhy, Outcome, Owner, Reason


class Headline(BaseModel):
    """What a post leads with: the worst level and the reason of the dimension that set it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    level: Level
    reason: Reason
    check: str | None = None
    # The turn whose dimension set the headline; None when a conversation-scoped one did.
    turn_id: str | None = None

    @property
    def text(self) -> str:
        """`BLOCK · unbacked promise`; never a score."""
        return f"{self.level.value.upper()} · {self.reason.title}"


class OwnershipSplit(BaseModel):
    """Which layers failed for whom: Clara's prompt problems vs our context/tools/data problems."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    clara: tuple[Layer, ...] = ()
    ours: tuple[Layer, ...] = ()


class NotChecked(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    check: str
    why: NotCheckedWhy


class ScopeStatement(BaseModel):
    """What the grade looked at, and what it did not look at and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    checks_run: tuple[str, ...]
    not_checked: tuple[NotChecked, ...] = ()
    judge_lane: str = "off"

    @property
    def text(self) -> str:
        """`14 checks · not checked: tone, pacing — judge lane off`."""
        line = f"{len(self.checks_run)} checks"
        if self.not_checked:
            names = ", ".join(dict.fromkeys(item.check for item in self.not_checked))
            line += f" · not checked: {names}"
            if self.judge_lane == "off":
                line += " — judge lane off"
        return line


class JudgeUsage(BaseModel):
    """Tokens the judge lane spent on one item (and how often it failed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    cache_read_tokens: int = Field(default=0, ge=0)
    cost_usd: float = Field(default=0.0, ge=0, allow_inf_nan=False)
    calls: int = Field(default=0, ge=0)
    failures: int = Field(default=0, ge=0)


class TurnGrade(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn_id: str
    message_id: str
    number: int = Field(ge=1, description="1-based position among the conversation's turns")
    level: Level
    headline: Headline
    dimensions: tuple[DimensionResult, ...]
    judge_usage: JudgeUsage | None = None

    @property
    def flagged(self) -> bool:
        return self.level is not Level.PASS

    @property
    def failures(self) -> tuple[DimensionResult, ...]:
        return tuple(d for d in self.dimensions if d.outcome is Outcome.FAIL)


class ConversationGrade(BaseModel):
    """Everything Cerebrus concluded about one conversation under one rubric."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    conversation_id: str
    property_id: str
    rubric_version: str
    engine_version: str
    level: Level
    headline: Headline
    dimensions: tuple[DimensionResult, ...]
    turns: tuple[TurnGrade, ...]
    split: OwnershipSplit
    scope: ScopeStatement

    @property
    def flagged(self) -> bool:
        return self.level is not Level.PASS

    @property
    def flagged_turns(self) -> tuple[TurnGrade, ...]:
        return tuple(turn for turn in self.turns if turn.flagged)

    def all_dimensions(self) -> tuple[DimensionResult, ...]:
        return self.dimensions + tuple(d for turn in self.turns for d in turn.dimensions)

    def worst_owner(self) -> Owner | None:
        """The owner of the dimension that set the headline (§6: a 👍's error class)."""
        if self.level is Level.PASS or self.headline.check is None:
            return None
        if self.headline.turn_id is None:
            candidates = self.dimensions
        else:
            candidates = next((t.dimensions for t in self.turns if t.turn_id == self.headline.turn_id), ())
        return next((d.owner for d in candidates if d.check == self.headline.check), None)
