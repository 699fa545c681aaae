"""`/smith link` reads what Slack sends when the manifest escapes the command's text, and answers a
raw user id or an unresolved @name with how to write it."""

from __future__ import annotations

import pytest

from blocks import texts
from smith.cli.manifest import build_manifest
from smith.listening.link_command import LinkRequest, UnclearLink, parse_link_text


@pytest.mark.parametrize("socket_mode", [True, False])
def test_the_manifest_asks_slack_to_escape_the_command_text(socket_mode: bool) -> None:
    manifest = build_manifest(url=None if socket_mode else "https://smith.example", socket_mode=socket_mode)
    [command] = manifest["features"]["slash_commands"]
    assert command["should_escape"] is True


@pytest.mark.parametrize(
    "text",
    [
        "<@U0NEW|newbie> <mailto:newbie@example.test|newbie@example.test>",  # escaped, as Slack sends it
        "<@U0NEW> <mailto:newbie@example.test|newbie@example.test>",  # newer workspaces drop the name
        "<@U0NEW|newbie> newbie@example.test",  # an address Slack did not turn into a link
        "<mailto:newbie@example.test|newbie@example.test> <@U0NEW|newbie>",  # either order
    ],
)
def test_escaped_mentions_and_addresses_are_read(text: str) -> None:
    assert parse_link_text(text) == LinkRequest("U0NEW", "newbie@example.test")


def test_an_enterprise_grid_user_id_is_read() -> None:
    assert parse_link_text("<@W0GRID|grid> a@example.test") == LinkRequest("W0GRID", "a@example.test")


@pytest.mark.parametrize(
    "text",
    [
        "U0NEW123 newbie@example.test",  # a raw user id
        "@newbie newbie@example.test",  # an @name Slack did not resolve (or escaping off)
        "@newbie <mailto:newbie@example.test|newbie@example.test>",
        "@newbie",
    ],
)
def test_a_raw_id_or_name_gets_the_hint_to_mention_the_person(text: str) -> None:
    with pytest.raises(UnclearLink) as unclear:
        parse_link_text(text)
    assert str(unclear.value) == texts.link_needs_a_mention()


@pytest.mark.parametrize("text", ["", "someone", "<@U0NEW|newbie>", "newbie@example.test"])
def test_anything_else_gets_the_usage(text: str) -> None:
    with pytest.raises(UnclearLink) as unclear:
        parse_link_text(text)
    assert str(unclear.value) == texts.link_usage()
