"""The anonymizer on the real demo documents and on the name forms, phones and cuts it must handle."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gradecore.model.contract import Conversation, validate_conversation
from smith.anonymizer import AnonymizationError, UnknownTurn, anonymize
from smith.regression_fixtures import fixture_bytes
from tests.smith.sweep.helpers import demo, fixture_from


def _conversation(
    text: str, *, name: str = "María José García", extra: dict[str, Any] | None = None
) -> Conversation:
    document: dict[str, Any] = {
        "schema": "smith.conversation/v1",
        "conversation_id": "c-forms",
        "channel": "sms",
        "property": {
            "id": "camellia",
            "name": "Camellia",
            "timezone": "America/Los_Angeles",
            "locale": "en",
            "facts": {"access_codes": ["4821", "A7c9"]},
        },
        "participants": [
            {
                "id": "p1",
                "role": "prospect",
                "name": name,
                "phone": "+1 (415) 555-0187",
                "email": "MJ.Garcia@Mail.com",
            },
            {"id": "clara", "role": "clara"},
        ],
        "messages": [
            {"id": "m1", "at": "2026-07-17T17:00:00Z", "author": "p1", "direction": "inbound", "text": text}
        ],
        "settled_at": "2026-07-18T00:00:00Z",
        **(extra or {}),
    }
    return validate_conversation(document)


def _scrubbed(text: str, **kwargs: Any) -> tuple[str, str]:
    """The anonymized text and the pseudonym's full name."""
    anonymized = anonymize(_conversation(text, **kwargs), up_to_turn=None)
    name = anonymized.conversation.participants[0].name
    assert name is not None
    return anonymized.conversation.messages[0].text, name


def test_the_double_send_demo_loses_every_personal_detail() -> None:
    original = demo("camellia-double-send")
    anonymized = anonymize(original, up_to_turn="t1")
    written = fixture_bytes(fixture_from(anonymized, original, turn_id="t1")).decode()
    for secret in ("Jordan", "Avery", "415-555-0187", "(415) 555-0187", "outlook", "4821", "jordan"):
        assert secret not in written
    person = anonymized.conversation.participants[0]
    assert person.phone == "+1 000-555-0001"
    assert person.email is not None and person.email.endswith("@example.test")
    first = (person.name or "").split()[0]
    # The number in the text is the participant's number: the same stand-in.
    assert anonymized.conversation.messages[0].text.endswith(f"Thanks, {person.name}, +1 000-555-0001")
    assert anonymized.conversation.messages[2].text.startswith(f"Hi {first}, sorry")
    final = anonymized.conversation.turns[0].trace.final_claude_call
    assert final is not None and "buzz code 0000 at the front gate" in (final.draft or "")
    assert anonymized.conversation.property.facts.access_codes == ["0000"]
    # The reason a human wrote gets the same pseudonym and the same fake number.
    assert (
        anonymized.scrub_text("Jordan Avery's tour, 415-555-0187") == f"{person.name}'s tour, +1 000-555-0001"
    )


@pytest.mark.parametrize(
    "name",
    [
        "birchwood-dead-thread",
        "birchwood-rent-mismatch",
        "camellia-wrong-language",
        "lampliter-unbacked-promise",
        "oakridge-clean-maintenance",
    ],
)
def test_every_demo_keeps_its_structure(name: str) -> None:
    original = demo(name)
    anonymized = anonymize(original, up_to_turn=None).conversation
    assert [m.id for m in anonymized.messages] == [m.id for m in original.messages]
    assert [t.id for t in anonymized.turns] == [t.id for t in original.turns]
    assert anonymized.conversation_id == original.conversation_id
    for before, after in zip(original.participants, anonymized.participants, strict=True):
        assert (after.id, after.role) == (before.id, before.role)
        if before.name and before.role not in ("clara", "system"):
            assert after.name and after.name != before.name
            assert not set(before.name.split()) & set(after.name.split())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi María José García!", "Hi {full}!"),
        ("maría's lease", "{first_lower}'s lease"),
        ("MARIA JOSE GARCIA signed", "{full_upper} signed"),
        ("Thanks, Maria", "Thanks, {first}"),
        ("Ms. Garcia called", "Ms. {last} called"),
        ("García’s unit", "{last}’s unit"),
        ("Mari\u0301a is here", "{first} is here"),
    ],
)
def test_names_are_replaced_in_every_form(text: str, expected: str) -> None:
    scrubbed, full = _scrubbed(text)
    first, middle, last = full.split()
    assert middle != first
    wanted = expected.format(
        full=full, first=first, last=last, first_lower=first.lower(), full_upper=full.upper()
    )
    assert scrubbed == wanted


def test_only_whole_words_are_names() -> None:
    scrubbed, _ = _scrubbed("Jordanian food at Jordans", name="Jordan Avery")
    assert scrubbed == "Jordanian food at Jordans"


@pytest.mark.parametrize(
    "written",
    [
        "+14155550187",
        "(415) 555-0187",
        "415-555-0187",
        "415.555.0187",
        "415 555 0187",
        "+1 415 555 0187",
        "1-415-555-0187",
        "4155550187",
        "+1.415.555.0187",
    ],
)
def test_the_participant_number_in_any_format_gets_its_stand_in(written: str) -> None:
    scrubbed, _ = _scrubbed(f"call me at {written} please")
    assert scrubbed == "call me at +1 000-555-0001 please"


def test_other_numbers_get_their_own_stable_stand_ins() -> None:
    scrubbed, _ = _scrubbed(
        "me 415-555-0187, my brother 303.555.0199 or (303) 555-0199, office +44 20 7946 0958"
    )
    assert (
        scrubbed
        == "me +1 000-555-0001, my brother +1 000-555-0002 or +1 000-555-0002, office +1 000-555-0003"
    )


def test_emails_codes_money_and_times() -> None:
    scrubbed, full = _scrubbed(
        "Mail MJ.GARCIA@mail.COM or leasing@camellia-homes.com; code 4821, #4821 and a7C9 (not 48210). "
        "Rent $1,850 at 3:00 PM on 2026-07-17."
    )
    own = ".".join(full.lower().split()[::2]) + "@example.test"
    assert scrubbed == (
        f"Mail {own} or contact-1@example.test; code 0000, #0000 and 0000 (not 48210). "
        "Rent $1,850 at 3:00 PM on 2026-07-17."
    )


def test_titles_and_clara_are_not_names() -> None:
    scrubbed, full = _scrubbed("Dr. Avery met Clara, the assistant", name="Dr. Jordan Avery")
    assert scrubbed == f"Dr. {full.split()[1]} met Clara, the assistant"
    assert full.count(" ") == 1


def _with_turns() -> Conversation:
    document = json.loads(demo("camellia-double-send").model_dump_json(by_alias=True))
    document["messages"].append(
        {
            "id": "m4",
            "at": "2026-07-17T17:30:00Z",
            "author": "clara",
            "direction": "outbound",
            "text": "Later.",
        }
    )
    document["turns"].append({"id": "t2", "message_id": "m4", "trace": {"steps": []}})
    document["escalations"] = [
        {
            "id": "e1",
            "opened_at": "2026-07-17T17:03:00Z",
            "closed_at": "2026-07-17T17:20:00Z",
            "to": "Dana Whit",
        },
        {"id": "e2", "opened_at": "2026-07-17T17:25:00Z", "to": "leasing"},
    ]
    return validate_conversation(document)


def test_the_cut_keeps_everything_up_to_the_graded_turn_only() -> None:
    conversation = _with_turns()
    first = anonymize(conversation, up_to_turn="t1").conversation
    assert [m.id for m in first.messages] == ["m1", "m2", "m3"]
    assert [t.id for t in first.turns] == ["t1"]
    # e1 was open at the cut (its close comes later); e2 opened after it.
    assert [(e.id, e.closed_at) for e in first.escalations] == [("e1", None)]
    whole = anonymize(conversation, up_to_turn=None).conversation
    assert [m.id for m in whole.messages] == ["m1", "m2", "m3", "m4"]
    assert [e.id for e in whole.escalations] == ["e1", "e2"]
    assert [t.id for t in anonymize(conversation, up_to_turn="t2").conversation.turns] == ["t1", "t2"]


def test_an_unknown_turn_is_refused() -> None:
    with pytest.raises(UnknownTurn, match="no turn 't9'"):
        anonymize(demo("camellia-double-send"), up_to_turn="t9")


def test_the_pseudonym_map_never_shows_in_a_repr() -> None:
    anonymized = anonymize(demo("camellia-double-send"), up_to_turn=None)
    assert "Jordan" not in repr(anonymized)
    assert not hasattr(anonymized, "__dict__")


def test_a_text_pushed_past_the_contract_limit_is_refused_as_a_value_error() -> None:
    # "Al" becomes a longer pseudonym many times over: the message outgrows the 64 KiB limit.
    text = ("Al " * 21_800).strip()
    with pytest.raises(AnonymizationError, match=r"breaks the contract: messages\.0\.text") as caught:
        anonymize(_conversation(text, name="Al Bo"), up_to_turn=None)
    assert isinstance(caught.value, ValueError)
    assert "Al Al" not in str(caught.value)
