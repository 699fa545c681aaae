"""What a turn view sets up for every check: its message and trigger, and its trace sorted by kind."""

from __future__ import annotations

from cerebrus import Rules
from cerebrus.views import ConversationView, TurnView
from gradecore.model.contract import ClaudeCallStep, Conversation, ToolExecutionStep, Trace, Turn
from tests.cerebrus.builders import ConversationBuilder, claude, tool


def _turn_views(conversation: Conversation) -> list[TurnView]:
    view = ConversationView(conversation, Rules())
    return [TurnView(view, turn, number) for number, turn in enumerate(conversation.turns, start=1)]


def test_each_turn_finds_its_message_and_the_last_inbound_before_it() -> None:
    conversation = (
        ConversationBuilder()
        .reply("Hello, this is Clara.")  # no inbound yet: no trigger
        .inbound("Is the pool open?")
        .inbound("And the gym?")
        .outbound("Staff note.", author="clara")
        .reply("Both open at 6 AM.")
        .build()
    )
    first, second = _turn_views(conversation)
    assert (first.position, first.draft, first.trigger) == (0, "Hello, this is Clara.", None)
    assert first.message is conversation.messages[0]
    assert (second.position, second.draft) == (4, "Both open at 6 AM.")
    assert second.message is conversation.messages[4]
    assert second.trigger is conversation.messages[2]  # the later of the two inbounds
    assert second.folded.folded == "both open at 6 am."


def test_the_trace_is_sorted_by_kind_with_indices_and_failures() -> None:
    failing = tool("lookup", status="error", error="timeout")
    steps = [claude(), failing, tool("units", result={}), claude("Done.")]
    conversation = ConversationBuilder().inbound("Hi").reply("Done.", steps=steps).build()
    (view,) = _turn_views(conversation)
    assert [index for index, _ in view.claude_calls] == [0, 3]
    assert [(index, step.tool_name) for index, step in view.tool_steps] == [(1, "lookup"), (2, "units")]
    assert [index for index, _ in view.failed_tools] == [1]
    assert view.final_call == view.claude_calls[-1]


class _TaggedCall(ClaudeCallStep):
    """A step built by a caller as a subclass (parsing never does): sorted like its base class."""


class _TaggedTool(ToolExecutionStep):
    pass


def test_steps_of_a_subclass_are_sorted_by_the_class_they_extend() -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("Hello.").build()
    call = _TaggedCall.model_validate(claude("Hello."))
    failing = _TaggedTool.model_validate(tool("lookup", status="error", error="timeout"))
    turn = Turn(id="t1", message_id=conversation.turns[0].message_id, trace=Trace(steps=[failing, call]))
    view = TurnView(ConversationView(conversation, Rules()), turn, 1)
    assert view.claude_calls == ((1, call),)
    assert view.tool_steps == view.failed_tools == ((0, failing),)
    assert view.final_call == (1, call)


def test_an_ascii_draft_is_lower_cased_with_backticks_as_apostrophes() -> None:
    conversation = ConversationBuilder().inbound("Hi").reply("We`LL Call You").build()
    (view,) = _turn_views(conversation)
    assert view.folded.folded == "we'll call you"
    assert view.tokens.words == ("we'll", "call", "you")
