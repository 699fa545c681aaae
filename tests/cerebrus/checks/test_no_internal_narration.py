"""The no_internal_narration check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner, Span
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check


@pytest.mark.parametrize(
    ("draft", "language", "quoted"),
    [
        ("Sorry, our system had an error.", "en", ["our system"]),
        ("I can’t look up tour times right now.", "en", ["I can’t look up"]),
        ("The API is down, so I checked the DATABASE.", "en", ["API", "DATABASE"]),
        ("Lo siento, el sistema no responde.", "es", ["sistema"]),
        ("Hubo un código de error en la base de datos.", "es", ["código de error", "base de datos"]),
    ],
)
def test_fails_on_internal_vocabulary_with_exact_quotes(draft: str, language: str, quoted: list[str]) -> None:
    conversation = ConversationBuilder().inbound("Hi").reply(draft, language=language).build()
    result = run_check(conversation, "no_internal_narration")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.CLARA)
    assert quotes(result) == quoted


def test_span_offsets_point_into_the_original_accented_draft() -> None:
    draft = "Olá, ¡qué pena! Código de error 17."
    conversation = ConversationBuilder().inbound("Hola").reply(draft, language="es").build()
    result = run_check(conversation, "no_internal_narration")
    assert result.evidence[0].span == Span(start=16, end=31)
    assert draft[16:31] == "Código de error"


def test_fails_on_a_fragment_of_a_failed_tools_error() -> None:
    error = "upstream timeout after 30s calling service"
    steps = [claude(stop_reason="tool_use"), tool("get_tour_slots", status="error", error=error), claude("x")]
    draft = "Sorry! We hit an Upstream Timeout After 30s, please retry."
    conversation = ConversationBuilder().inbound("Tour?").reply(draft, steps=steps).build()
    result = run_check(conversation, "no_internal_narration")
    assert result.outcome is Outcome.FAIL
    (evidence,) = result.evidence
    assert evidence.quote == "Upstream Timeout After 30s"
    assert (evidence.tool_name, evidence.step_index) == ("get_tour_slots", 1)


def test_short_shared_fragments_do_not_count() -> None:
    steps = [claude(stop_reason="tool_use"), tool("t", status="error", error="please try"), claude("x")]
    conversation = ConversationBuilder().inbound("Hi").reply("Please try again later.", steps=steps).build()
    assert run_check(conversation, "no_internal_narration").outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        ("Our toolbox gym has free weights; the heating system works.", "en"),
        ("El sistemático horario.", "es"),
    ],
)
def test_whole_words_only(draft: str, language: str) -> None:
    conversation = ConversationBuilder().inbound("Hi").reply(draft, language=language).build()
    assert run_check(conversation, "no_internal_narration").outcome is Outcome.PASS


def test_rules_extend_the_lexicon() -> None:
    rules = Rules.model_validate({"lexicons": {"internal_narration": {"en": ["vector store"]}}})
    conversation = ConversationBuilder().inbound("Hi").reply("The Vector  Store says hi.").build()
    assert quotes(run_check(conversation, "no_internal_narration", rules)) == ["Vector  Store"]


def test_not_checked_on_an_empty_draft() -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("  ").build()
    result = run_check(conversation, "no_internal_narration")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.DATA_MISSING)
