"""The lock files pin, with hashes, every dependency pyproject.toml declares, and name no index.

`make lock` writes them; a dependency added to pyproject.toml without running it would install from
nothing (pip's --require-hashes refuses a package the lock does not list), so this test says so first.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==\S+")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(group: str | None) -> set[str]:
    project = tomllib.loads((_ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] if group is None else project["optional-dependencies"][group]
    return {_canonical(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0]) for spec in specs}


def _pinned(lock: str) -> set[str]:
    text = (_ROOT / "requirements" / lock).read_text()
    return {_canonical(match.group(1)) for line in text.splitlines() if (match := _PIN.match(line))}


@pytest.mark.parametrize(
    ("lock", "groups"), [("runtime.txt", [None]), ("dev.txt", [None, "dev"])], ids=["runtime", "dev"]
)
def test_each_lock_pins_every_declared_dependency(lock: str, groups: list[str | None]) -> None:
    declared = set().union(*(_declared(group) for group in groups))
    missing = declared - _pinned(lock)
    assert not missing, f"requirements/{lock} lacks {sorted(missing)}: run `make lock`"


def test_the_runtime_lock_holds_no_development_tool() -> None:
    assert not (_declared("dev") & _pinned("runtime.txt"))


@pytest.mark.parametrize("lock", ["runtime.txt", "dev.txt"])
def test_every_pin_carries_a_hash_and_no_index_is_named(lock: str) -> None:
    text = (_ROOT / "requirements" / lock).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    assert entries
    for entry in entries:
        assert _PIN.match(entry), entry[:80]
        assert "--hash=sha256:" in entry, entry[:80]
    assert "://" not in text
    assert "--index-url" not in text
    assert "--extra-index-url" not in text
