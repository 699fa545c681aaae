"""Cerebrus's rooms import in one direction (docs/architecture.md, "Inside cerebrus"): the text
matching engine (`cerebrus/text/`) and the amounts (`cerebrus/amounts/`) are libraries the checks
use; they never import the engine, the views, the registry or a check."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CEREBRUS = Path(__file__).resolve().parents[2] / "cerebrus"

# What each room may import from cerebrus, besides its own modules: the defaults, never the engine.
ROOMS: dict[str, frozenset[str]] = {
    "text": frozenset({"cerebrus.defaults"}),
    "amounts": frozenset({"cerebrus.defaults", "cerebrus.text"}),
}


def _cerebrus_imports(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = (
                [f"{node.module}.{alias.name}" for alias in node.names] if node.module == "cerebrus" else []
            )
            found.extend((node.lineno, name) for name in names or [node.module])
    return [(line, name) for line, name in found if name == "cerebrus" or name.startswith("cerebrus.")]


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_a_room_imports_only_what_lies_below_it(room: str) -> None:
    allowed = ROOMS[room] | {f"cerebrus.{room}"}
    wrong = [
        f"{path.relative_to(CEREBRUS.parent)}:{line}: imports {name}"
        for path in sorted((CEREBRUS / room).rglob("*.py"))
        for line, name in _cerebrus_imports(path)
        if not any(name == prefix or name.startswith(f"{prefix}.") for prefix in allowed)
    ]
    assert wrong == []
