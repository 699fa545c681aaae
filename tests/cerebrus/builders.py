"""Build valid `smith.conversation/v1` documents in a line or two, for cerebrus tests.

conversation = (
    ConversationBuilder(facts={"amounts": {"rent_2br": 1850}})
    .inbound("How much is the 2 bedroom?")
    .reply("It is $1,950 per month.", intent="rent_question")
    .build()
)
"""

from __future__ import annotations

from copy import deepcopy
from datetime import UTC, datetime, timedelta
from typing import Any

from gradecore.model.contract import Conversation, validate_conversation

BASE_TIME = datetime(2026, 11, 24, 15, 0, tzinfo=UTC)
DEFAULT_FACTS: dict[str, Any] = {
    "arrival_instructions": "Check in at the leasing office.",
    "office_hours": "Mon-Fri 9:00-17:00",
    "access_codes": ["4821"],
    "amounts": {"rent_2br": 1850, "application_fee": 45},
}
DEFAULT_PROMPT = "You are Clara for Testwood. Office hours: Mon-Fri 9:00-17:00. 2BR rent $1,850/month."


def claude(
    draft: str | None = None,
    *,
    system_prompt: str = DEFAULT_PROMPT,
    stop_reason: str = "end_turn",
    input_tokens: int = 1000,
    output_tokens: int = 100,
    iteration: int = 0,
) -> dict[str, Any]:
    return {
        "kind": "claude_call",
        "loop_iteration": iteration,
        "system_prompt": system_prompt,
        "stop_reason": stop_reason,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_tokens": 0,
        "draft": draft,
    }


def tool(
    name: str,
    *,
    status: str = "success",
    result: Any = None,
    error: str | None = None,
    input: dict[str, Any] | None = None,
    iteration: int = 0,
) -> dict[str, Any]:
    return {
        "kind": "tool_execution",
        "loop_iteration": iteration,
        "tool_name": name,
        "input": input if input is not None else {},
        "status": status,
        "result": result if status == "success" else None,
        "error": error if status == "error" else None,
    }


class ConversationBuilder:
    """A conversation with one prospect `p1`, Clara, and whatever else a test adds."""

    def __init__(
        self,
        *,
        facts: dict[str, Any] | None = None,
        role: str = "prospect",
        conversation_id: str = "conv-1",
        start: datetime = BASE_TIME,
    ) -> None:
        self._facts = deepcopy(DEFAULT_FACTS) if facts is None else {**deepcopy(DEFAULT_FACTS), **facts}
        self._participants: list[dict[str, Any]] = [
            {"id": "p1", "role": role, "name": "Morgan Lee"},
            {"id": "clara", "role": "clara"},
        ]
        self._messages: list[dict[str, Any]] = []
        self._turns: list[dict[str, Any]] = []
        self._escalations: list[dict[str, Any]] = []
        self._conversation_id = conversation_id
        self._clock = start
        self._settled_at: datetime | None = None

    # --- people and time --------------------------------------------------------------------------

    def participant(self, participant_id: str, role: str) -> ConversationBuilder:
        self._participants.append({"id": participant_id, "role": role})
        return self

    def wait(self, **delta: float) -> ConversationBuilder:
        self._clock += timedelta(**delta)
        return self

    def settled(self, **after_last: float) -> ConversationBuilder:
        self._settled_at = self._clock + timedelta(**after_last)
        return self

    # --- messages and turns -----------------------------------------------------------------------

    def message(
        self, text: str, *, author: str, direction: str, language: str | None = "en", gap: float = 30
    ) -> str:
        self._clock += timedelta(seconds=gap)
        message_id = f"m{len(self._messages) + 1}"
        message: dict[str, Any] = {
            "id": message_id,
            "at": self._clock.isoformat(),
            "author": author,
            "direction": direction,
            "text": text,
        }
        if language is not None:
            message["language"] = language
        self._messages.append(message)
        return message_id

    def inbound(self, text: str, *, author: str = "p1", language: str | None = "en") -> ConversationBuilder:
        self.message(text, author=author, direction="inbound", language=language)
        return self

    def outbound(self, text: str, *, author: str, language: str | None = "en") -> ConversationBuilder:
        """An outbound message that is not a turn (a template, a staff member, a vendor)."""
        self.message(text, author=author, direction="outbound", language=language)
        return self

    def reply(
        self,
        text: str,
        *,
        intent: str | None = "general",
        steps: list[dict[str, Any]] | None = None,
        language: str | None = "en",
    ) -> ConversationBuilder:
        """A Clara outbound message and its turn (by default one claude_call drafting the text)."""
        message_id = self.message(text, author="clara", direction="outbound", language=language)
        turn: dict[str, Any] = {
            "id": f"t{len(self._turns) + 1}",
            "message_id": message_id,
            "trace": {"steps": steps if steps is not None else [claude(text)]},
        }
        if intent is not None:
            turn["intent"] = intent
        self._turns.append(turn)
        return self

    def escalation(
        self, *, opened_after: float = 0, closed_after: float | None = None
    ) -> ConversationBuilder:
        opened = self._clock + timedelta(seconds=opened_after)
        escalation: dict[str, Any] = {
            "id": f"e{len(self._escalations) + 1}",
            "opened_at": opened.isoformat(),
            "closed_at": None
            if closed_after is None
            else (opened + timedelta(seconds=closed_after)).isoformat(),
            "to": "pm",
        }
        self._escalations.append(escalation)
        return self

    # --- output -----------------------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        settled = self._settled_at or self._clock + timedelta(minutes=30)
        return {
            "schema": "smith.conversation/v1",
            "conversation_id": self._conversation_id,
            "channel": "sms",
            "property": {
                "id": "testwood",
                "name": "Testwood",
                "timezone": "America/Chicago",
                "locale": "en",
                "facts": self._facts,
            },
            "participants": self._participants,
            "messages": self._messages,
            "turns": self._turns,
            "escalations": self._escalations,
            "settled_at": settled.isoformat(),
        }

    def build(self) -> Conversation:
        return validate_conversation(self.document())
