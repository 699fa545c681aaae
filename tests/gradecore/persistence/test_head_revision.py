"""The migration head Smith compares databases with (docs/operations.md, command start-up): written down
in gradecore/persistence/db.py, it must be alembic's own answer, and reading it must not import alembic."""

from __future__ import annotations

import subprocess
import sys

from alembic.script import ScriptDirectory

from gradecore.persistence import db


def test_the_written_head_is_alembics_head() -> None:
    assert db.head_revision() == ScriptDirectory(str(db._MIGRATIONS)).get_current_head()


def test_reading_the_head_does_not_import_alembic() -> None:
    probe = (
        "import sys; from gradecore.persistence.db import head_revision; head_revision(); "
        "print('alembic' in sys.modules)"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "False"
