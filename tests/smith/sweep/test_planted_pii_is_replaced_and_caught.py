"""Personal data planted in a message is replaced by the anonymizer and caught by the leak scan, one kind
per test (each reproduced a leak into fixtures; every one failed before its fix).

Each plants the item in a message, anonymizes the conversation as the sweep does, and checks both
sides: the anonymizer replaced it (the item is gone from the written fixture) and the independent leak
scan, run on the ORIGINAL text, reports it (so a fixture that still held it would be refused).
"""

from __future__ import annotations

import json

import pytest

from gradecore.model.contract import Conversation, validate_conversation
from smith.anonymizer import anonymize
from smith.leaks import LeakWatchlist, find_leaks
from tests.smith.sweep.helpers import one_message, written_fixture


def _conversation(text: str, *, conversation_id: str = "c-issue10") -> Conversation:
    return one_message(text, conversation_id=conversation_id, role="prospect")


def _scan_kinds(text: str, conversation: Conversation) -> set[str]:
    return {leak.kind for leak in find_leaks(text, LeakWatchlist.from_conversation(conversation))}


@pytest.mark.parametrize(
    ("said", "kind", "planted"),
    [
        ("call me at six four six seven five one two three four four", "phone", "six four six"),
        ("llámame al dos uno tres cuatro cinco seis siete ocho nueve cero", "phone", "dos uno tres"),
        ("it's 6 four 6 7 five 1 2 3 4 4", "phone", "6 four 6"),
        ("six four six, seven five one, twenty-three forty-four", "phone", "twenty-three"),
        ("write to pat.lee (at) gmail (dot) com", "email", "pat.lee"),
        ("write to pat.lee at gmail dot com", "email", "pat.lee"),
        ("escribe a pat.lee arroba gmail punto com", "email", "pat.lee"),
        ("I live at 742 Evergreen Terrace now", "address", "742 Evergreen"),
        ("vivo en Calle Mayor 12, cerca del parque", "address", "Calle Mayor 12"),
        ("I'm in Apt 4B", "unit", "4B"),
        ("estoy en el depto 3", "unit", "depto 3"),
        ("the gate code is 7319", "code", "7319"),  # not the ledger's 4821
        ("la clave del portón es 5521", "code", "5521"),
        ("ask for Roberto Salazar at the front desk", "mentioned_name", "Roberto"),
        ("talk to Dr. Okonkwo", "mentioned_name", "Okonkwo"),
    ],
)
def test_each_planted_item_is_replaced_and_the_scan_would_catch_it(
    said: str, kind: str, planted: str
) -> None:
    conversation = _conversation(f"Hello. {said}. Thanks")
    assert kind in _scan_kinds(said, conversation)  # the scan sees it in the original
    written = written_fixture(conversation)
    assert planted not in written
    assert find_leaks(written, LeakWatchlist.from_conversation(conversation)) == []


def test_a_ten_digit_run_in_a_conversation_id_is_not_a_phone_leak() -> None:
    """`col1796136155` (an epoch timestamp in an id) made the scan refuse the fixture as a phone leak."""
    conversation = _conversation("Is the 2-bedroom still free?", conversation_id="col1796136155")
    written = written_fixture(conversation)
    assert '"conversation_id": "col1796136155"' in written  # ids are kept as they are
    assert find_leaks(written, LeakWatchlist.from_conversation(conversation)) == []
    # The same digits standing alone are still a number someone could dial.
    assert [leak.kind for leak in find_leaks("call 1796136155 now", LeakWatchlist())] == ["phone"]


def test_a_spoken_number_gets_the_same_stand_in_as_the_number_written_in_digits() -> None:
    conversation = _conversation(
        "my cell is 646-751-2344, that is six four six seven five one two three four four"
    )
    text = anonymize(conversation, up_to_turn=None).conversation.messages[0].text
    stand_ins = [piece for piece in text.split() if piece.startswith("000-555-")]
    assert len(stand_ins) == 2 and stand_ins[0].rstrip(",") == stand_ins[1]


def test_a_unit_in_a_tool_input_and_in_a_message_is_one_placeholder() -> None:
    document = json.loads(json.dumps(_conversation("I'm in unit 12B").model_dump(mode="json", by_alias=True)))
    document["turns"] = []
    conversation = validate_conversation(document)
    anonymized = anonymize(conversation, up_to_turn=None)
    assert anonymized.conversation.messages[0].text == "I'm in [unit 1]"
    assert anonymized.scrub_json({"unit": "12B", "issue": "sink"}) == {"unit": "[unit 1]", "issue": "sink"}
