"""The one_message_per_trigger check (docs/grading.md): two automated writers answering one inbound fail;
staff stepping in is a human taking over; the window is measured from the inbound message."""

from __future__ import annotations

from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


def _double(gap_minutes: float) -> ConversationBuilder:
    builder = ConversationBuilder().participant("tmpl", "system").inbound("Can I tour today?")
    builder.outbound("Tour Confirmed!", author="tmpl")
    return builder.wait(minutes=gap_minutes).reply("Let me check the slots.")


def test_fails_when_two_writers_answer_one_message() -> None:
    result = run_check(_double(1).build(), "one_message_per_trigger")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.HOLD, Owner.OURS)
    assert [e.message_id for e in result.evidence] == ["m1", "m2", "m3"]
    assert result.evidence[1].detail == "reply by tmpl (system)"
    assert {e.rule_entry for e in result.evidence} == {"double_send.automated_authors"}


def test_passes_outside_the_burst_window() -> None:
    assert run_check(_double(15).build(), "one_message_per_trigger").outcome is Outcome.PASS


def test_passes_when_one_writer_sends_two_messages() -> None:
    conversation = ConversationBuilder().inbound("Hi?").reply("Hello!").reply("How can I help?").build()
    assert run_check(conversation, "one_message_per_trigger").outcome is Outcome.PASS


def test_a_new_inbound_starts_a_new_trigger() -> None:
    builder = ConversationBuilder().participant("s1", "staff").inbound("Hi?").reply("Hello!")
    conversation = builder.inbound("Anyone there?").outbound("Yes, this is Dana.", author="s1").build()
    assert run_check(conversation, "one_message_per_trigger").outcome is Outcome.PASS


def test_not_checked_without_inbound() -> None:
    conversation = ConversationBuilder().outbound("Reminder", author="clara").build()
    result = run_check(conversation, "one_message_per_trigger")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)


def test_staff_stepping_in_three_minutes_after_clara_is_not_a_double_send() -> None:
    """Issue 9: a staff member stepping in three minutes after Clara used to be flagged."""
    builder = ConversationBuilder().participant("s1", "staff").inbound("My car was towed, who do I call?")
    builder.reply("I'm sorry! Let me get the office to help right away.")
    conversation = builder.wait(minutes=3).outbound("Hi, this is Renee from the office.", author="s1").build()
    assert run_check(conversation, "one_message_per_trigger").outcome is Outcome.PASS


def test_staff_between_two_automated_writers_does_not_hide_the_double_send() -> None:
    builder = ConversationBuilder().participant("s1", "staff").participant("tmpl", "system")
    builder.inbound("¿Puedo ver el departamento hoy?", language="es")
    builder.outbound("Gracias por escribir, le responderemos pronto.", author="tmpl", language="es")
    builder.outbound("Hola, soy Renee de la oficina.", author="s1", language="es")
    conversation = builder.reply("Con gusto, tengo espacio a las 4.", language="es").build()
    result = run_check(conversation, "one_message_per_trigger")
    assert result.outcome is Outcome.FAIL
    assert [e.message_id for e in result.evidence] == ["m1", "m2", "m4"]  # the staff reply is not named


def test_the_burst_window_is_measured_from_the_inbound_message() -> None:
    # Clara 30 s after the inbound, the template 9.5 min after Clara: within 10 min of each other, but
    # 10 min after the inbound.
    builder = ConversationBuilder().participant("tmpl", "system").inbound("Can I tour today?")
    builder.reply("Let me check the slots.").wait(minutes=9, seconds=30)
    conversation = builder.outbound("Thanks for your message!", author="tmpl").build()
    assert run_check(conversation, "one_message_per_trigger").outcome is Outcome.PASS
