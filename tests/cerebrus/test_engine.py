"""The engine: worst-level verdict, headline tie-break, split, scope, judged dimensions, purity."""

from __future__ import annotations

import pytest

from cerebrus import ENGINE_VERSION, JUDGED_DIMENSIONS, CheckRegistry, Rules, default_registry, grade
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
)
from tests.cerebrus.builders import ConversationBuilder, claude, tool


def _judged(check: str, score: int, draft: str) -> DimensionResult:
    return DimensionResult(
        check=check,
        layer=Layer.TONE if check == "tone" else Layer.PACING,
        owner=Owner.CLARA,
        kind=Kind.JUDGED,
        scope=Scope.TURN,
        outcome=Outcome.FAIL if score < 3 else Outcome.PASS,
        level=Level.PASS,
        reason=Reason(slug=f"{check}_{score}", sentence="Judged."),
        evidence=(Evidence(message_id="m2", quote=draft[:5], span=Span(start=0, end=5)),),
        score=score,
        colours_verdict=False,
    )


def test_a_staff_or_vendor_message_however_bad_is_never_graded() -> None:
    awful = "Our system API database error: buzz code 4821, rent $9,999, we'll text you access instructions."
    builder = ConversationBuilder(facts={"arrival_instructions": None}).participant("s1", "staff")
    builder.participant("v1", "vendor").inbound("Can I get in?")
    builder.outbound(awful, author="s1").outbound(awful, author="v1").wait(hours=1)
    conversation = builder.inbound("Thanks, got it.").reply("You're welcome, Morgan!").build()
    graded = grade(conversation)
    assert [t.message_id for t in graded.turns] == ["m5"]  # only Clara's message carries a turn
    assert all(d.outcome is not Outcome.FAIL for t in graded.turns for d in t.dimensions)
    assert graded.flagged_turns == ()


def test_verdict_is_the_worst_level_never_an_average() -> None:
    steps = [claude("x", input_tokens=70_000), tool("get_tour_slots", status="error", error="boom")]
    builder = (
        ConversationBuilder().inbound("Tour?").reply("Sure, see you.", intent="tour_request", steps=steps)
    )
    graded = grade(builder.build())
    levels = {d.check: d.level for d in graded.turns[0].failures}
    assert levels == {"token_budget": Level.REPAIR, "tools_succeeded": Level.HOLD}
    assert graded.level is graded.turns[0].level is Level.HOLD


def test_headline_tie_break_follows_the_stated_order() -> None:
    # Two HOLDs in one turn: tools (layer rank 3) beats output (reply language, rank 7).
    steps = [claude(stop_reason="tool_use"), tool("x", status="error", error="boom"), claude("Hi")]
    builder = ConversationBuilder().inbound("¿Dónde está la oficina?", language="es")
    builder.reply("The office is on the first floor.", steps=steps)
    graded = grade(builder.build())
    assert graded.headline.check == "tools_succeeded"
    assert graded.headline.turn_id == "t1"
    assert graded.worst_owner() is Owner.OURS
    # Add an unanswered question (conversation scope, also HOLD): conversation scope wins.
    graded = grade(builder.inbound("Hello? Is anyone there?").settled(hours=6).build())
    assert graded.headline.check == "followup_exists"
    assert graded.headline.turn_id is None
    assert graded.worst_owner() is Owner.CLARA


def test_headline_prefers_the_lower_turn_number() -> None:
    builder = ConversationBuilder().inbound("Rent?").reply("It is $2,000.").inbound("And parking?")
    graded = grade(builder.reply("Parking is $99.").build())
    assert [t.level for t in graded.turns] == [Level.REPAIR, Level.REPAIR]
    assert graded.headline.turn_id == "t1"
    assert graded.headline.text == "REPAIR · amount mismatch"


def test_scope_statement_names_what_ran_and_what_did_not() -> None:
    graded = grade(ConversationBuilder().inbound("Hi there").reply("Hello there, how can I help?").build())
    scope = graded.scope
    assert scope.judge_lane == "off"
    assert "no_internal_narration" in scope.checks_run
    not_checked = {item.check: item.why for item in scope.not_checked}
    assert not_checked["tone"] is not_checked["pacing"] is NotCheckedWhy.JUDGE_OFF
    assert not_checked["amounts_match_ledger"] is NotCheckedWhy.NOT_APPLICABLE
    assert set(scope.checks_run).isdisjoint(not_checked)
    assert set(scope.checks_run) | set(not_checked) == set(default_registry().ids) | set(JUDGED_DIMENSIONS)
    assert scope.text.startswith(f"{len(scope.checks_run)} checks · not checked: ")
    assert graded.engine_version == ENGINE_VERSION


def test_judge_off_adds_tone_and_pacing_as_not_checked() -> None:
    graded = grade(ConversationBuilder().inbound("Hi").reply("Hello").build())
    judged = [d for d in graded.turns[0].dimensions if d.kind is Kind.JUDGED]
    assert [(d.check, d.layer, d.owner, d.outcome, d.not_checked_why) for d in judged] == [
        ("tone", Layer.TONE, Owner.CLARA, Outcome.NOT_CHECKED, NotCheckedWhy.JUDGE_OFF),
        ("pacing", Layer.PACING, Owner.CLARA, Outcome.NOT_CHECKED, NotCheckedWhy.JUDGE_OFF),
    ]


@pytest.mark.parametrize(
    ("score", "level"), [(0, Level.BLOCK), (1, Level.HOLD), (2, Level.REPAIR), (3, Level.PASS)]
)
def test_judged_scores_colour_only_when_calibrated(score: int, level: Level) -> None:
    draft = "Hello there, Morgan."
    conversation = ConversationBuilder().inbound("Hi").reply(draft).build()
    judged = {"t1": [_judged("tone", score, draft)]}

    advisory = grade(conversation, judged=judged)
    tone = next(d for d in advisory.turns[0].dimensions if d.check == "tone")
    assert (tone.level, tone.colours_verdict) == (level, False)
    assert advisory.level is Level.PASS
    assert advisory.scope.judge_lane == "on"
    pacing = next(d for d in advisory.turns[0].dimensions if d.check == "pacing")
    assert pacing.not_checked_why is NotCheckedWhy.JUDGE_OFF  # the lane did not supply it

    calibrated = grade(conversation, rules=Rules(calibrated_judged=frozenset({"tone"})), judged=judged)
    assert calibrated.level is level
    if level is not Level.PASS:
        assert calibrated.headline.check == "tone"
        assert calibrated.split.clara == (Layer.TONE,)


def test_grading_is_pure_and_deterministic() -> None:
    conversation = (
        ConversationBuilder().inbound("¿Cuánto cuesta?", language=None).reply("It is $2,000.", language=None)
    )
    built = conversation.build()
    assert grade(built) == grade(built)
    assert grade(built, registry=default_registry()) == grade(built)


def test_an_empty_registry_still_grades() -> None:
    graded = grade(ConversationBuilder().inbound("Hi").reply("Hello").build(), registry=CheckRegistry())
    assert graded.level is Level.PASS
    assert graded.scope.checks_run == ()
