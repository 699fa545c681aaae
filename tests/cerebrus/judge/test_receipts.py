"""Scores become DimensionResults only with a receipt: a quote found verbatim in the draft."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cerebrus.judge import JudgeLane
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Kind, Layer, Level, NotCheckedWhy, Outcome, Owner, Scope
from tests.fakes.anthropic_api import Body, FakeAnthropicAPI, Reply, tool_answer

DRAFT_SPAN = "a technician will be there tomorrow"


async def test_a_valid_score_carries_its_quote_span_and_level(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    conversation = demo("oakridge-clean-maintenance")
    draft = conversation.message("m2").text
    api.responder = lambda body: tool_answer(
        tone=(2, DRAFT_SPAN, "Clear, though a little abrupt at the end."),
        pacing=(3, "Thanks for letting us know", "Answers and gives a time."),
    )

    result = await make_lane().judge_conversation(conversation)

    tone, pacing = result.judged["t1"]
    assert (tone.check, pacing.check) == ("tone", "pacing")
    assert tone.outcome is Outcome.FAIL
    assert tone.level is Level.REPAIR
    assert tone.score == 2
    assert (tone.kind, tone.scope, tone.owner, tone.layer) == (
        Kind.JUDGED,
        Scope.TURN,
        Owner.CLARA,
        Layer.TONE,
    )
    assert tone.reason.sentence == "Clear, though a little abrupt at the end."
    [receipt] = tone.evidence
    assert receipt.message_id == "m2" and receipt.turn_id == "t1"
    assert receipt.quote == DRAFT_SPAN
    assert receipt.span is not None
    assert draft[receipt.span.start : receipt.span.end] == DRAFT_SPAN
    assert pacing.outcome is Outcome.PASS
    assert pacing.level is Level.PASS
    assert pacing.layer is Layer.PACING
    assert not tone.colours_verdict and not pacing.colours_verdict, "advisory until calibrated"
    assert result.voided == 0


@pytest.mark.parametrize(
    ("score", "level"), [(0, Level.BLOCK), (1, Level.HOLD), (2, Level.REPAIR), (3, Level.PASS)]
)
async def test_score_maps_to_level(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    score: int,
    level: Level,
) -> None:
    api.responder = lambda body: tool_answer(tone=(score, DRAFT_SPAN, "r"), pacing=(score, DRAFT_SPAN, "r"))

    result = await make_lane().judge_conversation(demo("oakridge-clean-maintenance"))

    assert [r.level for r in result.judged["t1"]] == [level, level]
    assert [r.score for r in result.judged["t1"]] == [score, score]


@pytest.mark.parametrize(
    "quote",
    [
        "a technician will be there today",  # paraphrase: not in the draft
        "Thanks for letting us know, PRIYA",  # case changed
        "",  # empty quotes prove nothing
        "a",  # one character is in almost any draft
        "Thanks",  # a whole word, but under the minimum length
        "echnician wi",  # long enough, but cut from inside words: covers no whole word
    ],
)
async def test_a_fabricated_quote_voids_the_score(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    quote: str,
) -> None:
    api.responder = lambda body: tool_answer(tone=(0, quote, "Rude."), pacing=(3, DRAFT_SPAN, "Fine."))

    result = await make_lane(calibrated=frozenset({"tone"})).judge_conversation(
        demo("oakridge-clean-maintenance")
    )

    tone, pacing = result.judged["t1"]
    assert tone.outcome is Outcome.NOT_CHECKED
    assert tone.not_checked_why is NotCheckedWhy.NO_RECEIPT
    assert tone.level is Level.PASS, "a voided score must not colour anything, even when calibrated"
    assert tone.score is None
    assert pacing.outcome is Outcome.PASS
    assert result.voided == 1
    assert result.failures == {}, "a missing receipt is not an API failure"


async def test_calibrated_dimensions_colour_and_others_stay_advisory(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    api.responder = lambda body: tool_answer(
        tone=(0, DRAFT_SPAN, "Harsh."), pacing=(0, DRAFT_SPAN, "Rushed.")
    )
    lane = make_lane(calibrated=frozenset({"pacing"}))

    default = await lane.judge_conversation(demo("oakridge-clean-maintenance"))
    overridden = await lane.judge_conversation(demo("oakridge-clean-maintenance"), calibrated={"tone"})

    assert [r.colours_verdict for r in default.judged["t1"]] == [False, True]
    assert [r.colouring_level for r in default.judged["t1"]] == [Level.PASS, Level.BLOCK]
    assert [r.colours_verdict for r in overridden.judged["t1"]] == [True, False]


async def test_usage_and_cost_are_recorded_per_turn(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    usage: Body = {
        "input_tokens": 1_000_000,
        "output_tokens": 100_000,
        "cache_read_input_tokens": 2_000_000,
        "cache_creation_input_tokens": 0,
    }

    def answer(body: Body) -> Reply:
        return tool_answer(tone=(3, DRAFT_SPAN, "ok"), pacing=(3, DRAFT_SPAN, "ok"), usage=usage)

    api.responder = answer
    lane = make_lane(price_input_per_mtok=3.0, price_output_per_mtok=15.0)

    result = await lane.judge_conversation(demo("oakridge-clean-maintenance"))

    turn_usage = result.usage["t1"]
    assert turn_usage.input_tokens == 1_000_000
    assert turn_usage.output_tokens == 100_000
    assert turn_usage.cache_read_tokens == 2_000_000
    # 1M input at $3 + 2M cache reads at a tenth of that + 0.1M output at $15.
    assert turn_usage.cost_usd == pytest.approx(3.0 + 0.6 + 1.5)
    assert (turn_usage.calls, turn_usage.failures) == (1, 0)
    assert result.calls == 1


async def test_access_codes_never_leave_in_a_judged_receipt(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    conversation = demo("camellia-double-send")
    api.responder = lambda body: tool_answer(
        tone=(1, "just use the buzz code 4821", "It hands the code 4821 to a prospect."),
        pacing=(2, "If you come by at 1 pm today", "Pushes a visit."),
    )

    result = await make_lane().judge_conversation(conversation)

    tone, pacing = result.judged["t1"]
    assert tone.score == 1, "the receipt was verified before the quote was redacted"
    assert tone.evidence[0].span is not None
    assert "4821" not in tone.model_dump_json()
    assert "••21" in tone.reason.sentence
    assert pacing.evidence[0].quote == "If you come by at 1 pm today"


@pytest.mark.parametrize("quote", ["a technician", "technician will be"])
async def test_a_quote_of_minimum_length_covering_a_whole_word_is_a_receipt(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    quote: str,
) -> None:
    api.responder = lambda body: tool_answer(tone=(1, quote, "Curt."), pacing=(3, DRAFT_SPAN, "Fine."))

    result = await make_lane().judge_conversation(demo("oakridge-clean-maintenance"))

    tone, _ = result.judged["t1"]
    assert tone.score == 1 and tone.evidence[0].quote == quote
    assert result.voided == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"input_tokens": -5},
        {"output_tokens": 10**15},
        {"cache_read_input_tokens": -1},
        {"cache_creation_input_tokens": 10**12},
        {"input_tokens": "many"},
    ],
    ids=["negative-input", "absurd-output", "negative-cache-read", "absurd-cache-write", "not-a-number"],
)
async def test_implausible_token_counts_are_not_recorded(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    bad: Body,
) -> None:
    usage: Body = {
        "input_tokens": 1200,
        "output_tokens": 80,
        "cache_read_input_tokens": 900,
        "cache_creation_input_tokens": 0,
        **bad,
    }
    api.responder = lambda body: tool_answer(
        tone=(3, DRAFT_SPAN, "ok"), pacing=(3, DRAFT_SPAN, "ok"), usage=usage
    )

    result = await make_lane().judge_conversation(demo("oakridge-clean-maintenance"))

    turn_usage = result.usage["t1"]
    assert (turn_usage.input_tokens, turn_usage.output_tokens, turn_usage.cache_read_tokens) == (0, 0, 0)
    assert turn_usage.cost_usd == 0 and turn_usage.calls == 1
    assert [r.score for r in result.judged["t1"]] == [3, 3], "the scores themselves still stand"
