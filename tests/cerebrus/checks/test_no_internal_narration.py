"""The no_internal_narration check: machinery vocabulary and failure narration fail with the pattern
that fired; ordinary property talk (a thermostat's system, a dishwasher's error code) passes."""

from __future__ import annotations

from typing import Any

import pytest

from cerebrus import Rules
from gradecore.model.vocabulary import DimensionResult, Level, NotCheckedWhy, Outcome, Owner, Span
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check


def narration(
    draft: str, language: str | None = "en", steps: list[dict[str, Any]] | None = None
) -> DimensionResult:
    conversation = ConversationBuilder().inbound("Hi").reply(draft, language=language, steps=steps).build()
    return run_check(conversation, "no_internal_narration")


@pytest.mark.parametrize(
    ("draft", "language", "fired"),
    [
        ("Sorry, our system had an error.", "en", [("our system had an error", "narration.failure_en")]),
        ("Our system is down right now.", "en", [("Our system is down", "narration.failure_en")]),
        (
            "The app is currently experiencing an outage.",
            "en",
            [("The app is currently experiencing an outage", "narration.failure_en")],
        ),
        (
            "My tools aren't loading, the platform isn't working.",
            "en",
            [
                ("My tools", "machinery.my_tools"),
                # v3's failure words, read through the contraction ("aren't" is "are not"): a second hit.
                ("My tools aren't loading", "narration.new_failure_en"),
                ("the platform isn't working", "narration.failure_en"),
            ],
        ),
        ("I can’t look up tour times right now.", "en", [("I can’t look up", "narration.cant_retrieve_en")]),
        (
            "I'm unable to retrieve your ledger.",
            "en",
            [("I'm unable to retrieve", "narration.cant_retrieve_en")],
        ),
        ("We were unable to load it; the API is slow.", "en", [("the API", "machinery.the_api")]),
        (
            "Per my instructions, the DATABASE says no.",
            "en",
            [("my instructions", "machinery.my_instructions"), ("DATABASE", "machinery.database")],
        ),
        (
            "Nuestro sistema falló y no pude consultar su saldo.",
            "es",
            [
                ("Nuestro sistema falló", "narration.failure_es"),
                ("no pude consultar", "narration.cant_retrieve_es"),
            ],
        ),
        ("El sistema tiene un error.", "es", [("El sistema tiene un error", "narration.failure_es")]),
        (
            "Mi plataforma está temporalmente caído.",
            "es",
            [("Mi plataforma está temporalmente caído", "narration.failure_es")],
        ),
        (
            "No podemos cargar sus datos, hay un error interno.",
            "es",
            [
                ("No podemos cargar", "narration.cant_retrieve_es"),
                ("error interno", "machinery.error_interno"),
            ],
        ),
        # Machinery vocabulary is jargon, internal in every language.
        (
            "Revisé la base de datos y el system prompt.",
            "es",
            [("system prompt", "machinery.system_prompt"), ("base de datos", "machinery.base_de_datos")],
        ),
        (
            "The backend had a server error.",
            "es",
            [("backend", "machinery.backend"), ("server error", "machinery.server_error")],
        ),
    ],
)
def test_narration_fails_naming_the_pattern(draft: str, language: str, fired: list[tuple[str, str]]) -> None:
    result = narration(draft, language)
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.CLARA)
    assert sorted((e.quote, e.rule_entry) for e in result.evidence) == sorted(fired)


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        # The examples of issue 9 and the "not internal" list: all blocked by the v1 rules.
        ("Thanks for the prompt payment!", "en"),
        ("Please try resetting the system at the breaker, then wait 5 minutes.", "en"),
        ("Error code E24 on your dishwasher means the drain is blocked.", "en"),
        ("Bring your own tools if you want to hang shelves.", "en"),
        ("The tool library is down the hall.", "en"),
        ("We can't access your unit without your permission.", "en"),
        ("Reset the system and the thermostat should come back.", "en"),
        ("El sistema de calefacción del departamento 204 ya funciona.", "es"),
        ("Our toolbox gym has free weights; the heating system works.", "en"),
        ("The system is old but it has never failed us in 7 tokens time.", "en"),  # failure word too far
        ("The app lets you pay rent; sorry the elevator is down.", "en"),
        ("Un técnico revisará el sistema de agua caliente.", "es"),
        ("El sistemático horario.", "es"),
        ("Your secret santa gift is at the desk.", "en"),
    ],
)
def test_ordinary_property_talk_passes(draft: str, language: str) -> None:
    assert narration(draft, language).outcome is Outcome.PASS


def test_failure_narration_is_scoped_to_the_drafts_language() -> None:
    # An English failure pattern does not read a Spanish draft (and the reverse); machinery does.
    assert narration("El app is down, dijo el vecino.", "es").outcome is Outcome.PASS
    assert narration("Our el sistema falló mention.", "en").outcome is Outcome.PASS
    # Unknown language (no tag, too short to detect): every language's patterns apply.
    assert narration("Sistema falló", None).outcome is Outcome.PASS  # no determiner
    assert narration("El sistema falló.", None).outcome is Outcome.FAIL


def test_span_offsets_point_into_the_original_accented_draft() -> None:
    draft = "Olá, ¡qué pena! La base de datos 17."
    result = narration(draft, "es")
    assert result.evidence[0].span == Span(start=19, end=32)
    assert draft[19:32] == "base de datos"


def _failed_call(error: str, *, result: object = None, prompt: str | None = None) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = [claude(stop_reason="tool_use")]
    if result is not None:
        steps.append(tool("get_vendor", result=result))
    steps.append(tool("get_tour_slots", status="error", error=error))
    steps.append(claude("x") if prompt is None else claude("x", system_prompt=prompt))
    return steps


def test_fails_on_a_fragment_of_a_failed_tools_error() -> None:
    steps = _failed_call("upstream timeout after 30s calling service")
    result = narration("Sorry! We hit an Upstream Timeout After 30s, please retry.", steps=steps)
    assert result.outcome is Outcome.FAIL
    (evidence,) = result.evidence
    assert evidence.quote == "Upstream Timeout After 30s"
    assert (evidence.tool_name, evidence.step_index, evidence.rule_entry) == (
        "get_tour_slots",
        1,
        "narration.error_fragment",
    )


@pytest.mark.parametrize(
    ("error", "draft"),
    [
        ("please try", "Please try again later."),  # under 12 characters
        ("reference_number_1234567", "Your reference_number_1234567 is noted."),  # one word only
    ],
)
def test_short_or_single_word_fragments_do_not_count(error: str, draft: str) -> None:
    assert narration(draft, steps=_failed_call(error)).outcome is Outcome.PASS


def test_an_error_fragment_also_in_a_successful_result_or_the_prompt_does_not_count() -> None:
    error = "Desert Flow Plumbing has no slot before Friday"
    draft = "Desert Flow Plumbing is our plumber for your building."
    from_result = _failed_call(error, result={"vendor": "Desert Flow Plumbing"})
    from_prompt = _failed_call(error, prompt="Preferred plumber: Desert Flow Plumbing.")
    assert narration(draft, steps=from_result).outcome is Outcome.PASS
    assert narration(draft, steps=from_prompt).outcome is Outcome.PASS
    assert narration(draft, steps=_failed_call(error)).outcome is Outcome.FAIL


def test_rules_add_a_narration_pattern_and_disable_one() -> None:
    rules = Rules.model_validate(
        {
            "narration": [
                *[p.model_dump() for p in Rules().narration if p.id != "machinery.database"],
                {"id": "machinery.vector_store", "pattern": "vector store"},
            ]
        }
    )
    result = narration("The Vector  Store and the database say hi.", "en")
    assert [e.rule_entry for e in result.evidence] == ["machinery.database"]
    conversation = (
        ConversationBuilder().inbound("Hi").reply("The Vector  Store and the database say hi.").build()
    )
    changed = run_check(conversation, "no_internal_narration", rules)
    assert quotes(changed) == ["Vector  Store"]
    assert changed.evidence[0].rule_entry == "machinery.vector_store"


def test_not_checked_on_an_empty_draft() -> None:
    result = narration("  ")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.DATA_MISSING)
