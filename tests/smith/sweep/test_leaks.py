"""The independent leak scan: what it reports, what it lets through, and that it catches a bad fixture."""

from __future__ import annotations

import json
import random
import uuid

import pytest

import smith.anonymizer.scrubber
from smith.anonymizer import anonymize
from smith.leaks import LeakWatchlist, describe_leaks, find_leaks
from smith.regression_fixtures import fixture_bytes, fixture_file
from tests.smith.sweep.helpers import demo, fixture_from

NOBODY = LeakWatchlist()


@pytest.mark.parametrize(
    "text",
    [
        "Rent is $1,850 per month",
        "Deposit $2,400.00, fee $45",
        "Tour at 3:00 PM",
        "open 9:00-18:00",
        "on 2026-07-17T17:02:11Z",
        "on 7/17/2026",
        "total 1850 USD",
        "call +1 000-555-0001 or +1 000-555-0042",
        "turn 5200 tokens",
        "hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "mail casey.reed@example.test",
    ],
)
def test_harmless_text_is_not_a_leak(text: str) -> None:
    assert find_leaks(text, NOBODY) == []


def test_timestamps_with_fractions_of_a_second_are_not_phone_numbers() -> None:
    # CI once refused the demo's fixture: its `created_at` ended `T16:49:13.318290+00:00`, and
    # `13.318290` is a possible US number. Every fraction a timestamp can carry must pass.
    rng = random.Random(11)
    stamps = [
        f"2026-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}T{rng.randint(0, 23):02}:"
        f"{rng.randint(0, 59):02}:{rng.randint(0, 59):02}.{rng.randint(0, 999_999):06}"
        f"{rng.choice(['+00:00', 'Z', '-07:00', ''])}"
        for _ in range(2_000)
    ]
    assert find_leaks(json.dumps({"created_at": "2026-11-02T16:49:13.318290+00:00"}), NOBODY) == []
    assert find_leaks(json.dumps({"stamps": stamps}), NOBODY) == []


def test_a_number_beside_a_timestamp_is_still_a_leak() -> None:
    leaks = find_leaks('{"at": "2026-11-02T16:49:13.318290+00:00", "note": "call 415-555-0123"}', NOBODY)
    assert [leak.kind for leak in leaks] == ["phone"]


def test_uuids_are_identifiers_not_phone_numbers() -> None:
    rng = random.Random(7)
    ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(500)]
    assert find_leaks(json.dumps({"ids": ids}), NOBODY) == []


@pytest.mark.parametrize(
    "text",
    [
        "+14155550123",
        "(415) 555-0123",
        "415-555-0123",
        "415.555.0123",
        "415 555 0123",
        "+1 415 555 0123",
        "1-415-555-0123",
        "x4155550123",
        "+44 20 7946 0958",
        "555-0187",
        "Office\\n415-555-0123",  # a name here would now be a leak of its own (a mentioned name)
    ],
)
def test_any_possible_phone_number_is_a_leak(text: str) -> None:
    leaks = find_leaks(f"text: {text} end", NOBODY)
    assert [leak.kind for leak in leaks] == ["phone"]
    assert "0123" not in leaks[0].snippet and "0187" not in leaks[0].snippet


def test_emails_outside_example_test_leak() -> None:
    leaks = find_leaks(
        "a@example.test, Jordan.Avery@Outlook.com, x@EXAMPLE.TEST., b@example.test.evil.com", NOBODY
    )
    assert [(leak.kind, leak.snippet) for leak in leaks] == [
        ("email", "J•••@•••.com"),
        ("email", "b•••@•••.com"),
    ]


def test_original_names_and_codes_are_found_in_any_case_and_accent() -> None:
    watchlist = LeakWatchlist.from_conversation(demo("camellia-wrong-language"))  # Lucía Fernández, code 4821
    text = "LUCIA wrote; fernandez's file; Lucía Fernández again; code 4821; 48210 is fine; lucian too"
    leaks = find_leaks(text, watchlist)
    assert [(leak.kind, text[leak.position : leak.position + 5]) for leak in leaks] == [
        ("name", "LUCIA"),
        ("name", "ferna"),
        ("name", "Lucía"),  # the full name: one leak
        ("access_code", "4821;"),
    ]
    assert all("Lucía" not in leak.snippet and "4821" not in leak.snippet for leak in leaks)
    assert leaks[-1].snippet == "••21"


def test_the_placeholder_code_and_fake_numbers_are_not_the_original_code() -> None:
    watchlist = LeakWatchlist().with_codes("0000", "555")
    assert find_leaks("code 0000, call +1 000-555-0001", watchlist) == []
    assert [leak.kind for leak in find_leaks("code 555", watchlist)] == ["access_code"]


def test_a_name_the_watchlist_gains_is_found_in_a_clean_fixture() -> None:
    original = demo("camellia-double-send")
    written = fixture_bytes(
        fixture_from(anonymize(original, up_to_turn="t1"), original, turn_id="t1")
    ).decode()
    watchlist = LeakWatchlist.from_conversation(original)
    assert find_leaks(written, watchlist) == []
    leaks = find_leaks(written, watchlist.with_names("Camellia Gardens"))
    assert leaks and {leak.kind for leak in leaks} == {"name"}


def test_a_fixture_from_a_broken_anonymizer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulate an anonymizer that stopped finding phone numbers in texts.
    monkeypatch.setattr(smith.anonymizer.scrubber, "find_phones", lambda text, own: [])
    original = demo("camellia-double-send")
    fixture = fixture_from(anonymize(original, up_to_turn="t1"), original, turn_id="t1")
    leaks = find_leaks(fixture_file(fixture).payload.decode(), LeakWatchlist.from_conversation(original))
    assert leaks and {leak.kind for leak in leaks} == {"phone"}
    report = describe_leaks(leaks)
    assert report.startswith(f"{len(leaks)} leak") and "phone •••-•••-••87" in report
    assert "415-555-0187" not in report


def test_a_fixture_with_an_original_value_put_back_is_caught() -> None:
    original = demo("camellia-double-send")
    fixture = fixture_from(anonymize(original, up_to_turn="t1"), original, turn_id="t1", kind="grader")
    fixture["input"]["messages"][0]["text"] += " (jordan.avery@outlook.com, gate 4821, JORDAN)"
    kinds = [
        leak.kind
        for leak in find_leaks(fixture_bytes(fixture).decode(), LeakWatchlist.from_conversation(original))
    ]
    # The address is reported as an address and, because it spells the name, as the name too.
    assert kinds == ["email", "name", "access_code", "name"]


def test_a_code_equal_to_a_token_count_is_not_a_leak_but_anywhere_else_it_is() -> None:
    watchlist = LeakWatchlist().with_codes("4821")
    text = '{"input_tokens": 4821, "gate": 4821, "note": "code 4821"}'
    assert [text[leak.position - 8 : leak.position] for leak in find_leaks(text, watchlist)] == [
        '"gate": ',
        ': "code ',
    ]
