"""The reply_language_matches check (docs/grading.md): tags first (primary subtag), else detection; unsure
detection is not_checked "language unclear", never a guess."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import quotes, run_check

SPANISH = "Hola, ¿cuándo vence el pago de la renta este mes? No encuentro la fecha."
ENGLISH = "Hi Lucía! Rent is due on the 1st of each month, and you can pay it in the resident portal."


def test_fails_from_language_fields() -> None:
    conversation = ConversationBuilder().inbound(SPANISH, language="es").reply(ENGLISH, language="en").build()
    result = run_check(conversation, "reply_language_matches")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.HOLD, Owner.CLARA)
    assert result.evidence[0].message_id == "m1"
    assert result.evidence[0].detail == "inbound in es (field)"
    assert {e.rule_entry for e in result.evidence} == {"language.differs"}
    assert quotes(result) == ["Hi Lucía! Rent is due on the 1st of each month, and you can pay it in the"]


def test_fails_from_detection_when_fields_are_absent() -> None:
    conversation = ConversationBuilder().inbound(SPANISH, language=None).reply(ENGLISH, language=None).build()
    result = run_check(conversation, "reply_language_matches")
    assert result.outcome is Outcome.FAIL
    assert [e.detail for e in result.evidence] == ["inbound in es (detected)", "reply in en (detected)"]


@pytest.mark.parametrize(
    ("inbound", "reply", "language"),
    [
        (SPANISH, "Hola Lucía, la renta vence el día 1.", "es"),
        ("When is rent due this month?", ENGLISH, "en"),
    ],
)
def test_passes_in_the_same_language(inbound: str, reply: str, language: str) -> None:
    conversation = ConversationBuilder().inbound(inbound, language=None).reply(reply, language=None).build()
    assert run_check(conversation, "reply_language_matches").outcome is Outcome.PASS


@pytest.mark.parametrize(("inbound", "reply"), [("es-MX", "es"), ("es", "es-US"), ("en-US", "en")])
def test_regional_subtags_compare_by_primary_language(inbound: str, reply: str) -> None:
    conversation = (
        ConversationBuilder().inbound("Hola", language=inbound).reply("Hola", language=reply).build()
    )
    assert run_check(conversation, "reply_language_matches").outcome is Outcome.PASS


# v2: "too short" and "mixed" are both "language unclear" (v1 reported too_short_to_tell).
@pytest.mark.parametrize(
    ("inbound", "reply"),
    [
        pytest.param("ok gracias", ENGLISH, id="short inbound"),
        pytest.param(SPANISH, "Sí, claro.", id="short draft"),
        pytest.param("Ok gracias, I'll try that mañana.", ENGLISH, id="mixed inbound"),
        pytest.param(SPANISH, "Perfecto, see you mañana then", id="mixed draft"),
    ],
)
def test_unsure_detection_is_language_unclear(inbound: str, reply: str) -> None:
    conversation = ConversationBuilder().inbound(inbound, language=None).reply(reply, language=None).build()
    result = run_check(conversation, "reply_language_matches")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.LANGUAGE_UNCLEAR)
    assert result.reason.title == "language unclear"


def test_the_confidence_threshold_comes_from_the_rules() -> None:
    mixed = "Ok gracias, I'll try that mañana."  # detected as Spanish, at about 0.74
    conversation = ConversationBuilder().inbound(mixed, language=None).reply(ENGLISH, language=None).build()
    rules = Rules.model_validate({"thresholds": {"language_confidence": 0.6}})
    result = run_check(conversation, "reply_language_matches", rules)
    assert result.outcome is Outcome.FAIL
    assert result.evidence[0].detail == "inbound in es (detected)"


@pytest.mark.parametrize(("inbound", "reply"), [("es-MX", "en"), ("en-US", "es-US"), ("es", "en-GB")])
def test_different_primary_subtags_fail(inbound: str, reply: str) -> None:
    conversation = ConversationBuilder().inbound("Hola", language=inbound).reply("Hi", language=reply).build()
    assert run_check(conversation, "reply_language_matches").outcome is Outcome.FAIL


def test_detection_is_restricted_to_the_configured_languages() -> None:
    french = "Bonjour, quand est-ce que le loyer doit être payé ce mois-ci ? Je ne trouve pas la date."
    rules = Rules.model_validate({"languages": ["en", "fr"]})
    conversation = ConversationBuilder().inbound(french, language=None).reply(ENGLISH, language=None).build()
    result = run_check(conversation, "reply_language_matches", rules)
    assert result.evidence[0].detail == "inbound in fr (detected)"


def test_not_checked_without_a_triggering_inbound() -> None:
    result = run_check(ConversationBuilder().reply(ENGLISH).build(), "reply_language_matches")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
