"""The migration head, read from what the migration files declare (docs/operations.md, command start-up):
it must be alembic's own answer, and anything the simple reading cannot settle goes to alembic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from gradecore import db


def _migrations(tmp_path: Path, *files: str) -> Path:
    """A migrations folder whose versions/ holds one file per text (only the header matters here)."""
    versions = tmp_path / "migrations" / "versions"
    versions.mkdir(parents=True)
    (versions / "__init__.py").write_text("", encoding="utf-8")
    for number, text in enumerate(files, start=1):
        (versions / f"{number:04d}_rev.py").write_text(text, encoding="utf-8")
    return tmp_path / "migrations"


def _header(revision: str, down: str, **extra: str) -> str:
    lines = [f"revision: str = {revision!r}", f"down_revision = {down}"]
    lines += [f"{name} = {value}" for name, value in extra.items()]
    return "\n".join([*lines, "def upgrade() -> None: ...", "def downgrade() -> None: ..."]) + "\n"


def test_the_shipped_head_is_alembics_head() -> None:
    assert db.head_revision() == ScriptDirectory(str(db._MIGRATIONS)).get_current_head()
    assert db._declared_heads() == [db.head_revision()]


def test_a_linear_chain_has_its_last_revision_as_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _migrations(tmp_path, _header("a1", "None"), _header("c3", "'b2'"), _header("b2", "'a1'"))
    monkeypatch.setattr(db, "_MIGRATIONS", folder)
    assert db._declared_heads() == ["c3"]


def test_a_merge_names_both_parents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _migrations(
        tmp_path,
        _header("a1", "None"),
        _header("b2", "'a1'"),
        _header("c2", "'a1'"),
        _header("m3", "('b2', 'c2')"),
    )
    monkeypatch.setattr(db, "_MIGRATIONS", folder)
    assert db._declared_heads() == ["m3"]


def test_two_heads_are_both_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _migrations(tmp_path, _header("a1", "None"), _header("b2", "'a1'"), _header("c2", "'a1'"))
    monkeypatch.setattr(db, "_MIGRATIONS", folder)
    assert sorted(db._declared_heads() or []) == ["b2", "c2"]


@pytest.mark.parametrize(
    "extra", [{"depends_on": "'a1'"}, {"branch_labels": "('feature',)"}, {"down_revision": "'a' + '1'"}]
)
def test_what_the_reading_cannot_settle_goes_to_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: dict[str, str]
) -> None:
    down = extra.pop("down_revision", "'a1'")
    folder = _migrations(tmp_path, _header("a1", "None"), _header("b2", down, **extra))
    monkeypatch.setattr(db, "_MIGRATIONS", folder)
    assert db._declared_heads() is None
    assert db.head_revision() == "b2"  # alembic's answer


def test_reading_the_head_does_not_import_alembic() -> None:
    probe = (
        "import sys; from gradecore.db import head_revision; head_revision(); print('alembic' in sys.modules)"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "False"
