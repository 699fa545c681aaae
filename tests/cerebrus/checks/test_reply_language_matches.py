"""The reply_language_matches check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
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


def test_regional_subtags_compare_by_primary_language() -> None:
    conversation = (
        ConversationBuilder().inbound("Hola", language="es-MX").reply("Hola", language="es").build()
    )
    assert run_check(conversation, "reply_language_matches").outcome is Outcome.PASS


@pytest.mark.parametrize(("inbound", "reply"), [("ok gracias", ENGLISH), (SPANISH, "Sí, claro.")])
def test_too_short_to_tell_is_not_checked(inbound: str, reply: str) -> None:
    conversation = ConversationBuilder().inbound(inbound, language=None).reply(reply, language=None).build()
    result = run_check(conversation, "reply_language_matches")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.TOO_SHORT)


def test_detection_is_restricted_to_the_configured_languages() -> None:
    french = "Bonjour, quand est-ce que le loyer doit être payé ce mois-ci ? Je ne trouve pas la date."
    rules = Rules.model_validate({"languages": ["en", "fr"]})
    conversation = ConversationBuilder().inbound(french, language=None).reply(ENGLISH, language=None).build()
    result = run_check(conversation, "reply_language_matches", rules)
    assert result.evidence[0].detail == "inbound in fr (detected)"


def test_not_checked_without_a_triggering_inbound() -> None:
    result = run_check(ConversationBuilder().reply(ENGLISH).build(), "reply_language_matches")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
