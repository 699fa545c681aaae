"""The no_ungrounded_policy_claim check: promise grammars (active, passive, trade subjects with
modifiers, intent-gated generic subjects, Spanish) and their preconditions."""

from __future__ import annotations

from typing import Any

import pytest

from gradecore.model.vocabulary import DimensionResult, Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check

ARRIVAL = [
    (
        "We'll text you access instructions about an hour before.",
        "en",
        "We'll text you access instructions",
        "arrival.active_en",
    ),
    (
        "I will email you the arrival details tomorrow.",
        "en",
        "I will email you the arrival details",
        "arrival.active_en",
    ),
    (
        "We’ll send your entry information soon.",
        "en",
        "We’ll send your entry information",
        "arrival.active_en",
    ),
    (
        "The office is going to text you the gate code.",
        "en",
        "The office is going to text you the gate code",
        "arrival.active_en",
    ),
    (
        "Access instructions will be texted to you.",
        "en",
        "Access instructions will be texted",
        "arrival.passive_en",
    ),
    ("Your lockbox code will be sent tonight.", "en", "lockbox code will be sent", "arrival.passive_en"),
    (
        "Te enviaremos las instrucciones de acceso mañana.",
        "es",
        "Te enviaremos las instrucciones de acceso",
        "arrival.active_es",
    ),
    (
        "Le mandaremos instrucciones de llegada.",
        "es",
        "Le mandaremos instrucciones de llegada",
        "arrival.active_es",
    ),
    ("Le mandaré el código de entrada.", "es", "Le mandaré el código de entrada", "arrival.active_es"),
    (
        "Las instrucciones de acceso se enviarán por SMS.",
        "es",
        "Las instrucciones de acceso se enviarán",
        "arrival.passive_es",
    ),
]
VENDOR = [
    (
        "A technician will be there tomorrow between 9 and 11.",
        "en",
        "technician will be there",
        "visit.trade_en",
    ),
    (
        "A plumber from Desert Flow Plumbing will come by at 10.",
        "en",
        "plumber from Desert Flow Plumbing will come by",
        "visit.trade_en",
    ),
    ("We'll send a technician out this afternoon.", "en", "We'll send a technician", "visit.send_en"),
    ("A maintenance tech will be there by 3 PM.", "en", "maintenance tech will be there", "visit.trade_en"),
    ("The HVAC tech is going to swing by.", "en", "HVAC tech is going to swing by", "visit.trade_en"),
    ("I'll have a locksmith come by.", "en", "I'll have a locksmith come by", "visit.have_en"),
    ("El técnico va a pasar mañana.", "es", "El técnico va a pasar", "visit.trade_es"),
    (
        "Un técnico de Calor Pro HVAC pasará hoy.",
        "es",
        "Un técnico de Calor Pro HVAC pasará",
        "visit.trade_es",
    ),
    ("Vamos a enviar a un plomero en la tarde.", "es", "Vamos a enviar a un plomero", "visit.send_es"),
]
# Only in a maintenance intent: a generic subject is a visit promise there, not on a tour.
GENERIC = [
    ("Someone will be there to look at the leak.", "en", "Someone will be there", "visit.generic_en"),
    ("Someone'll stop by this afternoon.", "en", "Someone'll stop by", "visit.generic_en"),
    ("Alguien irá a revisar la fuga.", "es", "Alguien irá", "visit.generic_es"),
]


def promise(
    draft: str,
    language: str = "en",
    *,
    facts: dict[str, Any] | None = None,
    steps: list[dict[str, Any]] | None = None,
    intent: str = "general",
) -> DimensionResult:
    builder = ConversationBuilder(facts=facts).inbound("Hi")
    return run_check(
        builder.reply(draft, language=language, steps=steps, intent=intent).build(),
        "no_ungrounded_policy_claim",
    )


def dispatch(status: str) -> list[dict[str, Any]]:
    call = tool("dispatch_vendor", status=status, error="no vendor", result={"window": "9-11"})
    return [claude(stop_reason="tool_use"), call, claude("x")]


@pytest.mark.parametrize(("draft", "language", "quote", "entry"), ARRIVAL)
def test_arrival_promise_without_instructions_on_file_fails(
    draft: str, language: str, quote: str, entry: str
) -> None:
    result = promise(draft, language, facts={"arrival_instructions": None})
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.BLOCK, Owner.CLARA)
    assert result.reason.slug == "unbacked_promise"
    assert quotes(result) == [quote]
    assert (result.evidence[0].fact_key, result.evidence[0].rule_entry) == ("arrival_instructions", entry)


@pytest.mark.parametrize(("draft", "language", "quote", "entry"), ARRIVAL)
def test_arrival_promise_with_instructions_on_file_passes(
    draft: str, language: str, quote: str, entry: str
) -> None:
    result = promise(draft, language)
    assert result.outcome is Outcome.PASS
    assert quotes(result) == [quote]


@pytest.mark.parametrize(("draft", "language", "quote", "entry"), VENDOR)
def test_vendor_visit_without_a_successful_dispatch_fails(
    draft: str, language: str, quote: str, entry: str
) -> None:
    result = promise(draft, language, steps=dispatch("error"))
    assert result.outcome is Outcome.FAIL
    assert quotes(result) == [quote]
    assert (result.evidence[0].tool_name, result.evidence[0].rule_entry) == ("dispatch_vendor", entry)


@pytest.mark.parametrize(("draft", "language", "quote", "entry"), VENDOR)
def test_vendor_visit_with_a_successful_dispatch_passes(
    draft: str, language: str, quote: str, entry: str
) -> None:
    assert promise(draft, language, steps=dispatch("success")).outcome is Outcome.PASS


@pytest.mark.parametrize(("draft", "language", "quote", "entry"), GENERIC)
def test_a_generic_subject_promises_a_visit_only_in_a_maintenance_intent(
    draft: str, language: str, quote: str, entry: str
) -> None:
    result = promise(draft, language, intent="maintenance_request")
    assert result.outcome is Outcome.FAIL
    assert (quotes(result), result.evidence[0].rule_entry) == ([quote], entry)
    assert promise(draft, language, intent="tour_request").outcome is Outcome.NOT_CHECKED


def test_a_dispatch_in_an_earlier_turn_backs_a_later_promise() -> None:
    conversation = (
        ConversationBuilder()
        .inbound("My sink leaks")
        .reply("I've booked a plumber.", intent="maintenance_request", steps=dispatch("success"))
        .inbound("When?")
        .reply("The plumber will come by at 9 as planned.", intent="maintenance_request")
        .build()
    )
    assert run_check(conversation, "no_ungrounded_policy_claim", turn=1).outcome is Outcome.PASS
    later_only = (
        ConversationBuilder()
        .inbound("My sink leaks")
        .reply("The plumber will come by at 9.", intent="maintenance_request")
        .inbound("Ok")
        .reply("Booked.", intent="maintenance_request", steps=dispatch("success"))
        .build()
    )
    assert run_check(later_only, "no_ungrounded_policy_claim", turn=0).outcome is Outcome.FAIL


@pytest.mark.parametrize(
    ("draft", "intent"),
    [
        # Issue 9: blocked by the v1 rules, no visit promised.
        ("I'll have someone look into the late fee.", "maintenance_request"),
        ("Someone will be there to meet you at the leasing office.", "tour_request"),
        ("Maintenance will review it in the morning.", "maintenance_request"),
        ("The courtesy officer on duty will check on it.", "noise_complaint"),
        ("Our maintenance supervisor will call you.", "maintenance_request"),
        ("Did the technician come by yesterday? Great.", "maintenance_request"),
    ],
)
def test_what_is_not_a_visit_promise(draft: str, intent: str) -> None:
    assert promise(draft, intent=intent).outcome is Outcome.NOT_CHECKED


def test_patterns_apply_to_the_drafts_language_only() -> None:
    # A Spanish pattern in an English draft (a quoted phrase) is not read as Clara's promise.
    assert (
        promise("Your neighbour wrote “el técnico va a pasar”, noted.", "en").outcome is Outcome.NOT_CHECKED
    )


@pytest.mark.parametrize(
    ("draft", "language"),
    [("Your tour is booked for Thursday at 3 PM.", "en"), ("Su visita es el jueves a las 3.", "es")],
)
def test_not_checked_when_the_draft_promises_nothing(draft: str, language: str) -> None:
    result = promise(draft, language)
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)
