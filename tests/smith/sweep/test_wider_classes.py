"""The wider classes' finders, on what they must take and on what they must leave alone."""

from __future__ import annotations

import pytest

from smith.anonymizer.obfuscated_emails import find_obfuscated_emails
from smith.anonymizer.places import find_places
from smith.anonymizer.spoken_numbers import find_spoken_numbers
from smith.anonymizer.strangers import find_mentioned_names
from smith.leaks.scan import LeakWatchlist, find_leaks


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("six four six seven five one two three four four", "6467512344"),
        ("dos uno tres cuatro cinco seis siete ocho nueve cero", "2134567890"),
        ("6 four 6 7 five 1 2 3 4 4", "6467512344"),
        ("six four six, seven five one, twenty-three forty-four", "6467512344"),
        ("seis cuatro seis, siete cinco uno, veintitrés cuarenta y cuatro", "6467512344"),
        ("nine six four, eight seven nine, oh eight eighty-five", "9648790885"),
        ("Six-four-six 751 2344", "6467512344"),
    ],
)
def test_spoken_numbers_are_read_as_their_digits(text: str, digits: str) -> None:
    assert [found.digits for found in find_spoken_numbers(f"call {text} now")] == [digits]


@pytest.mark.parametrize(
    "text",
    ["I have two kids and 3 dogs", "see you at 3 pm on the 12th, one 2026-12-01", "one two three four", ""],
)
def test_counts_dates_and_short_runs_are_not_phone_numbers(text: str) -> None:
    assert find_spoken_numbers(text) == []


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("write to ana.lopez (at) gmail (dot) com please", "ana.lopez@gmail.com"),
        ("ana at gmail dot com.", "ana@gmail.com"),
        ("ana[at]gmail.com", "ana@gmail.com"),
        ("escribe a ana arroba gmail punto com", "ana@gmail.com"),
        ("ana at gmail.com", "ana@gmail.com"),
        ("Ana.Lopez {at} Outlook [dot] es.", "ana.lopez@outlook.es"),
    ],
)
def test_disguised_addresses_are_read_as_the_address_they_spell(text: str, address: str) -> None:
    assert [found.address for found in find_obfuscated_emails(text)] == [address]


@pytest.mark.parametrize(
    "text",
    [
        "apply at aspenglenboise.com/apply today",
        "me at 415.555.0187",
        "Please email me at SAM.SMITH-JONES@GMAIL.COM",  # an ordinary address: the plain scan's
        "we are at the office",
    ],
)
def test_web_addresses_numbers_and_plain_addresses_are_not_disguised_ones(text: str) -> None:
    assert find_obfuscated_emails(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "I live at 742 Evergreen Terrace, Apt 4B",
            [("address", "742 Evergreen Terrace"), ("unit", "Apt 4B")],
        ),
        ("12 N. Main St. unit 12", [("address", "12 N. Main St."), ("unit", "unit 12")]),
        ("Vivo en Calle Mayor 12, depto 3", [("address", "Calle Mayor 12"), ("unit", "depto 3")]),
        ("the gate code is 4821#", [("code", "4821#")]),
        ("door code for building A is 7733", [("code", "7733")]),
        ("la clave de la caja es 77A3", [("code", "77A3")]),
        ("call #305 now", [("unit", "#305")]),
    ],
)
def test_addresses_units_and_cued_codes_are_found(text: str, found: list[tuple[str, str]]) -> None:
    assert [(hit.kind, text[hit.start : hit.end]) for hit in find_places(text)] == found


@pytest.mark.parametrize(
    "text",
    [
        "we have 2 dogs",
        "meeting at 10:30 by the door 4",
        "it costs $1,850 per month at 12:00 PM is fine",
        "Welcome to Aspen Glen Apartments!",
        "two departamentos y tres flats",
        "you're our #1 priority",
    ],
)
def test_ordinary_text_holds_no_place(text: str) -> None:
    assert find_places(text) == []


def test_mentioned_people_are_found_with_their_surnames_and_titles() -> None:
    text = "Sra. Ramírez y José Luis Pérez llegan; ask for Maria López. Don't worry, Maria's key is here."
    names = [(text[n.start : n.end], n.surname) for n in find_mentioned_names(text, frozenset())]
    assert names == [
        ("Ramírez", True),
        ("José", False),
        ("Luis", True),
        ("Pérez", True),
        ("Maria", False),
        ("López", True),
        ("Maria", False),
    ]


def test_kept_words_days_and_contractions_are_not_people() -> None:
    text = "You are Clara for Camellia. Tell Maria Monday. Don't panic. Hope you're well. Will do!"
    names = [text[n.start : n.end] for n in find_mentioned_names(text, frozenset({"clara"}))]
    assert names == ["Maria"]


def test_the_leak_scan_ignores_the_anonymizers_placeholders() -> None:
    text = 'I live at [address 1], [unit 2]; the gate code is 0000. "unit": "[unit 1]", #0000'
    assert find_leaks(text, LeakWatchlist()) == []
