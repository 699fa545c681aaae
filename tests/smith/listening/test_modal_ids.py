"""The correction modal carries its item's ids in `private_metadata`: the longest ids must fit."""

from __future__ import annotations

import json

import pytest

from gradecore.contract import MAX_ID_CHARS
from smith.acts import Target
from smith.listening.modal import build_correction_view
from tests.gradecore.rows import machine_grade

SLACK_MAX_PRIVATE_METADATA = 3_000


@pytest.mark.parametrize("character", ["😀", "\x01", '"', "é"])
def test_the_longest_ids_fit_and_read_back(character: str) -> None:
    longest = character * MAX_ID_CHARS
    target = Target("turn", longest, longest, longest)
    grade = machine_grade(longest, longest, property_id=longest)

    view = build_correction_view(target, grade, [], channel="C0APT1", message_ts="1764540000.000100")

    metadata = view.private_metadata
    assert metadata is not None and len(metadata) <= SLACK_MAX_PRIVATE_METADATA
    assert json.loads(metadata)["c"] == longest and json.loads(metadata)["t"] == longest
