"""The project keeps its own copies of the shared examples and labelled corpus, so a clone tests without
`../shared`; where `../shared` sits beside the repository, the copies must match it byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
SHARED = REPOSITORY.parent / "shared"

COPIES = [
    pytest.param(SHARED / "corpus", REPOSITORY / "tests" / "corpus", "*", id="corpus"),
    pytest.param(SHARED / "examples", REPOSITORY / "smith" / "demo_data", "*.json", id="examples"),
]


def _files(directory: Path, pattern: str) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.glob(pattern)) if path.is_file()}


@pytest.mark.parametrize(("shared", "copy", "pattern"), COPIES)
def test_the_copy_matches_the_shared_original(shared: Path, copy: Path, pattern: str) -> None:
    if not shared.is_dir():
        pytest.skip(f"{shared} is not here (a clone on its own); the copy in {copy} stands alone")
    originals = _files(shared, pattern)
    assert originals, f"{shared} holds no {pattern} files"
    copies = _files(copy, pattern)
    assert sorted(copies) == sorted(originals), f"{copy} and {shared} hold different files"
    stale = [name for name, content in originals.items() if copies[name] != content]
    assert not stale, f"copies differ from {shared}: {stale}"
