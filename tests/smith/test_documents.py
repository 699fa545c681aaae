"""Reading documents for `smith ingest`: deep nesting is one clear error, never a traceback."""

from __future__ import annotations

import pytest

from gradecore.model.contract import MAX_NESTING_DEPTH
from smith.cli.documents import UnreadableInput, parse_documents


@pytest.mark.parametrize("depth", [990, 50_000])
def test_a_list_nested_past_the_parser_is_one_clear_error(depth: int) -> None:
    with pytest.raises(UnreadableInput, match="nested too deeply"):
        list(parse_documents("deep.json", b"[" * depth + b"]" * depth))


def test_a_document_nested_past_the_limit_is_a_violation_naming_its_path() -> None:
    deep = b'{"a":' * (MAX_NESTING_DEPTH + 5) + b"1" + b"}" * (MAX_NESTING_DEPTH + 5)
    for raw in (deep, b"[" + deep + b"]"):
        (parsed,) = parse_documents("deep.json", raw)
        assert parsed.conversation is None and parsed.violation is not None
        path, message = parsed.violation.errors[0]
        assert path == ".".join(["a"] * MAX_NESTING_DEPTH)
        assert "nested more than" in message
