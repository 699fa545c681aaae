"""The real aiohttp app, wired by `app.build` from a Settings object, served on loopback for a test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

import app as wiring
from smith.settings import Settings

INGEST_TOKEN = "test-ingest-token-7c1d"
AUTH = {"Authorization": f"Bearer {INGEST_TOKEN}"}


def settings_for(engine: Engine, tmp_path: Path, **overrides: str) -> Settings:
    # model_validate reads no environment and no .env: the test decides every setting.
    return Settings.model_validate(
        {
            "SMITH_DATABASE_URL": engine.url.render_as_string(hide_password=False),
            "SMITH_POST_MODE": "dry_run",
            "SMITH_DRY_RUN_DIR": str(tmp_path / "dry-run"),
            "SMITH_INGEST_TOKEN": INGEST_TOKEN,
            **overrides,
        }
    )


@pytest.fixture
def smith(engine: Engine, tmp_path: Path) -> Iterator[wiring.Smith]:
    built = wiring.build(settings_for(engine, tmp_path))
    yield built
    built.store.engine.dispose()


@pytest.fixture
async def client(smith: wiring.Smith) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    async with TestClient(TestServer(wiring.make_web_app(smith))) as running:
        yield running
