"""Bolt is built from Smith's settings alone: with the bot token in the process environment (as in
production) it does not warn at every start that the token "will be unused", and the environment is
left as it was."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from sqlalchemy import Engine

import app as wiring
from smith.settings import Settings


def test_bolt_does_not_warn_about_the_token_in_the_environment(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-from-the-environment")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "secret-from-the-environment")
    settings = Settings.model_validate(
        {
            "SMITH_DATABASE_URL": engine.url.render_as_string(hide_password=False),
            "SLACK_BOT_TOKEN": "xoxb-from-the-environment",
            "SLACK_SIGNING_SECRET": "secret-from-the-environment",
            "SMITH_POST_MODE": "dry_run",
            "SMITH_DRY_RUN_DIR": str(tmp_path),
        }
    )
    with caplog.at_level(logging.INFO):
        smith = wiring.build(settings)
    try:
        assert smith.bolt is not None
        assert smith.bolt.client.token == "xoxb-from-the-environment"
        bolt_lines = [r.getMessage() for r in caplog.records if r.name.startswith("slack_bolt")]
        assert not [line for line in bolt_lines if "will be unused" in line or "ignored" in line], bolt_lines
        assert os.environ["SLACK_BOT_TOKEN"] == "xoxb-from-the-environment"  # put back after building
        assert os.environ["SLACK_SIGNING_SECRET"] == "secret-from-the-environment"
    finally:
        smith.store.engine.dispose()
