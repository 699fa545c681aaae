"""Anonymize a conversation before it becomes a fixture (the nightly sweep; docs/fixtures.md).

The conversation is cut after the graded turn's message, then every place personal data can hide is
rewritten: phones (also said in words) → `+1 000-555-NNNN`, e-mails (also disguised) →
`…@example.test`, participants' names → stable pseudonyms (any case, with or without accents,
possessives, first or last name alone, whole words), people only mentioned → pseudonyms too, access
codes and codes named after "gate", "clave"… → `0000`, street addresses and unit numbers →
`[address N]`/`[unit N]`. Ids, timestamps and the structure stay, so the result is still a valid
`smith.conversation/v1` document the grader can re-grade.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import JsonValue

from cerebrus.text.folding import fold
from gradecore.model.contract import ContractViolation, Conversation, validate_conversation
from smith.anonymizer.pseudonyms import NAMELESS_ROLES, assign_pseudonyms
from smith.anonymizer.scrubber import CODE_PLACEHOLDER, Scrubber

__all__ = ["AnonymizationError", "AnonymizedConversation", "UnknownTurn", "anonymize"]


class AnonymizationError(ValueError):
    """The conversation cannot be made into an anonymized fixture input."""


class UnknownTurn(AnonymizationError):
    """`up_to_turn` names no turn of the conversation."""


class AnonymizedConversation:
    """The anonymized conversation, and the means to scrub other texts of the same fixture alike.

    The pseudonym map stays inside (never serialized, never in the repr): the fixture's reason and
    machine grade must go through `scrub_text`/`scrub_json` so a name becomes the same pseudonym there.
    """

    __slots__ = ("_scrubber", "conversation")

    def __init__(self, conversation: Conversation, scrubber: Scrubber) -> None:
        self.conversation = conversation
        self._scrubber = scrubber

    @property
    def document(self) -> dict[str, Any]:
        """The anonymized conversation as its JSON document (the fixture's input)."""
        return self.conversation.model_dump(mode="json", by_alias=True)

    def scrub_text(self, text: str) -> str:
        return self._scrubber.text(text)

    def scrub_json(self, value: JsonValue) -> JsonValue:
        return self._scrubber.json(value)

    def __repr__(self) -> str:
        return f"AnonymizedConversation({self.conversation.conversation_id!r})"


def anonymize(conversation: Conversation, *, up_to_turn: str | None) -> AnonymizedConversation:
    """The conversation up to (and including) `up_to_turn`'s message, anonymized and re-validated.

    Raises UnknownTurn for a turn id the conversation does not have, and AnonymizationError if the
    rewritten document no longer fits the contract (a text pushed past its length limit).
    """
    document = conversation.model_dump(mode="json", by_alias=True)
    if up_to_turn is not None:
        _cut_after(document, conversation, up_to_turn)
    pseudonyms = assign_pseudonyms(conversation)
    facts = document["property"]["facts"]
    scrubber = Scrubber(
        pseudonyms,
        tuple(facts.get("access_codes") or ()),
        conversation_id=conversation.conversation_id,
        keep_words=_kept_words(conversation),
    )
    # Participants first: their own numbers and addresses get the first stand-ins, in listed order.
    for participant in document["participants"]:
        pseudonym = pseudonyms.get(participant["id"])
        if participant.get("phone"):
            participant["phone"] = scrubber.register_phone(participant["phone"])
        if participant.get("email"):
            own = pseudonym.email if pseudonym is not None else None
            participant["email"] = scrubber.register_email(participant["email"], own)
    for participant in document["participants"]:
        pseudonym = pseudonyms.get(participant["id"])
        if pseudonym is not None and participant.get("name"):
            participant["name"] = (
                pseudonym.full if pseudonym.name_words else scrubber.text(participant["name"])
            )
    document["property"]["facts"] = _scrub_facts(facts, scrubber)
    for message in document["messages"]:
        message["text"] = scrubber.text(message["text"])
    for turn in document["turns"]:
        for step in turn["trace"]["steps"]:
            _scrub_step(step, scrubber)
    for escalation in document["escalations"]:
        escalation["to"] = scrubber.text(escalation["to"])
    try:
        anonymized = validate_conversation(document)
    except ContractViolation as exc:
        # The violation names paths and limits only, never the text itself.
        raise AnonymizationError(f"the anonymized document breaks the contract: {exc}") from None
    return AnonymizedConversation(anonymized, scrubber)


def _kept_words(conversation: Conversation) -> frozenset[str]:
    """Capitalised words that are never a mentioned person: the property's name, Clara's, the platform's."""
    named = [conversation.property.name]
    named += [p.name for p in conversation.participants if p.name and p.role in NAMELESS_ROLES]
    return frozenset(fold(word) for name in named for word in re.findall(r"[^\W_]+", name))


def _cut_after(document: dict[str, Any], conversation: Conversation, turn_id: str) -> None:
    """Drop what came after the graded turn's message; escalations opened later go too."""
    turn = next((t for t in conversation.turns if t.id == turn_id), None)
    if turn is None:
        raise UnknownTurn(f"conversation {conversation.conversation_id!r} has no turn {turn_id!r}")
    cut = conversation.message_index(turn.message_id)
    cut_at = conversation.messages[cut].at
    kept = {m.id for m in conversation.messages[: cut + 1]}
    document["messages"] = document["messages"][: cut + 1]
    document["turns"] = [t for t in document["turns"] if t["message_id"] in kept]
    escalations = []
    for original, dumped in zip(conversation.escalations, document["escalations"], strict=True):
        if original.opened_at > cut_at:
            continue
        # Still open at the cut: a later close is part of what the fixture must not know yet.
        if original.closed_at is not None and original.closed_at > cut_at:
            dumped["closed_at"] = None
        escalations.append(dumped)
    document["escalations"] = escalations


def _scrub_facts(facts: dict[str, Any], scrubber: Scrubber) -> dict[str, Any]:
    scrubbed: dict[str, Any] = {}
    for key, value in facts.items():
        if key == "access_codes":
            # As many placeholders as codes: a check matching codes by identity still finds "0000".
            scrubbed[key] = [CODE_PLACEHOLDER] * len(value)
        elif key == "amounts":
            scrubbed[key] = value
        else:
            scrubbed[scrubber.text(key)] = scrubber.json(value)
    return scrubbed


def _scrub_step(step: dict[str, Any], scrubber: Scrubber) -> None:
    if step["kind"] == "claude_call":
        step["system_prompt"] = scrubber.text(step["system_prompt"])
        if step.get("draft") is not None:
            step["draft"] = scrubber.text(step["draft"])
        return
    step["input"] = scrubber.json(step["input"])
    step["result"] = scrubber.json(step["result"])
    if step.get("error") is not None:
        step["error"] = scrubber.text(step["error"])
