"""The correction modal carries its item's ids in `private_metadata`: the longest ids must fit."""

from __future__ import annotations

import json

import pytest

from blocks.correction import CorrectedItem, build_correction_view
from gradecore.model.contract import MAX_ID_CHARS
from tests.gradecore.rows import machine_grade

SLACK_MAX_PRIVATE_METADATA = 3_000


@pytest.mark.parametrize("character", ["😀", "\x01", '"', "é"])
def test_the_longest_ids_fit_and_read_back(character: str) -> None:
    longest = character * MAX_ID_CHARS
    item = CorrectedItem(longest, longest, longest, channel="C0APT1", message_ts="1764540000.000100")
    grade = machine_grade(longest, longest, property_id=longest)

    view = build_correction_view(item, grade, [])

    metadata = view.private_metadata
    assert metadata is not None and len(metadata) <= SLACK_MAX_PRIVATE_METADATA
    assert json.loads(metadata)["c"] == longest and json.loads(metadata)["t"] == longest
