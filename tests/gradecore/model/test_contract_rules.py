"""Every structural rule of docs/contract.md: one violating document each, and the error names the
exact path."""

from __future__ import annotations

import json

import pytest

from gradecore.model.contract import (
    MAX_DOCUMENT_BYTES,
    MAX_MESSAGES,
    MAX_TEXT_CHARS,
    MAX_TURNS,
    SCHEMA_ID,
    ContractViolation,
    DocumentTooLarge,
    parse_conversation,
)
from tests.gradecore.docs import (
    DEMO_NAMES,
    Doc,
    byte_violations,
    demo_doc,
    only_error,
    valid,
    violations,
    with_escalation,
    with_message,
    with_participant,
)


@pytest.mark.parametrize("name", DEMO_NAMES)
def test_every_demo_document_is_valid(name: str) -> None:
    conversation = valid(demo_doc(name))
    assert conversation.schema_ == SCHEMA_ID
    assert conversation.turns, "each demo has a gradeable turn"


def test_there_are_six_demo_documents() -> None:
    assert len(DEMO_NAMES) == 6


# --- a turn grades only Clara's outbound work ------------------------------------------------------


def test_turn_naming_a_missing_message() -> None:
    doc = demo_doc()
    doc["turns"][0]["message_id"] = "m404"
    path, message = only_error(doc)
    assert path == "turns.0.message_id"
    assert "m404" in message


def test_turn_naming_an_inbound_message() -> None:
    doc = demo_doc()
    doc["turns"][0]["message_id"] = "m1"  # the prospect's inbound question
    path, message = only_error(doc)
    assert path == "turns.0.message_id"
    assert "clara" in message


@pytest.mark.parametrize("role", ["staff", "vendor", "system", "prospect", "resident"])
def test_turn_naming_an_outbound_message_by_someone_other_than_clara(role: str) -> None:
    doc = with_message(with_participant(demo_doc(), "x1", role), "m9", "x1", "outbound")
    doc["turns"].append({"id": "t2", "message_id": "m9", "trace": {"steps": []}})
    path, message = only_error(doc)
    assert path == "turns.1.message_id"
    assert "outbound message authored by a clara participant" in message


def test_the_system_template_message_cannot_be_a_turn() -> None:
    doc = demo_doc()
    doc["turns"][0]["message_id"] = "m2"  # authored by the "tmpl" system participant
    assert only_error(doc)[0] == "turns.0.message_id"


def test_two_turns_cannot_grade_the_same_message() -> None:
    doc = demo_doc()
    doc["turns"].append({"id": "t2", "message_id": "m3", "trace": {"steps": []}})
    path, message = only_error(doc)
    assert path == "turns.1.message_id"
    assert "turns.0" in message


def test_a_turn_may_name_an_outbound_message_by_a_second_clara_participant() -> None:
    doc = with_message(with_participant(demo_doc(), "clara2", "clara"), "m9", "clara2", "outbound")
    doc["turns"].append({"id": "t2", "message_id": "m9", "trace": {"steps": []}})
    assert len(valid(doc).turns) == 2


# --- unique ids ------------------------------------------------------------------------------------


def test_duplicate_message_id() -> None:
    doc = with_message(demo_doc(), "m2", "p1", "inbound")
    path, message = only_error(doc)
    assert path == "messages.3.id"
    assert "duplicate" in message and "m2" in message


def test_duplicate_turn_id() -> None:
    doc = with_message(demo_doc(), "m9", "clara", "outbound")
    doc["turns"].append({"id": "t1", "message_id": "m9", "trace": {"steps": []}})
    path, message = only_error(doc)
    assert path == "turns.1.id"
    assert "duplicate" in message


def test_duplicate_participant_id() -> None:
    doc = with_participant(demo_doc(), "p1", "staff")
    path, message = only_error(doc)
    assert path == "participants.3.id"
    assert "duplicate" in message and "p1" in message


def test_duplicate_escalation_id() -> None:
    doc = with_escalation(with_escalation(demo_doc()))
    assert only_error(doc)[0] == "escalations.1.id"


# --- timestamps ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (("messages", 1, "at"), "messages.1.at"),
        (("settled_at",), "settled_at"),
        (("escalations", 0, "opened_at"), "escalations.0.opened_at"),
        (("escalations", 0, "closed_at"), "escalations.0.closed_at"),
    ],
)
def test_naive_timestamps_are_rejected(where: tuple[str | int, ...], path: str) -> None:
    doc = with_escalation(demo_doc())
    _set(doc, where, "2026-07-17T17:02:45")  # no offset: ambiguous across the property's timezone
    found, message = only_error(doc)
    assert found == path
    assert "timezone" in message


def test_an_offset_timestamp_is_aware_and_accepted() -> None:
    doc = demo_doc()
    doc["messages"][1]["at"] = "2026-07-17T10:02:45-07:00"
    assert valid(doc).messages[1].at.utcoffset() is not None


def test_messages_out_of_order() -> None:
    doc = demo_doc()
    doc["messages"][2]["at"] = "2026-07-17T16:00:00Z"
    assert only_error(doc)[0] == "messages.2.at"


def test_escalation_closed_before_opened() -> None:
    doc = with_escalation(demo_doc())
    doc["escalations"][0]["closed_at"] = "2026-07-17T17:00:00Z"
    assert only_error(doc)[0] == "escalations.0.closed_at"


# --- closed vocabularies ---------------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["english", "e", "en_US", "en-", "1en", ""])
def test_bad_language_tag(tag: str) -> None:
    doc = demo_doc()
    doc["messages"][0]["language"] = tag
    assert only_error(doc)[0] == "messages.0.language"


@pytest.mark.parametrize("tag", ["en", "es", "es-419", "zh-Hant-TW", "EN-us"])
def test_good_language_tags(tag: str) -> None:
    doc = demo_doc()
    doc["messages"][0]["language"] = tag
    assert valid(doc).messages[0].language == tag


def test_bad_property_locale() -> None:
    doc = demo_doc()
    doc["property"]["locale"] = "English"
    assert only_error(doc)[0] == "property.locale"


def test_bad_tool_status() -> None:
    doc = demo_doc()
    doc["turns"][0]["trace"]["steps"][1]["status"] = "failed"
    path, message = only_error(doc)
    assert path == "turns.0.trace.steps.1.status"
    assert "'success'" in message and "'error'" in message


def test_bad_stop_reason() -> None:
    doc = demo_doc()
    doc["turns"][0]["trace"]["steps"][2]["stop_reason"] = "length"
    path, message = only_error(doc)
    assert path == "turns.0.trace.steps.2.stop_reason"
    assert "'refusal'" in message


@pytest.mark.parametrize("stop_reason", ["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"])
def test_every_stop_reason_is_accepted(stop_reason: str) -> None:
    doc = demo_doc()
    doc["turns"][0]["trace"]["steps"][2]["stop_reason"] = stop_reason
    assert valid(doc)


def test_bad_step_kind() -> None:
    doc = demo_doc()
    doc["turns"][0]["trace"]["steps"][0]["kind"] = "thinking"
    assert only_error(doc)[0] == "turns.0.trace.steps.0"


def test_bad_role() -> None:
    doc = demo_doc()
    doc["participants"][0]["role"] = "tenant"
    path, message = only_error(doc)
    assert path == "participants.0.role"
    assert "'prospect'" in message


def test_bad_channel() -> None:
    doc = demo_doc()
    doc["channel"] = "whatsapp"
    path, message = only_error(doc)
    assert path == "channel"
    assert "'sms'" in message


def test_bad_direction() -> None:
    doc = demo_doc()
    doc["messages"][0]["direction"] = "sideways"
    assert only_error(doc)[0] == "messages.0.direction"


@pytest.mark.parametrize("author", ["clara", "tmpl"])
def test_clara_and_system_never_send_inbound(author: str) -> None:
    doc = with_message(demo_doc(), "m9", author, "inbound")
    assert only_error(doc)[0] == "messages.3.direction"


# --- strictness ------------------------------------------------------------------------------------


def test_unknown_top_level_field() -> None:
    doc = demo_doc()
    doc["priority"] = "high"
    path, message = only_error(doc)
    assert path == "priority"
    assert "not permitted" in message


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (("messages", 0, "mood"), "messages.0.mood"),
        (("participants", 1, "avatar"), "participants.1.avatar"),
        (("property", "owner"), "property.owner"),
        (("turns", 0, "trace", "steps", 1, "latency_ms"), "turns.0.trace.steps.1.latency_ms"),
        (("turns", 0, "score"), "turns.0.score"),
    ],
)
def test_unknown_nested_field(where: tuple[str | int, ...], path: str) -> None:
    doc = demo_doc()
    _set(doc, where, 1)
    assert only_error(doc)[0] == path


def test_extra_ledger_facts_are_allowed() -> None:
    """The ledger is open: rules may require facts the contract does not name."""
    doc = demo_doc()
    doc["property"]["facts"]["pet_policy"] = "Cats only"
    assert valid(doc).property.facts.value("pet_policy") == "Cats only"


@pytest.mark.parametrize("schema", ["smith.conversation/v2", "conversation", ""])
def test_wrong_schema_id(schema: str) -> None:
    doc = demo_doc()
    doc["schema"] = schema
    path, message = only_error(doc)
    assert path == "schema"
    assert SCHEMA_ID in message


def test_missing_schema_id() -> None:
    doc = demo_doc()
    del doc["schema"]
    assert only_error(doc)[0] == "schema"


@pytest.mark.parametrize("field", ["conversation_id", "channel", "property", "messages", "settled_at"])
def test_missing_required_field(field: str) -> None:
    doc = demo_doc()
    del doc[field]
    path, message = only_error(doc)
    assert path == field
    assert "required" in message.lower()


def test_message_author_naming_no_participant() -> None:
    doc = demo_doc()
    doc["messages"][0]["author"] = "ghost"
    path, message = only_error(doc)
    assert path == "messages.0.author"
    assert "ghost" in message


@pytest.mark.parametrize("conversation_id", ["", "x" * 129])
def test_conversation_id_length(conversation_id: str) -> None:
    doc = demo_doc()
    doc["conversation_id"] = conversation_id
    assert only_error(doc)[0] == "conversation_id"


# --- size limits -----------------------------------------------------------------------------------


def test_document_over_two_mib_names_the_limit() -> None:
    text = json.dumps(demo_doc())
    padded = text + " " * (MAX_DOCUMENT_BYTES - len(text.encode()) + 1)
    path, message = byte_violations(padded)[0]
    assert path == "$"
    assert "2 MiB" in message


def test_a_document_over_the_limit_is_refused_as_document_too_large_before_parsing() -> None:
    # Not JSON at all: the size is checked first, and callers (HTTP: 413) tell it by its type.
    with pytest.raises(DocumentTooLarge) as refused:
        parse_conversation(b"{" * (MAX_DOCUMENT_BYTES + 1))
    assert refused.value.size == MAX_DOCUMENT_BYTES + 1
    assert refused.value.errors[0][0] == "$"


def test_document_of_exactly_two_mib_is_accepted() -> None:
    text = json.dumps(demo_doc())
    padded = text + " " * (MAX_DOCUMENT_BYTES - len(text.encode()))
    assert len(padded.encode()) == MAX_DOCUMENT_BYTES
    assert parse_conversation(padded).conversation_id


def _many_messages(count: int) -> Doc:
    doc = demo_doc()
    doc["messages"] = [
        {
            "id": f"m{index}",
            "at": "2026-07-17T17:02:11Z",
            "author": "p1" if index % 2 else "clara",
            "direction": "inbound" if index % 2 else "outbound",
            "text": "ok",
        }
        for index in range(count)
    ]
    doc["turns"] = [{"id": "t1", "message_id": "m0", "trace": {"steps": []}}]
    return doc


def test_over_two_thousand_messages_names_the_limit() -> None:
    path, message = only_error(_many_messages(MAX_MESSAGES + 1))
    assert path == "messages"
    assert "2,000" in message


def test_two_thousand_messages_are_accepted() -> None:
    assert len(valid(_many_messages(MAX_MESSAGES)).messages) == MAX_MESSAGES


def _many_turns(count: int) -> Doc:
    doc = _many_messages(2 * count)
    doc["turns"] = [
        {"id": f"t{index}", "message_id": f"m{2 * index}", "trace": {"steps": []}} for index in range(count)
    ]
    return doc


def test_over_five_hundred_turns_names_the_limit() -> None:
    path, message = only_error(_many_turns(MAX_TURNS + 1))
    assert path == "turns"
    assert "500" in message


def test_five_hundred_turns_are_accepted() -> None:
    assert len(valid(_many_turns(MAX_TURNS)).turns) == MAX_TURNS


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (("messages", 0, "text"), "messages.0.text"),
        (("turns", 0, "trace", "steps", 0, "system_prompt"), "turns.0.trace.steps.0.system_prompt"),
        (("turns", 0, "trace", "steps", 2, "draft"), "turns.0.trace.steps.2.draft"),
        (("turns", 0, "trace", "steps", 1, "error"), "turns.0.trace.steps.1.error"),
        (("property", "facts", "arrival_instructions"), "property.facts.arrival_instructions"),
    ],
)
def test_text_field_over_64_kib_names_the_limit(where: tuple[str | int, ...], path: str) -> None:
    doc = demo_doc()
    _set(doc, where, "a" * (MAX_TEXT_CHARS + 1))
    found, message = only_error(doc)
    assert found == path
    assert str(MAX_TEXT_CHARS) in message


def test_text_field_of_exactly_64_kib_is_accepted() -> None:
    doc = demo_doc()
    doc["messages"][0]["text"] = "a" * MAX_TEXT_CHARS
    assert len(valid(doc).messages[0].text) == MAX_TEXT_CHARS


# --- not a document at all -------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["[]", "[1, 2]", '"a string"', "42", "null", "true"])
def test_non_object_json(raw: str) -> None:
    path, message = byte_violations(raw)[0]
    assert path == "$"
    assert "JSON object" in message


@pytest.mark.parametrize("raw", [b"{", b"", b"{'single': 'quotes'}", b"\xff\xfe\x00garbage", b"{} trailing"])
def test_invalid_json(raw: bytes) -> None:
    path, message = byte_violations(raw)[0]
    assert path == "$"
    assert "not valid JSON" in message


def test_an_integer_too_long_to_convert_is_invalid_json() -> None:
    """Python refuses to parse ints over 4,300 digits with a ValueError that is not a JSONDecodeError."""
    raw = '{"conversation_id": ' + "9" * 5000 + "}"
    path, message = byte_violations(raw)[0]
    assert path == "$"
    assert "not valid JSON" in message


def test_deeply_nested_json_is_rejected_not_crashed() -> None:
    raw = "[" * 100_000 + "]" * 100_000
    assert byte_violations(raw)[0][0] == "$"


def test_a_lone_surrogate_in_text_is_rejected_with_its_path() -> None:
    """JSON may escape half a UTF-16 pair; such text cannot be stored or hashed, so it is refused."""
    raw = json.dumps(demo_doc()).replace('"text": "Hi, I', '"text": "\\ud800Hi, I', 1)
    assert [path for path, _ in byte_violations(raw)] == ["messages.0.text"]


@pytest.mark.parametrize(
    ("where", "value", "path", "words"),
    [
        (
            ("turns", 0, "trace", "steps", 1, "result"),
            {"slot": "\ud800"},
            "turns.0.trace.steps.1.result.slot",
            "surrogate",
        ),
        (
            ("turns", 0, "trace", "steps", 1, "input"),
            {"date": "a\x00b"},
            "turns.0.trace.steps.1.input.date",
            "NUL",
        ),
        (("property", "facts", "pet_policy"), "\udfff", "property.facts.pet_policy", "surrogate"),
        (
            ("property", "facts", "amounts", "rent_2br"),
            float("nan"),
            "property.facts.amounts.rent_2br",
            "finite",
        ),
        (
            ("turns", 0, "trace", "steps", 1, "result"),
            [1, float("inf")],
            "turns.0.trace.steps.1.result.1",
            "finite",
        ),
        (("messages", 0, "text"), "nul\x00here", "messages.0.text", "NUL"),
        (("conversation_id",), "abc\x00", "conversation_id", "NUL"),
    ],
)
def test_free_form_json_that_could_not_be_stored_is_rejected(
    where: tuple[str | int, ...], value: object, path: str, words: str
) -> None:
    """Tool payloads and extra facts are free-form; a NaN, NUL or lone surrogate would pass the models
    and then fail at hashing or in PostgreSQL, so the contract refuses them with their path."""
    doc = demo_doc()
    _set(doc, where, value)
    found, message = only_error(doc)
    assert found == path
    assert words in message


def test_nan_literal_in_json_text_is_rejected() -> None:
    raw = json.dumps(demo_doc()).replace('"rent_2br": 1850', '"rent_2br": NaN', 1)
    assert byte_violations(raw)[0][0] == "property.facts.amounts.rent_2br"


def test_unknown_property_timezone() -> None:
    doc = demo_doc()
    doc["property"]["timezone"] = "Mars/Olympus_Mons"
    path, message = only_error(doc)
    assert path == "property.timezone"
    assert "IANA" in message


def test_a_str_with_a_lone_surrogate_is_a_violation_not_a_crash() -> None:
    assert byte_violations("\ud800")[0][0] == "$"


def test_violation_message_and_json_form() -> None:
    doc = demo_doc()
    doc["channel"] = "fax"
    doc["messages"][0]["language"] = "!!"
    with pytest.raises(ContractViolation) as caught:
        valid(doc)
    violation = caught.value
    assert [path for path, _ in violation.errors] == ["channel", "messages.0.language"]
    assert str(violation).startswith("channel: ") and str(violation).endswith("(and 1 more)")
    assert [entry["path"] for entry in violation.as_json()] == ["channel", "messages.0.language"]


def test_errors_are_collected_not_just_the_first() -> None:
    doc = demo_doc()
    doc["channel"] = "fax"
    doc["participants"][0]["role"] = "tenant"
    doc["settled_at"] = "yesterday"
    assert {path for path, _ in violations(doc)} == {"channel", "participants.0.role", "settled_at"}


def _set(doc: Doc, where: tuple[str | int, ...], value: object) -> None:
    target: object = doc
    for key in where[:-1]:
        target = target[key]  # type: ignore[index]
    target[where[-1]] = value  # type: ignore[index]
