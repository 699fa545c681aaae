"""The `smith.fixture/v1` format: building, stable bytes, file names, and loading with clear errors."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smith.anonymizer import anonymize
from smith.regression_fixtures import (
    FixtureFormatError,
    build_fixture,
    fixture_bytes,
    fixture_file,
    fixture_hash,
    load_fixture,
)
from smith.regression_fixtures.format import item_stem
from tests.profiles import examples
from tests.smith.sweep.helpers import CREATED, demo, fixture_from


@pytest.fixture
def fixture() -> dict[str, Any]:
    original = demo("camellia-double-send")
    return fixture_from(anonymize(original, up_to_turn="t1"), original, kind="grader", turn_id="t1")


def test_a_fixture_holds_what_the_spec_lists(fixture: dict[str, Any]) -> None:
    assert set(fixture) == {
        "format",
        "kind",
        "verdict_id",
        "created_at",
        "conversation_id",
        "turn_id",
        "expected_level",
        "reason",
        "machine_grade_at_time",
        "grader_user_id",
        "principles",
        "input",
    }
    assert fixture["format"] == "smith.fixture/v1"
    assert (fixture["kind"], fixture["expected_level"], fixture["grader_user_id"]) == ("grader", "hold", 17)
    assert fixture["conversation_id"] == "5ccefeb1-fd5b-4a67-aeeb-ea0f7137f437"
    assert fixture["created_at"] == "2026-07-18T03:00:00Z"
    assert fixture["input"]["schema"] == "smith.conversation/v1"


def test_bytes_are_stable_sorted_and_end_with_a_newline(fixture: dict[str, Any]) -> None:
    data = fixture_bytes(fixture)
    assert data.endswith(b"}\n") and data.startswith(b'{\n  "conversation_id"')
    assert data == fixture_bytes(json.loads(data))
    shuffled = dict(reversed(list(fixture.items())))
    assert fixture_hash(shuffled) == fixture_hash(fixture)
    assert len(fixture_hash(fixture)) == 64
    assert fixture_hash({**fixture, "expected_level": "block"}) != fixture_hash(fixture)


def test_files_are_named_by_conversation_item_and_verdict(fixture: dict[str, Any]) -> None:
    written = fixture_file(fixture)
    assert written.relpath == PurePosixPath("grader/5ccefeb1-fd5b-4a67-aeeb-ea0f7137f437--t1--v42.json")
    assert written.payload == fixture_bytes(fixture)
    whole = fixture_file({**fixture, "kind": "ours", "turn_id": None, "conversation_id": "../a b"})
    # An id that is not plain (here one that tries to climb out) gets a readable prefix and a hash.
    assert whole.relpath == PurePosixPath("ours/.._a_b--conversation+55a3a88c438d6cf1--v42.json")
    assert whole.payload == fixture_bytes(
        {**fixture, "kind": "ours", "turn_id": None, "conversation_id": "../a b"}
    )


def test_a_written_fixture_loads_back(tmp_path: Path, fixture: dict[str, Any]) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(fixture_bytes(fixture))
    assert load_fixture(path) == fixture


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"format": "smith.fixture/v2"},
            "format is 'smith.fixture/v2'; this version of Smith reads 'smith.fixture/v1'",
        ),
        ({"kind": "theirs"}, "kind: Input should be 'grader', 'clara' or 'ours'"),
        ({"expected_level": "fine"}, "expected_level: Input should be"),
        (
            {"input": {"schema": "smith.conversation/v1"}},
            "input: Value error, not a smith.conversation/v1 document",
        ),
        ({"principles": ["a", "a"]}, "principles: Value error, principles must be folded"),
        ({"surprise": 1}, "surprise: Extra inputs are not permitted"),
    ],
)
def test_a_bad_fixture_is_refused_naming_file_and_field(
    tmp_path: Path, fixture: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**fixture, **change}))
    with pytest.raises(FixtureFormatError) as caught:
        load_fixture(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_unreadable_and_non_json_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FixtureFormatError, match="cannot read"):
        load_fixture(tmp_path / "missing.json")
    (tmp_path / "x.json").write_text("{nope")
    with pytest.raises(FixtureFormatError, match="not valid JSON"):
        load_fixture(tmp_path / "x.json")
    (tmp_path / "y.json").write_text("[]")
    with pytest.raises(FixtureFormatError, match="must be a JSON object"):
        load_fixture(tmp_path / "y.json")


def test_building_checks_the_level_and_takes_a_naive_time_as_utc(fixture: dict[str, Any]) -> None:
    arguments: dict[str, Any] = {
        "kind": "clara",
        "anonymized_document": fixture["input"],
        "expected_level": "repair",
        "reason": None,
        "machine_grade_at_time": {"level": "pass"},
        "grader_user_id": 3,
        "principles": [],
        "verdict_id": 9,
        "created_at": datetime(2026, 7, 18, 3, 0),
    }
    built = build_fixture(**arguments)
    assert built["created_at"] == CREATED.isoformat().replace("+00:00", "Z")
    assert built["turn_id"] is None
    with pytest.raises(FixtureFormatError, match="'fine' is not a level"):
        build_fixture(**{**arguments, "expected_level": "fine"})
    with pytest.raises(FixtureFormatError, match="verdict_id"):
        build_fixture(**{**arguments, "verdict_id": 0})


# Ids as the contract allows them (1-128 characters of anything), biased towards the troublesome ones.
_ID_ALPHABET = st.sampled_from(list("ab1-_./:+ ~é")) | st.characters(codec="utf-8")
_IDS = st.text(_ID_ALPHABET, min_size=1, max_size=128)
_PAIRS = st.tuples(_IDS, st.none() | _IDS | st.just("conversation"))


@settings(max_examples=examples(400))
@given(first=_PAIRS, second=_PAIRS)
def test_distinct_items_never_share_a_file_name_and_names_stay_bounded(
    first: tuple[str, str | None], second: tuple[str, str | None]
) -> None:
    stems = item_stem(*first), item_stem(*second)
    assert (stems[0] == stems[1]) == (first == second)
    for stem in stems:
        assert len(stem.encode()) <= 200 and "/" not in stem and stem not in {".", ".."}
        assert stem == stem.strip() and all(ch.isascii() and ch.isprintable() for ch in stem)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("colX:turn:t1", None), ("colX", "t1")),  # the collision of issue 10, point 4
        (("a--b", "c"), ("a", "b--c")),
        (("a-", "b"), ("a", "-b")),
        (("a/b", "t"), ("a_b", "t")),
        (("conv", None), ("conv", "conversation")),
        (("c" * 128, "t" * 115), ("c" * 128, "t" * 114 + "u")),  # same readable prefix
    ],
)
def test_known_look_alikes_get_different_names(
    first: tuple[str, str | None], second: tuple[str, str | None]
) -> None:
    assert item_stem(*first) != item_stem(*second)


def test_a_plain_pair_keeps_its_readable_name_and_every_name_is_stable() -> None:
    assert item_stem("conv-1", "t1") == "conv-1--t1"
    assert item_stem("conv-1", None) == "conv-1--conversation"
    long = item_stem("c" * 128, "t" * 115)
    assert long == item_stem("c" * 128, "t" * 115)  # the same pair, the same name, every night
    assert long.startswith("c" * 40 + "--" + "t" * 40 + "+") and len(long) == 40 + 2 + 40 + 1 + 16
