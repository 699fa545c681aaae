"""The followup_exists check (docs/grading.md): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

import pytest

from cerebrus import Rules
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Is the pool open this weekend?", "en"),
        ("Can I bring my dog to the tour", "en"),  # no mark: opens with an interrogative word
        ("¿La piscina está abierta el fin de semana?", "es"),
        ("Dónde dejo el paquete", "es"),
        # Issue 9: no accents and no ¿? still asks.
        ("cuando vienen a revisarlo", "es"),
        ("a que hora va a venir el tecnico", "es"),
        ("Gracias. Por qué no funciona el agua", "es"),
        ("how do i reset the thermostat", "en"),
        ("Thanks for the help.\nwhat's the wifi password", "en"),
        ("I moved out last month. is there someone else I should talk to", "en"),
        ("Where's the package room", "en"),
    ],
)
def test_fails_when_a_question_waits_past_the_sla(question: str, language: str) -> None:
    conversation = ConversationBuilder().inbound(question, language=language).settled(hours=5).build()
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.FAIL
    assert result.level is Level.HOLD
    assert result.evidence[0].message_id == "m1"
    assert "5 h" in (result.evidence[0].detail or "")
    assert (result.evidence[0].rule_entry or "").startswith("ask.")


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("Is it going to be shut off again?", "ask.question_mark"),
        ("Can I bring my dog", "ask.auxiliary_en"),
        ("Which unit is it", "ask.question_word_en"),
    ],
)
def test_the_evidence_names_why_it_is_a_question(question: str, entry: str) -> None:
    conversation = ConversationBuilder().inbound(question).settled(hours=5).build()
    assert run_check(conversation, "followup_exists").evidence[0].rule_entry == entry


def test_a_system_broadcast_is_not_an_answer_but_staff_is() -> None:
    broadcast = (
        ConversationBuilder()
        .participant("sys", "system")
        .inbound("Is the water going to be shut off again?")
        .outbound("NOTICE: water shut-off Thursday 9-11 AM.", author="sys")
        .settled(hours=24)
        .build()
    )
    result = run_check(broadcast, "followup_exists")
    assert (result.outcome, result.evidence[0].message_id) == (Outcome.FAIL, "m1")
    staff = (
        ConversationBuilder()
        .participant("s1", "staff")
        .inbound("Is the water going to be shut off again?")
        .outbound("Not this week, sorry for the trouble!", author="s1")
        .settled(hours=24)
        .build()
    )
    answered = run_check(staff, "followup_exists")
    assert (answered.outcome, answered.evidence[0].message_id) == (Outcome.PASS, "m2")


def test_passes_when_someone_answered() -> None:
    conversation = (
        ConversationBuilder().inbound("Is the pool open?").reply("Yes, until 9 PM.").settled(days=3).build()
    )
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.PASS
    assert result.evidence[0].message_id == "m2"


def test_passes_while_still_within_the_sla() -> None:
    conversation = ConversationBuilder().inbound("Is the pool open?").settled(hours=3).build()
    assert run_check(conversation, "followup_exists").outcome is Outcome.PASS


def test_sla_comes_from_the_rules() -> None:
    conversation = ConversationBuilder().inbound("Is the pool open?").settled(hours=3).build()
    rules = Rules.model_validate({"thresholds": {"followup_sla": "2h"}})
    assert run_check(conversation, "followup_exists", rules).outcome is Outcome.FAIL


@pytest.mark.parametrize(
    ("statement", "language"),
    [
        ("Thanks, see you Thursday.", "en"),
        ("Gracias, nos vemos el jueves.", "es"),
        # Issue 9: `can` never matches inside "can't".
        ("Signed everything this morning. Can't wait to move in. Thanks!", "en"),
        ("Can't wait to move in. Thanks!", "en"),
        ("Can't wait to move in", "en"),
        ("Will do, thanks!", "en"),
        ("Do let me know…", "en"),
        ("When you get a chance, no rush.", "en"),
        ("Ok cool, I'll think about it and text you next week", "en"),
        ("Is", "en"),
        ("Perfecto, lo voy a hablar con mi esposa y le aviso.", "es"),
        ("Ok, quedo pendiente. Gracias", "es"),
        # An English interrogative in a Spanish message is not read as one (language-scoped).
        ("How bonito el depa", "es"),
    ],
)
def test_not_checked_when_the_last_message_asks_nothing(statement: str, language: str) -> None:
    conversation = ConversationBuilder().inbound(statement, language=language).settled(days=2).build()
    result = run_check(conversation, "followup_exists")
    assert result.outcome is Outcome.NOT_CHECKED
    assert result.not_checked_why is NotCheckedWhy.NOT_APPLICABLE


def test_not_checked_without_inbound_messages() -> None:
    conversation = ConversationBuilder().outbound("Rent reminder", author="clara").build()
    assert run_check(conversation, "followup_exists").outcome is Outcome.NOT_CHECKED
