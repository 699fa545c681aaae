"""The `smith.fixture/v1` format: building, stable bytes, file names, and loading with clear errors."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from smith.sweep import (
    FixtureFormatError,
    anonymize,
    build_fixture,
    fixture_bytes,
    fixture_file,
    fixture_hash,
    load_fixture,
)
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
    assert whole.relpath == PurePosixPath("ours/.._a_b--conversation--v42.json")
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
