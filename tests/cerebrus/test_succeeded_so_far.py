"""`succeeded_so_far`: a tool's success in this turn or an earlier one, whatever order turns ask in."""

from __future__ import annotations

from typing import Any

from cerebrus.checks._common import succeeded_so_far
from cerebrus.rules import Rules
from cerebrus.views import ConversationView, TurnView
from tests.cerebrus.builders import ConversationBuilder, claude, tool


def _steps(*calls: tuple[str, str]) -> list[dict[str, Any]]:
    return [
        claude(stop_reason="tool_use"),
        *(tool(name, status=status) for name, status in calls),
        claude("x"),
    ]


def _views() -> list[TurnView]:
    conversation = (
        ConversationBuilder()
        .inbound("My sink leaks")
        .reply("Looking.", steps=_steps(("lookup_unit", "success"), ("dispatch_vendor", "error")))
        .inbound("Any news?")
        .reply("Booked.", steps=_steps(("dispatch_vendor", "success")))
        .inbound("Thanks")
        .reply("You're welcome.")
        .build()
    )
    parent = ConversationView(conversation, Rules())
    return [TurnView(parent, turn, number) for number, turn in enumerate(conversation.turns, 1)]


def _table(views: list[TurnView], order: list[int]) -> dict[tuple[int, str], bool]:
    tools = ("lookup_unit", "dispatch_vendor", "notify_guest")
    return {(index, name): succeeded_so_far(views[index], name) for index in order for name in tools}


EXPECTED = {
    (0, "lookup_unit"): True,
    (0, "dispatch_vendor"): False,  # it failed in this turn; its success comes later
    (0, "notify_guest"): False,
    (1, "lookup_unit"): True,  # from the earlier turn
    (1, "dispatch_vendor"): True,  # this turn
    (1, "notify_guest"): False,
    (2, "lookup_unit"): True,
    (2, "dispatch_vendor"): True,
    (2, "notify_guest"): False,
}


def test_successes_in_this_turn_and_earlier_ones_count_and_later_ones_do_not() -> None:
    assert _table(_views(), [0, 1, 2]) == EXPECTED


def test_a_later_turn_asking_first_does_not_lend_its_successes_to_an_earlier_one() -> None:
    # The earlier turns are worked out once per conversation, as far as asked: the last turn asks
    # first, so the table already holds turn 2's success when turn 1 asks.
    assert _table(_views(), [2, 0, 1]) == EXPECTED
