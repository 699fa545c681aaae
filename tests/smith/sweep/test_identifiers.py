"""Issue 22, point 1: residents' identifiers never reach a fixture, and harmless text is not refused.

Each planted item is checked on both sides, as the sweep relies on both: the independent leak scan
sees it in the ORIGINAL text (so a fixture still holding it would be refused), and the anonymizer
removes it (so the written fixture passes the scan).
"""

from __future__ import annotations

import pytest

from gradecore.model.contract import Conversation
from smith.anonymizer.identifiers import dni_valid, iban_valid, luhn_valid
from smith.leaks import LeakWatchlist, find_leaks
from tests.smith.sweep.helpers import one_message, written_fixture


def _conversation(text: str, *, name: str = "Jordan Avery") -> Conversation:
    return one_message(text, conversation_id="c-issue22", name=name)


def _leaks(text: str, conversation: Conversation) -> list[str]:
    return [leak.kind for leak in find_leaks(text, LeakWatchlist.from_conversation(conversation))]


@pytest.mark.parametrize(
    ("said", "kind", "planted"),
    [
        ("my card is 4111 1111 1111 1111", "card", "4111"),
        ("tarjeta 5500-0000-0000-0004 por favor", "card", "5500"),
        ("SSN 123-45-6789", "ssn", "6789"),
        ("my ITIN is 912 70 1234", "ssn", "912 70"),
        ("mi seguro social es 123456789", "ssn", "123456789"),
        ("DOB 03/04/1990", "birth_date", "1990"),
        ("I was born on March 4, 1990", "birth_date", "1990"),
        ("fecha de nacimiento: 4 de marzo de 1990", "birth_date", "1990"),
        ("nací el 04/03/1990", "birth_date", "1990"),
        ("routing 021000021", "bank", "021000021"),
        ("account number 123456789012", "bank", "123456789012"),
        ("mi cuenta es 00012345678", "bank", "00012345678"),
        ("IBAN ES91 2100 0418 4502 0005 1332", "iban", "0418"),
        ("the IBAN is GB82WEST12345698765432", "iban", "GB82"),
        ("passport number X1234567", "id_document", "1234567"),
        ("driver's license D1234-5678", "id_document", "D1234"),
        ("mi DNI es 12345678Z", "id_document", "12345678"),
        ("vivo en apartamento 317q", "unit", "317q"),
        ("estoy en la unidad B-12", "unit", "B-12"),
        ("depto. 4B", "unit", "4B"),
    ],
)
def test_each_identifier_is_seen_by_the_scan_and_removed_by_the_anonymizer(
    said: str, kind: str, planted: str
) -> None:
    conversation = _conversation(f"Hello. {said}. Thanks")
    assert kind in _leaks(said, conversation)
    written = written_fixture(conversation)
    assert planted not in written
    assert _leaks(written, conversation) == []


def test_every_half_of_a_hyphenated_surname_goes() -> None:
    conversation = _conversation(
        "I am Ana Smith-Jones; Ms. Jones is me. Ask Sra. Carmen Ortiz-Beltrán too", name="Ana Smith-Jones"
    )
    assert "name" in _leaks("Ms. Jones", conversation)  # one half alone is watched
    assert "mentioned_name" in _leaks("Sra. Underhill-Beltrán", conversation)  # the half left over
    written = written_fixture(conversation)
    for part in ("Smith", "Jones", "Ortiz", "Beltr"):
        assert part not in written
    assert _leaks(written, conversation) == []


def test_a_spelled_out_address_goes_whole_local_part_included() -> None:
    conversation = _conversation("write to quinlan dot ashworth at gmail dot com")
    assert "email" in _leaks("mail quinlan dot contact-1@example.test", conversation)
    written = written_fixture(conversation)
    assert "quinlan" not in written and "ashworth" not in written
    assert _leaks(written, conversation) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Write to <mailto:office@camellia-homes.com|the office> any time.", "Jordan Avery"),
        ("Call the office at 415-555-0187 ext. 42 tomorrow.", "Jordan Avery"),
        ("The tour is on 07/21/2026 at 3:30 pm.", "June Smith"),  # "smith" is in the format's name
        ("Fine, thanks.", "Grace Level"),  # "level" is a key of the machine grade
        ("Fine, thanks.", "Hope Reason"),  # and "reason" one of the fixture
        ("Your account is up to date; the deposit is $1,850.00.", "Will Price"),
    ],
)
def test_harmless_text_is_not_refused(text: str, name: str) -> None:
    conversation = _conversation(text, name=name)
    assert _leaks(written_fixture(conversation), conversation) == []


def test_the_checksums() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert iban_valid("ES91 2100 0418 4502 0005 1332") and not iban_valid("ES92 2100 0418 4502 0005 1332")
    assert dni_valid("12345678", "Z") and not dni_valid("12345678", "A")
    assert dni_valid("X1234567", "L")
