"""`smith ingest` judges the way the server does: the same decision in ingestion, paid after the batch."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.grade_rows import SOURCE_DETERMINISTIC, SOURCE_JUDGE
from gradecore.persistence.store import Store
from tests.conftest import DEMO_DATA
from tests.fakes.anthropic_api import FakeAnthropicAPI
from tests.smith.cli.runner import database_url
from tests.smith.test_judging import curt_tone, sources_of

_FOREIGN = ("SMITH_", "SLACK_", "ANTHROPIC_")


async def test_smith_ingest_judges_what_it_ingested(tmp_path: Path) -> None:
    engine = create_db_engine(database_url(tmp_path))
    upgrade(engine)
    async with FakeAnthropicAPI(responder=curt_tone) as api:
        env = {key: value for key, value in os.environ.items() if not key.startswith(_FOREIGN)}
        env.update(
            SMITH_DATABASE_URL=database_url(tmp_path),
            SMITH_POST_MODE="off",
            ANTHROPIC_API_KEY="test-key",
            ANTHROPIC_BASE_URL=api.base_url,
            NO_COLOR="1",
        )
        # A subprocess that does not block this event loop: the fake API must answer it meanwhile.
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "from smith_cli import main; main()",
            "ingest",
            str(DEMO_DATA / "lampliter-unbacked-promise.json"),
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=180)

    assert process.returncode == 0, stderr.decode()
    assert "judged 1 conversation(s)" in stdout.decode()
    assert api.requests, "the judge lane was called"
    store = Store(engine)
    assert sources_of(store) == [SOURCE_DETERMINISTIC, SOURCE_JUDGE]
    with store.unit() as unit:
        assert unit.judging.pending() == 0
    engine.dispose()
