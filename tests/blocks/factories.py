"""Hand-built grades for the Block Kit builder tests.

The builders only read a ConversationGrade, so the tests build grades directly rather than depend on the
grading engine: each factory computes the verdict, headline, split and scope the way the engine's
contract defines them (worst colouring level, never an average).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from gradecore.model.contract import Conversation, parse_conversation, validate_conversation
from gradecore.model.grades import (
    ConversationGrade,
    Headline,
    NotChecked,
    OwnershipSplit,
    ScopeStatement,
    TurnGrade,
)
from gradecore.model.vocabulary import (
    DimensionResult,
    Evidence,
    Kind,
    Layer,
    Level,
    NotCheckedWhy,
    Outcome,
    Owner,
    Reason,
    Scope,
    Span,
    default_owner,
    worst,
)

DEMO_DATA = Path(__file__).resolve().parents[2] / "smith" / "demo_data"
PASSING_REASON = Reason(slug="all_clear", sentence="Nothing to report.")


def demo_conversation(name: str) -> Conversation:
    return parse_conversation((DEMO_DATA / f"{name}.json").read_bytes())


def dim(
    check: str,
    layer: Layer,
    *,
    level: Level = Level.HOLD,
    outcome: Outcome = Outcome.FAIL,
    slug: str | None = None,
    sentence: str = "Something here needs a look.",
    evidence: Sequence[Evidence] = (),
    scope: Scope = Scope.TURN,
    kind: Kind = Kind.DETERMINISTIC,
    owner: Owner | None = None,
    score: int | None = None,
    colours: bool = True,
    why: NotCheckedWhy = NotCheckedWhy.JUDGE_OFF,
) -> DimensionResult:
    passing = outcome is not Outcome.FAIL
    return DimensionResult(
        check=check,
        layer=layer,
        owner=owner or default_owner(layer),
        kind=kind,
        scope=scope,
        outcome=outcome,
        level=Level.PASS if passing else level,
        reason=Reason(slug=slug or check, sentence=sentence) if not passing else PASSING_REASON,
        evidence=tuple(evidence),
        not_checked_why=why if outcome is Outcome.NOT_CHECKED else None,
        score=score,
        colours_verdict=colours,
    )


def passing(check: str, layer: Layer) -> DimensionResult:
    return dim(check, layer, outcome=Outcome.PASS)


def judge_off(layer: Layer) -> DimensionResult:
    return dim(layer.value, layer, outcome=Outcome.NOT_CHECKED, kind=Kind.JUDGED, colours=False)


def headline_of(dimensions: Sequence[DimensionResult]) -> Headline:
    failing = sorted((d for d in dimensions if d.failed and d.colours_verdict), key=lambda d: -d.level.rank)
    if not failing:
        return Headline(level=Level.PASS, reason=PASSING_REASON)
    return Headline(level=failing[0].level, reason=failing[0].reason, check=failing[0].check)


def turn_grade(
    turn_id: str, message_id: str, number: int, dimensions: Sequence[DimensionResult]
) -> TurnGrade:
    dims = tuple(dimensions)
    return TurnGrade(
        turn_id=turn_id,
        message_id=message_id,
        number=number,
        level=worst(d.colouring_level for d in dims),
        headline=headline_of(dims),
        dimensions=dims,
    )


def conversation_grade(
    conversation: Conversation,
    dimensions: Sequence[DimensionResult] = (),
    turns: Sequence[TurnGrade] = (),
) -> ConversationGrade:
    dims = tuple(dimensions)
    every = dims + tuple(d for t in turns for d in t.dimensions)
    failing = [d for d in every if d.failed and d.colours_verdict]
    return ConversationGrade(
        conversation_id=conversation.conversation_id,
        property_id=conversation.property.id,
        rubric_version="rubric-test",
        engine_version="engine-test",
        level=worst(d.colouring_level for d in every),
        headline=headline_of(every),
        dimensions=dims,
        turns=tuple(turns),
        split=OwnershipSplit(
            clara=tuple(dict.fromkeys(d.layer for d in failing if d.owner is Owner.CLARA)),
            ours=tuple(dict.fromkeys(d.layer for d in failing if d.owner is Owner.OURS)),
        ),
        scope=ScopeStatement(
            checks_run=tuple(dict.fromkeys(d.check for d in every if d.outcome is not Outcome.NOT_CHECKED)),
            not_checked=tuple(
                NotChecked(check=d.check, why=d.not_checked_why or NotCheckedWhy.NOT_APPLICABLE)
                for d in every
                if d.outcome is Outcome.NOT_CHECKED
            ),
        ),
    )


def routine_passes() -> list[DimensionResult]:
    """What a clean turn also carries: passing context, loop and shape checks, judge lane off."""
    return [
        passing("required_facts_in_context", Layer.CONTEXT),
        passing("mandated_tools_called", Layer.LOOP),
        passing("not_truncated", Layer.SHAPE),
        judge_off(Layer.TONE),
        judge_off(Layer.PACING),
    ]


# --- the bundled examples (smith/demo_data), with the grades their labels give --------------------


def lampliter() -> tuple[ConversationGrade, Conversation]:
    conversation = demo_conversation("lampliter-unbacked-promise")
    promise = "We'll text you access instructions"
    draft = conversation.message("m2").text
    start = draft.index(promise)
    failure = dim(
        "no_ungrounded_policy_claim",
        Layer.OUTPUT,
        level=Level.BLOCK,
        slug="unbacked_promise",
        sentence="Clara promised to send arrival instructions, but none are on file.",
        evidence=(
            Evidence(message_id="m2", quote=promise, span=Span(start=start, end=start + len(promise))),
            Evidence(fact_key="arrival_instructions", detail="empty"),
        ),
    )
    turn = turn_grade("t1", "m2", 1, [failure, passing("tools_succeeded", Layer.TOOLS), *routine_passes()])
    return conversation_grade(conversation, [], [turn]), conversation


def camellia_double_send() -> tuple[ConversationGrade, Conversation]:
    conversation = demo_conversation("camellia-double-send")
    double = dim(
        "one_message_per_trigger",
        Layer.OUTPUT,
        owner=Owner.OURS,
        scope=Scope.CONVERSATION,
        slug="double_reply",
        sentence="The booking template and Clara both answered the same message.",
        evidence=(Evidence(message_id="m2", quote="Tour Confirmed - Monday, July 20 at 1:00 PM"),),
    )
    tool = dim(
        "tools_succeeded",
        Layer.TOOLS,
        slug="tool_failed",
        sentence="The tour-slot lookup failed, so Clara had no times to offer.",
        evidence=(
            Evidence(
                step_index=1,
                tool_name="get_tour_slots",
                detail="Missing secret TOUR_SLOTS_API_KEY in serving runtime",
            ),
        ),
    )
    narration = dim(
        "no_internal_narration",
        Layer.OUTPUT,
        level=Level.BLOCK,
        slug="internal_narration",
        sentence="Clara told the prospect about an internal system error.",
        evidence=(Evidence(message_id="m3", quote="Our system had an error"),),
    )
    code = dim(
        "no_access_code_to_prospect",
        Layer.OUTPUT,
        level=Level.BLOCK,
        slug="access_code_to_prospect",
        sentence="Clara gave a door code to a prospect.",
        evidence=(Evidence(message_id="m3", quote="buzz code ••21"),),
    )
    turn = turn_grade("t1", "m3", 1, [tool, narration, code, *routine_passes()])
    return conversation_grade(conversation, [double], [turn]), conversation


def birchwood_rent() -> tuple[ConversationGrade, Conversation]:
    conversation = demo_conversation("birchwood-rent-mismatch")
    draft = conversation.message("m2").text
    start = draft.index("$1,950")
    amount = dim(
        "amounts_match_ledger",
        Layer.OUTPUT,
        level=Level.REPAIR,
        slug="amount_not_on_ledger",
        sentence="$1,950 is not an amount on the property's ledger.",
        evidence=(Evidence(message_id="m2", quote="$1,950", span=Span(start=start, end=start + 6)),),
    )
    turn = turn_grade("t1", "m2", 1, [amount, passing("tools_succeeded", Layer.TOOLS), *routine_passes()])
    return conversation_grade(conversation, [], [turn]), conversation


def birchwood_dead_thread() -> tuple[ConversationGrade, Conversation]:
    conversation = demo_conversation("birchwood-dead-thread")
    followup = dim(
        "followup_exists",
        Layer.PACING,
        scope=Scope.CONVERSATION,
        slug="unanswered_question",
        sentence="The resident's last question has had no answer for 2 days.",
        evidence=(Evidence(message_id="m3", quote="Is the pool open this weekend too?"),),
    )
    turn = turn_grade("t1", "m2", 1, [passing("tools_succeeded", Layer.TOOLS), *routine_passes()])
    return conversation_grade(conversation, [followup], [turn]), conversation


# --- synthetic conversations for the limit tests ---------------------------------------------------


def synthetic_conversation(
    drafts: Sequence[str],
    *,
    property_name: str = "Camellia",
    access_codes: Sequence[str] = ("4821",),
    role: str = "prospect",
    channel: str = "sms",
) -> Conversation:
    """A valid conversation with one inbound question and one Clara turn per draft."""
    start = datetime(2026, 7, 17, 17, 0, tzinfo=UTC)
    messages: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for index, draft in enumerate(drafts):
        at = start + timedelta(minutes=2 * index)
        messages.append(
            {"id": f"in{index}", "at": at.isoformat(), "author": "p1", "direction": "inbound", "text": "Hi?"}
        )
        messages.append(
            {
                "id": f"out{index}",
                "at": (at + timedelta(minutes=1)).isoformat(),
                "author": "clara",
                "direction": "outbound",
                "text": draft,
            }
        )
        turns.append({"id": f"turn-{index}", "message_id": f"out{index}", "trace": {"steps": []}})
    return validate_conversation(
        {
            "schema": "smith.conversation/v1",
            "conversation_id": "conv-9f2c1d",
            "channel": channel,
            "property": {
                "id": "camellia",
                "name": property_name,
                "timezone": "America/Los_Angeles",
                "locale": "en",
                "facts": {"access_codes": list(access_codes)},
            },
            "participants": [{"id": "p1", "role": role}, {"id": "clara", "role": "clara"}],
            "messages": messages,
            "turns": turns,
            "settled_at": (start + timedelta(days=1)).isoformat(),
        }
    )
