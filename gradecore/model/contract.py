"""The input contract: one settled conversation, schema `smith.conversation/v1` (docs/contract.md).

Validation is strict. Unknown fields are rejected, every reference must resolve, and each error names
the JSON path it is about. Only Clara's outbound messages can carry a turn, so a staff member's or a
vendor's message can never become a graded item, by construction.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gradecore.errors import SmithError

SCHEMA_ID = "smith.conversation/v1"
MAX_DOCUMENT_BYTES = 2 * 1024 * 1024
MAX_MESSAGES = 2_000
MAX_TURNS = 500
MAX_TEXT_CHARS = 64 * 1024
# Every id is stored in a column at least this wide (and escaped into keys sized for two of them).
MAX_ID_CHARS = 128
# RFC 5646 sets no maximum; 35 covers language-script-region-variant, extensions need more.
MAX_LANGUAGE_TAG_CHARS = 128
# The deepest real document is 9 levels; anything near the parser's recursion limit is an attack.
MAX_NESTING_DEPTH = 64
# More tokens than any model's context in one call: a broken counter, not a usage figure.
MAX_TOKENS_PER_CALL = 10_000_000
MAX_LOOP_ITERATIONS = 10_000
# Dates outside this window are typos or overflows; some do not even convert to UTC.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2101, 1, 1, tzinfo=UTC)

# BCP-47 in the shape the platform sends: a primary language subtag and optional subtags.
_BCP47 = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$"


def _within_sane_range(moment: datetime) -> datetime:
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("date is out of range (years 2000 to 2100, in UTC)") from None
    if not EARLIEST <= utc < LATEST:
        raise ValueError(f"date {utc.isoformat()} is out of range (years 2000 to 2100, in UTC)")
    return moment


Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Identifier = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]
LanguageTag = Annotated[str, Field(max_length=MAX_LANGUAGE_TAG_CHARS, pattern=_BCP47)]
Moment = Annotated[AwareDatetime, AfterValidator(_within_sane_range)]
TokenCount = Annotated[int, Field(ge=0, le=MAX_TOKENS_PER_CALL)]
LoopIteration = Annotated[int, Field(ge=0, le=MAX_LOOP_ITERATIONS)]
Role = Literal["prospect", "resident", "vendor", "staff", "clara", "system"]
StopReason = Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


class Facts(BaseModel):
    """The property's ledger as the platform knows it.

    The four named facts are typed; other ledger entries are allowed (rules may require them) as
    plain JSON values.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    arrival_instructions: Text | None = None
    office_hours: Text | None = None
    access_codes: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(default_factory=list)
    amounts: dict[str, float] = Field(default_factory=dict)

    def value(self, key: str) -> Any:
        """A fact by key, named or extra; None when absent."""
        if key in type(self).model_fields:
            return getattr(self, key)
        return (self.model_extra or {}).get(key)


class UnknownTimezone(SmithError, ValueError):
    """A timezone that is not an IANA name: a property's tally runs in its local day."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown timezone {name!r} (use an IANA name such as America/Los_Angeles)")


def check_timezone(name: str) -> str:
    """`name` when it is a known IANA timezone, else UnknownTimezone (for documents and the store)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownTimezone(name) from None
    return name


class Property(_Strict):
    id: Identifier
    name: Annotated[str, Field(min_length=1, max_length=256)]
    timezone: Annotated[str, Field(min_length=1, max_length=64)]
    locale: LanguageTag
    facts: Facts = Field(default_factory=Facts)

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, name: str) -> str:
        # The tally runs in the property's local day; an unknown zone would only fail later, at storage.
        return check_timezone(name)


class Participant(_Strict):
    id: Identifier
    role: Role
    name: Annotated[str, Field(max_length=256)] | None = None
    phone: Annotated[str, Field(max_length=64)] | None = None
    email: Annotated[str, Field(max_length=320)] | None = None


class Message(_Strict):
    id: Identifier
    at: Moment
    author: Identifier
    direction: Literal["inbound", "outbound"]
    text: Text
    language: LanguageTag | None = None


class ClaudeCallStep(_Strict):
    kind: Literal["claude_call"]
    loop_iteration: LoopIteration
    system_prompt: Text
    stop_reason: StopReason
    input_tokens: TokenCount
    output_tokens: TokenCount
    cache_read_tokens: TokenCount = 0
    draft: Text | None = None


class ToolExecutionStep(_Strict):
    kind: Literal["tool_execution"]
    loop_iteration: LoopIteration
    tool_name: Annotated[str, Field(min_length=1, max_length=128)]
    input: dict[str, JsonValue] = Field(default_factory=dict)
    status: Literal["success", "error"]
    result: JsonValue = None
    error: Text | None = None


Step = Annotated[ClaudeCallStep | ToolExecutionStep, Field(discriminator="kind")]


class Trace(_Strict):
    steps: list[Step] = Field(default_factory=list, max_length=10_000)

    @property
    def final_claude_call(self) -> ClaudeCallStep | None:
        calls = [step for step in self.steps if isinstance(step, ClaudeCallStep)]
        return calls[-1] if calls else None


class Turn(_Strict):
    id: Identifier
    message_id: Identifier
    intent: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    trace: Trace


class Escalation(_Strict):
    id: Identifier
    opened_at: Moment
    closed_at: Moment | None = None
    to: Annotated[str, Field(min_length=1, max_length=128)]


class Conversation(_Strict):
    """One settled conversation as the production platform sends it."""

    schema_: Literal["smith.conversation/v1"] = Field(alias="schema")
    conversation_id: Identifier
    channel: Literal["email", "sms", "voice"]
    property: Property
    participants: list[Participant] = Field(min_length=1, max_length=MAX_MESSAGES)
    messages: list[Message] = Field(max_length=MAX_MESSAGES)
    turns: list[Turn] = Field(default_factory=list, max_length=MAX_TURNS)
    escalations: list[Escalation] = Field(default_factory=list, max_length=MAX_MESSAGES)
    settled_at: Moment

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _references_resolve(self) -> Conversation:
        _require_unique("participants", [p.id for p in self.participants])
        _require_unique("messages", [m.id for m in self.messages])
        _require_unique("turns", [t.id for t in self.turns])
        _require_unique("escalations", [e.id for e in self.escalations])
        roles = {p.id: p.role for p in self.participants}
        messages = {m.id: m for m in self.messages}
        previous: datetime | None = None
        for index, message in enumerate(self.messages):
            role = roles.get(message.author)
            if role is None:
                raise _error(f"messages.{index}.author", f"names no participant: {message.author!r}")
            if message.direction == "inbound" and role in ("clara", "system"):
                raise _error(f"messages.{index}.direction", f"a {role} participant cannot send inbound")
            if previous is not None and message.at < previous:
                raise _error(f"messages.{index}.at", "messages must be in chronological order")
            previous = message.at
        claimed: dict[str, int] = {}
        for index, turn in enumerate(self.turns):
            path = f"turns.{index}.message_id"
            target = messages.get(turn.message_id)
            if target is None:
                raise _error(path, f"names no message: {turn.message_id!r}")
            if target.direction != "outbound" or roles[target.author] != "clara":
                raise _error(path, "a turn must name an outbound message authored by a clara participant")
            if turn.message_id in claimed:
                raise _error(path, f"message already graded by turns.{claimed[turn.message_id]}")
            claimed[turn.message_id] = index
        for index, escalation in enumerate(self.escalations):
            if escalation.closed_at is not None and escalation.closed_at < escalation.opened_at:
                raise _error(f"escalations.{index}.closed_at", "closed before it was opened")
        return self

    # --- lookups the grader and the Slack surface share -------------------------------------------

    def participant(self, participant_id: str) -> Participant:
        return next(p for p in self.participants if p.id == participant_id)

    def message(self, message_id: str) -> Message:
        return next(m for m in self.messages if m.id == message_id)

    def message_index(self, message_id: str) -> int:
        return next(i for i, m in enumerate(self.messages) if m.id == message_id)


def _require_unique(field: str, ids: list[str]) -> None:
    duplicates = [value for value, count in Counter(ids).items() if count > 1]
    if duplicates:
        position = ids.index(duplicates[0], ids.index(duplicates[0]) + 1)
        raise _error(f"{field}.{position}.id", f"duplicate id {duplicates[0]!r}")


def _error(path: str, message: str) -> PydanticCustomError:
    return PydanticCustomError("contract", "{path}: {message}", {"path": path, "message": message})


class ContractViolation(SmithError):
    """A document that breaks the contract; `errors` are (JSON path, message) pairs."""

    def __init__(self, errors: list[tuple[str, str]]) -> None:
        self.errors = errors
        first_path, first_message = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"{first_path}: {first_message}{more}")

    def as_json(self) -> list[dict[str, str]]:
        return [{"path": path, "message": message} for path, message in self.errors]


class DocumentTooLarge(ContractViolation):
    """A document over MAX_DOCUMENT_BYTES: refused before it is read as JSON (HTTP answers 413)."""

    def __init__(self, size: int) -> None:
        self.size = size
        super().__init__([("$", f"document is {size} bytes; the limit is 2 MiB")])


def _path_of(location: tuple[int | str, ...]) -> str:
    parts = [str(part) for part in location if part not in ("claude_call", "tool_execution")]
    return ".".join(parts) or "$"


def _violations(error: ValidationError) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for detail in error.errors(include_url=False):
        if detail["type"] == "contract":
            found.append((str(detail["ctx"]["path"]), str(detail["ctx"]["message"])))
        else:
            found.append((_path_of(tuple(detail["loc"])), detail["msg"]))
    return found


def parse_conversation(document: bytes | str) -> Conversation:
    """Parse and validate one JSON document, or raise ContractViolation naming the path."""
    try:
        raw = document.encode() if isinstance(document, str) else document
    except UnicodeEncodeError:
        raise ContractViolation(
            [("$", "not valid JSON: text contains an unpaired UTF-16 surrogate")]
        ) from None
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise DocumentTooLarge(len(raw))
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ContractViolation([("$", _TOO_DEEP)]) from None
    except ValueError as exc:
        # ValueError covers JSONDecodeError, UnicodeDecodeError and Python's refusal of integers over
        # 4,300 digits, which is not a JSONDecodeError.
        raise ContractViolation([("$", f"not valid JSON: {exc}")]) from None
    return validate_conversation(data)


_TOO_DEEP = f"nested more than {MAX_NESTING_DEPTH} levels deep"


# A path as a linked list, (key, parent's trail), spelled out only when it is reported.
_Trail = tuple[()] | tuple[object, "_Trail"]


def _too_deep(data: object) -> str | None:
    """The path of the first value nested past the limit, or None.

    Iterative on purpose: free-form JSON (extra ledger facts, tool inputs) would otherwise reach the
    validator's and the serialiser's own recursion limits, which fail with errors that are not
    contract violations. Only containers are visited and no path is built unless one is reported,
    which keeps this cheap on a 2 MiB document.
    """
    pending: list[tuple[dict[object, object] | list[object], int, _Trail]] = []
    if isinstance(data, (dict, list)):
        pending.append((data, 0, ()))
    while pending:
        value, depth, trail = pending.pop()
        if depth >= MAX_NESTING_DEPTH:
            return _spelled(trail)
        children = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in children:
            if isinstance(child, (dict, list)):
                pending.append((child, depth + 1, (key, trail)))
    return None


def _spelled(trail: _Trail) -> str:
    parts: list[str] = []
    while trail:
        key, trail = trail
        parts.append(str(key))
    return ".".join(reversed(parts)) or "$"


def validate_conversation(data: object) -> Conversation:
    """Validate already-decoded JSON against the contract."""
    if not isinstance(data, dict):
        raise ContractViolation([("$", "a conversation document must be a JSON object")])
    deep = _too_deep(data)
    if deep is not None:
        raise ContractViolation([(deep, _TOO_DEEP)])
    for limit, field, noun in ((MAX_MESSAGES, "messages", "messages"), (MAX_TURNS, "turns", "turns")):
        items = data.get(field)
        if isinstance(items, list) and len(items) > limit:
            raise ContractViolation([(field, f"{len(items)} {noun}; the limit is {limit:,}")])
    try:
        conversation = Conversation.model_validate(data)
        unstorable = _first_unstorable(conversation.model_dump(mode="json", by_alias=True), "")
    except ValidationError as exc:
        raise ContractViolation(_violations(exc)) from None
    except RecursionError:
        raise ContractViolation([("$", _TOO_DEEP)]) from None
    if unstorable is not None:
        raise ContractViolation([unstorable])
    return conversation


def _first_unstorable(value: object, path: str) -> tuple[str, str] | None:
    """Values Python's json accepts but strict JSON, UTF-8 and PostgreSQL do not.

    Free-form JSON (tool inputs and results, extra ledger facts) is not checked by the models, and a
    NaN, a lone surrogate or a NUL would otherwise pass validation and fail later, when the document
    is hashed or stored.
    """
    if isinstance(value, str):
        return _bad_text(value, path or "$")
    if isinstance(value, float) and not math.isfinite(value):
        return path or "$", "numbers must be finite (NaN and Infinity are not JSON)"
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            found = _bad_text(str(key), where) or _first_unstorable(item, where)
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _first_unstorable(item, f"{path}.{index}" if path else str(index))
            if found is not None:
                return found
    return None


def _bad_text(text: str, path: str) -> tuple[str, str] | None:
    if "\x00" in text:
        return path, "text contains a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return path, "text contains an unpaired UTF-16 surrogate"
    return None


def conversation_schema() -> dict[str, Any]:
    """The JSON Schema of the contract (`smith schema`)."""
    schema = Conversation.model_json_schema(by_alias=True)
    schema["$id"] = SCHEMA_ID
    return schema


def canonical_json(conversation: Conversation) -> str:
    """A stable serialisation: the same document always gives the same bytes (content hashing)."""
    return json.dumps(
        conversation.model_dump(mode="json", by_alias=True, exclude_none=False),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
