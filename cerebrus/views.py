"""What checks read: a conversation or one turn with everything they need, computed once.

Views cache derived values (the folded draft, the triggering inbound, successful tool results) so
fifteen checks over one turn normalise and scan each text once.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from cerebrus.rules import CompiledRules, Rules
from cerebrus.text.folding import FoldedText
from cerebrus.text.language import MIN_CONFIDENCE, Guess, confident, guess, primary
from cerebrus.text.tokens import TokenizedText
from gradecore.model.access_codes import code_matcher
from gradecore.model.contract import (
    ClaudeCallStep,
    Conversation,
    Message,
    Participant,
    ToolExecutionStep,
    Turn,
)


def _message_places(messages: list[Message]) -> dict[str, tuple[int, Message, Message | None]]:
    """Each message by id: its position, itself, and the last inbound message before it (what a
    draft at that place answers)."""
    places: dict[str, tuple[int, Message, Message | None]] = {}
    last: Message | None = None
    for position, message in enumerate(messages):
        places[message.id] = (position, message, last)
        if message.direction == "inbound":
            last = message
    return places


class ConversationView:
    """A conversation under a set of rules."""

    def __init__(self, conversation: Conversation, rules: Rules) -> None:
        self.conversation = conversation
        self.rules = rules
        self.compiled: CompiledRules = rules.compiled
        # Detected languages of untagged messages, by message id: detection is the costly part of a
        # language check, and several checks ask about the same message (see `language_of`).
        self._guesses: dict[str, Guess | None] = {}
        # What checks derive from the conversation alone, worked out once for all its turns (keyed by
        # the check that stores it, see cerebrus.checks.amounts_match_ledger).
        self.derived: dict[str, Any] = {}
        # Every turn needs its message, where it stands and its trigger: one pass over the messages.
        self.message_places = _message_places(conversation.messages)
        self.access_codes: tuple[str, ...] = tuple(
            code for code in conversation.property.facts.access_codes if code
        )
        # Built once per code list and shared by every check, receipt and mask of this conversation.
        self.code_matcher = code_matcher(self.access_codes)

    @cached_property
    def participants(self) -> dict[str, Participant]:
        return {p.id: p for p in self.conversation.participants}

    @cached_property
    def ledger(self) -> tuple[float, ...]:
        """The amounts on file (facts.amounts) as numbers."""
        return tuple(float(v) for v in self.conversation.property.facts.amounts.values())

    @cached_property
    def first_successes(self) -> dict[str, int]:
        """The turn number (from 1) of each tool's first success in the conversation."""
        first: dict[str, int] = {}
        for number, turn in enumerate(self.conversation.turns, start=1):
            for step in turn.trace.steps:
                if isinstance(step, ToolExecutionStep) and step.status == "success":
                    first.setdefault(step.tool_name, number)
        return first

    def language_of(self, message: Message, min_confidence: float = MIN_CONFIDENCE) -> tuple[str | None, str]:
        """(language, how it was known), as `cerebrus.text.language.language_of` gives it, with each untagged
        message detected once per conversation whatever the checks and thresholds that ask."""
        tag = message.language
        if tag:
            return primary(tag), "field"
        if message.id not in self._guesses:
            self._guesses[message.id] = guess(message.text, self.rules.languages)
        found = self._guesses[message.id]
        return confident(found, min_confidence), "detected"

    def role_of(self, message: Message) -> str:
        return self.participants[message.author].role


class TurnView:
    """One turn: the draft (Clara's outbound message), its trigger, and its trace."""

    def __init__(self, parent: ConversationView, turn: Turn, number: int) -> None:
        position, message, trigger = parent.message_places[turn.message_id]
        self.parent = parent
        self.conversation = parent.conversation
        self.rules = parent.rules
        self.compiled = parent.compiled
        self.turn = turn
        self.number = number
        self.position = position
        self.message: Message = message
        draft = self.draft = message.text
        # Every turn's draft is scanned by several checks.
        folded = self.folded = FoldedText(draft)
        # The draft's tokens, shared by every text check (the folded draft is tokenized once, and only
        # as far as a check asks: see TokenizedText).
        self.tokens = TokenizedText(folded)
        # The last inbound message before the draft: what this turn answers.
        self.trigger: Message | None = trigger
        # Most checks read the trace: one pass sorts its steps (with their indices) by kind.
        calls: list[tuple[int, ClaudeCallStep]] = []
        tools: list[tuple[int, ToolExecutionStep]] = []
        failed: list[tuple[int, ToolExecutionStep]] = []
        for index, step in enumerate(turn.trace.steps):
            if isinstance(step, ClaudeCallStep):
                calls.append((index, step))
            elif isinstance(step, ToolExecutionStep):
                tools.append((index, step))
                if step.status == "error":
                    failed.append((index, step))
        self.claude_calls: tuple[tuple[int, ClaudeCallStep], ...] = tuple(calls)
        self.tool_steps: tuple[tuple[int, ToolExecutionStep], ...] = tuple(tools)
        self.failed_tools: tuple[tuple[int, ToolExecutionStep], ...] = tuple(failed)
        self.final_call: tuple[int, ClaudeCallStep] | None = calls[-1] if calls else None

    @cached_property
    def answered(self) -> Participant | None:
        """The person the turn answers: the author of the triggering inbound."""
        return self.parent.participants[self.trigger.author] if self.trigger is not None else None

    @cached_property
    def draft_language(self) -> str | None:
        """The draft's language (its tag's primary subtag, else detected; None when unsure): asked only
        when a language-specific pattern matched, since detection is the costly part."""
        return self.parent.language_of(self.message)[0]

    @cached_property
    def succeeded_tools(self) -> frozenset[str]:
        return frozenset(s.tool_name for _, s in self.tool_steps if s.status == "success")

    @cached_property
    def tool_results_json(self) -> tuple[str, ...]:
        """Each successful tool result, JSON-dumped (what "appears in a tool result" searches)."""
        return tuple(
            json.dumps(s.result, ensure_ascii=False, sort_keys=True)
            for _, s in self.tool_steps
            if s.status == "success" and s.result is not None
        )

    @cached_property
    def tool_results_lowered(self) -> tuple[str, ...]:
        """The same, lower-cased (for case-insensitive lookups)."""
        return tuple(text.lower() for text in self.tool_results_json)
