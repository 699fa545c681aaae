"""`/readyz` is probed every few seconds: it must not log a line per probe.

Reproduction from the hardening report: every probe logged two alembic lines ("Context impl …",
"Will assume … DDL").
"""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

Client = TestClient[web.Request, web.Application]


async def test_readiness_probes_log_nothing(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        for _ in range(3):
            response = await client.get("/readyz")
            assert response.status in (200, 503)
            assert "database" not in (await response.json())["problems"]

    assert [
        r.getMessage() for r in caplog.records if r.name.startswith(("alembic", "smith", "gradecore"))
    ] == []
