"""The one_message_per_trigger check (SPEC §3.2): pass, fail with exact evidence, and not_checked."""

from __future__ import annotations

from gradecore.vocabulary import Level, NotCheckedWhy, Outcome, Owner
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
