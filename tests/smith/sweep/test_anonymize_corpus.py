"""The anonymizer over a generated corpus of 520 conversations, checked by the independent leak scan."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from gradecore.model.contract import Conversation, parse_conversation, validate_conversation
from smith.anonymizer import AnonymizedConversation, anonymize
from smith.leaks import LeakWatchlist, find_leaks
from smith.regression_fixtures import FixtureKind, fixture_bytes, fixture_file
from tests.smith.sweep.corpus import Generated, corpus
from tests.smith.sweep.helpers import fixture_from

CORPUS_SIZE = 520
KINDS: tuple[FixtureKind, ...] = ("grader", "clara", "ours")


@dataclass
class Case:
    generated: Generated
    original: Conversation
    cut: str | None
    kind: FixtureKind
    anonymized: AnonymizedConversation
    fixture: dict[str, object]


def _cut(index: int, conversation: Conversation) -> str | None:
    choices: list[str | None] = [None, *(turn.id for turn in conversation.turns)]
    return random.Random(index).choice(choices)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    built: list[Case] = []
    for index, generated in enumerate(corpus(CORPUS_SIZE)):
        original = validate_conversation(generated.document)
        cut = _cut(index, original)
        anonymized = anonymize(original, up_to_turn=cut)
        kind = KINDS[index % 3]
        fixture = fixture_from(anonymized, original, kind=kind, turn_id=cut, reason=_reason(generated))
        built.append(Case(generated, original, cut, kind, anonymized, fixture))
    return built


def _reason(generated: Generated) -> str:
    lead = generated.people[0]
    code = generated.codes[0]
    return f"{lead.first} said {lead.phones[1]} and {lead.email}; code {code} should never be shown."


def test_the_corpus_is_large_and_full_of_personal_data(cases: list[Case]) -> None:
    assert len(cases) >= 500
    kinds: set[str] = set()
    for case in cases[::5]:
        original_text = json.dumps(case.generated.document, ensure_ascii=False)
        kinds |= {
            leak.kind for leak in find_leaks(original_text, LeakWatchlist.from_conversation(case.original))
        }
    # Without anonymization the scan finds every kind: the zero-leak test below is not vacuous.
    # (The wider scan also finds this corpus's unit numbers, addresses and mentioned names.)
    assert kinds >= {"phone", "email", "name", "access_code"}


def test_no_fixture_of_the_corpus_leaks(cases: list[Case]) -> None:
    leaking = {}
    for case in cases:
        watchlist = LeakWatchlist.from_conversation(case.original)
        # What would be written: the fixture JSON, or for `ours` the ticket (which embeds that JSON).
        written = fixture_file(case.fixture).payload.decode()
        leaks = find_leaks(written, watchlist)
        if leaks:
            leaking[case.original.conversation_id] = leaks[:3]
    assert leaking == {}


def test_anonymized_documents_still_fit_the_contract(cases: list[Case]) -> None:
    for case in cases:
        reparsed = parse_conversation(json.dumps(case.anonymized.document))
        assert reparsed == case.anonymized.conversation
        if case.cut is not None:
            graded = case.original.message(
                case.original.turns[[t.id for t in case.original.turns].index(case.cut)].message_id
            )
            assert reparsed.messages[-1].id == graded.id


def test_the_same_person_has_the_same_pseudonym_everywhere(cases: list[Case]) -> None:
    for case in cases:
        lead, staff = case.generated.people
        document = case.anonymized.document
        participants = {p["id"]: p for p in document["participants"]}
        words = participants[lead.id]["name"].split()
        first, last, full = words[0], " ".join(words[1:]), " ".join(words)
        expected = {
            "full": full,
            "first": first,
            "last": last,
            "possessive": f"{first}'s",
            "lower": first.lower(),
            "upper": full.upper(),
            "unaccented": full,
            "title": f"Ms. {last}",
        }
        for message_index, _, form in case.generated.mentions:
            if message_index < len(document["messages"]):
                assert expected[form] in document["messages"][message_index]["text"], (form, full)
        staff_name = participants[staff.id]["name"]
        facts = document["property"]["facts"]
        assert facts["manager_contact"]["name"] == staff_name
        assert facts["manager_contact"]["email"] == participants[staff.id]["email"]
        assert f"Ask for {staff_name} at the desk" in facts["arrival_instructions"]
        for turn in document["turns"]:
            prompt, lookup = turn["trace"]["steps"][0]["system_prompt"], turn["trace"]["steps"][1]
            assert (
                f"talking to {full} ({participants[lead.id]['phone']}, {participants[lead.id]['email']})"
                in prompt
            )
            assert f"Escalate to {staff_name} at {participants[staff.id]['phone']}" in prompt
            assert lookup["input"] == {"name": first.lower(), "phone": participants[lead.id]["phone"]}
            if lookup["result"] is not None:
                assert lookup["result"]["contact"]["email"] == participants[lead.id]["email"]
                assert lookup["result"]["contact"]["phone"] == participants[lead.id]["phone"]


def test_pseudonyms_differ_from_the_real_names_and_between_people(cases: list[Case]) -> None:
    for case in cases:
        names = [
            p.name for p in case.anonymized.conversation.participants if p.role not in ("clara", "system")
        ]
        assert len(set(names)) == len(names)
        for person in case.generated.people:
            assert person.first not in " ".join(n or "" for n in names)


def test_anonymizing_is_deterministic(cases: list[Case]) -> None:
    for case in cases[:150]:
        again = anonymize(validate_conversation(case.generated.document), up_to_turn=case.cut)
        fixture = fixture_from(
            again,
            case.original,
            kind=case.kind,
            turn_id=case.cut,
            reason=_reason(case.generated),
        )
        assert fixture_bytes(fixture) == fixture_bytes(case.fixture)
