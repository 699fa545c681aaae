"""Parsing raw Slack payloads into typed events."""

from __future__ import annotations

import pytest

from smith.listening.events import Ignored, ReactionEvent, ReplyDeleted, ReplyEvent, parse_event
from tests.scenarios import slack_requests as sr


@pytest.mark.parametrize(
    ("name", "signal"),
    [
        ("+1", "up"),
        ("thumbsup::skin-tone-6", "up"),
        ("-1::skin-tone-2", "down"),
        ("thumbsdown", "down"),
        ("thumbsup_all", None),
        ("heart", None),
    ],
)
def test_reactions_read_thumbs_in_any_skin_tone(name: str, signal: str | None) -> None:
    parsed = parse_event(sr.event_body(sr.reaction("U1", name, "C1", "1.000100"), event_id="Ev1"))
    assert isinstance(parsed, ReactionEvent)
    assert (parsed.signal, parsed.channel, parsed.ts, parsed.added) == (signal, "C1", "1.000100", True)


def test_a_reaction_on_a_file_is_ignored() -> None:
    event = {**sr.reaction("U1", "+1", "C1", "1.0"), "item": {"type": "file", "file": "F1"}}
    assert isinstance(parse_event(sr.event_body(event)), Ignored)


def test_replies_edits_and_deletions() -> None:
    reply = parse_event(sr.event_body(sr.message("U1", "C1", "2.0", "Should be PASS", thread_ts="1.0")))
    assert isinstance(reply, ReplyEvent) and (reply.thread_ts, reply.edit_of) == ("1.0", None)

    rich = sr.message("U1", "C1", "2.0", "", thread_ts="1.0", blocks=sr.rich_text("Should be HOLD"))
    parsed = parse_event(sr.event_body(rich))
    assert isinstance(parsed, ReplyEvent) and parsed.text == "Should be HOLD"

    edit = parse_event(sr.event_body(sr.message_changed("U1", "C1", "2.0", "1.0", "a", "b", edited_ts="3.0")))
    assert isinstance(edit, ReplyEvent) and (edit.text, edit.edit_of) == ("b", "3.0")

    deleted = parse_event(sr.event_body(sr.message_deleted("U1", "C1", "2.0", "1.0", "a")))
    assert isinstance(deleted, ReplyDeleted) and (deleted.deleted_ts, deleted.thread_ts) == ("2.0", "1.0")


@pytest.mark.parametrize(
    "event",
    [
        sr.message("U1", "C1", "1.0", "top-level", thread_ts=None),
        sr.message("U1", "C1", "1.0", "the parent itself", thread_ts="1.0"),
        {**sr.message("U1", "C1", "2.0", "a bot", thread_ts="1.0"), "bot_id": "B1"},
        {**sr.message("U1", "C1", "2.0", "joined", thread_ts="1.0"), "subtype": "channel_join"},
        sr.message_changed("U1", "C1", "2.0", "1.0", "same", "same", edited_ts="3.0"),
    ],
)
def test_messages_that_are_not_human_replies_are_ignored(event: dict[str, object]) -> None:
    assert isinstance(parse_event(sr.event_body(event)), Ignored)
