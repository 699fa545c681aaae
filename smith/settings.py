"""Every setting, read once from the environment (and `.env`) by `app.py` or the CLI, then passed down.

Nothing below this module reads `os.environ`. Secrets are `SecretStr`, so they never print in a repr
or a log line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import time
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from gradecore.errors import EX_CONFIG, SmithError
from gradecore.persistence.db import DatabaseTimeouts

PostMode = Literal["live", "dry_run", "off"]
# Names the .env file to read instead of the working directory's `.env` (a service's /etc/smith/env, say).
ENV_FILE_VARIABLE = "SMITH_ENV_FILE"
LogFormat = Literal["text", "json"]
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigurationError(SmithError):
    """Settings that cannot work together (SMITH_TRACKER=github without its repository, say): told in
    one line, naming the settings and never a value, before anything starts (exit 78, EX_CONFIG)."""

    exit_code = EX_CONFIG


_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # Storage
    database_url: str = Field(default="sqlite:///./smith.db", validation_alias="SMITH_DATABASE_URL")
    db_connect_timeout_seconds: float = Field(default=5.0, gt=0, validation_alias="SMITH_DB_CONNECT_TIMEOUT")
    db_statement_timeout_seconds: float = Field(
        default=30.0, gt=0, validation_alias="SMITH_DB_STATEMENT_TIMEOUT"
    )
    db_lock_timeout_seconds: float = Field(default=10.0, gt=0, validation_alias="SMITH_DB_LOCK_TIMEOUT")

    # Slack
    slack_bot_token: SecretStr | None = Field(default=None, validation_alias="SLACK_BOT_TOKEN")
    slack_signing_secret: SecretStr | None = Field(default=None, validation_alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(default=None, validation_alias="SLACK_APP_TOKEN")
    slack_api_base_url: str | None = Field(default=None, validation_alias="SLACK_API_BASE_URL")
    post_mode_setting: PostMode | None = Field(default=None, validation_alias="SMITH_POST_MODE")
    ops_channel: str | None = Field(default=None, validation_alias="SMITH_OPS_CHANNEL")
    triage_channel: str | None = Field(default=None, validation_alias="SMITH_TRIAGE_CHANNEL")
    conversation_url_template: str | None = Field(
        default=None, validation_alias="SMITH_CONVERSATION_URL_TEMPLATE"
    )
    dry_run_dir: Path | None = Field(default=None, validation_alias="SMITH_DRY_RUN_DIR")
    # Turn replies per conversation thread; past it, one reply lists the rest (a busy thread is unread).
    max_thread_replies: int = Field(default=10, ge=1, validation_alias="SMITH_MAX_THREAD_REPLIES")

    # Listening: an ack waits at most this long for its inbox row (Slack gives up after 3 seconds, so
    # keep it under that), and an event that fails this many times is parked, not retried for ever.
    inbox_deadline_seconds: float = Field(default=2.0, gt=0, le=60, validation_alias="SMITH_INBOX_DEADLINE")
    # The platform's request waits at most this long for a stalled database before a 503 (it retries).
    ingest_deadline_seconds: float = Field(
        default=10.0, gt=0, le=300, validation_alias="SMITH_INGEST_DEADLINE"
    )
    inbox_max_attempts: int = Field(default=5, ge=1, validation_alias="SMITH_INBOX_MAX_ATTEMPTS")

    # Delivery (the outbox relay)
    channel_interval_seconds: float = Field(default=1.0, gt=0, validation_alias="SMITH_CHANNEL_INTERVAL")
    global_rate_per_second: float = Field(default=20.0, gt=0, validation_alias="SMITH_GLOBAL_RATE")
    relay_max_attempts: int = Field(default=8, ge=1, validation_alias="SMITH_RELAY_MAX_ATTEMPTS")
    # How soon a crashed replica's claimed posts are resumed by another (live relays renew their leases).
    relay_lease_seconds: float = Field(default=15.0, ge=1, validation_alias="SMITH_RELAY_LEASE_SECONDS")

    # HTTP server
    host: str = Field(default="127.0.0.1", validation_alias="SMITH_HOST")
    port: int = Field(default=3000, ge=0, le=65535, validation_alias="SMITH_PORT")
    ingest_token: SecretStr | None = Field(default=None, validation_alias="SMITH_INGEST_TOKEN")

    # Grading
    rules_file: Path | None = Field(default=None, validation_alias="SMITH_RULES_FILE")
    anthropic_api_key: SecretStr | None = Field(default=None, validation_alias="ANTHROPIC_API_KEY")
    anthropic_base_url: str | None = Field(default=None, validation_alias="ANTHROPIC_BASE_URL")
    judge_model: str = Field(default="claude-sonnet-4-6", validation_alias="SMITH_JUDGE_MODEL")
    judge_timeout_seconds: float = Field(default=30.0, gt=0, validation_alias="SMITH_JUDGE_TIMEOUT")
    judge_concurrency: int = Field(default=4, ge=1, validation_alias="SMITH_JUDGE_CONCURRENCY")

    # Scheduled work
    tally_time: time = Field(default=time(9, 0), validation_alias="SMITH_TALLY_TIME")
    sweep_time: time = Field(default=time(2, 0), validation_alias="SMITH_SWEEP_TIME")
    fixtures_dir: Path = Field(default=Path("./fixtures_out"), validation_alias="SMITH_FIXTURES_DIR")

    # The engineers' ticket queue (one ticket per root cause of *ours* failures)
    tracker: Literal["markdown", "github", "off"] = Field(
        default="markdown", validation_alias="SMITH_TRACKER"
    )
    github_repository: str | None = Field(default=None, validation_alias="SMITH_GITHUB_REPO")
    github_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("SMITH_GITHUB_TOKEN", "GITHUB_TOKEN")
    )
    github_api_url: str | None = Field(default=None, validation_alias="SMITH_GITHUB_API_URL")
    ticket_quiet_days: int = Field(default=14, ge=1, validation_alias="SMITH_TICKET_QUIET_DAYS")

    # The calibration loop: when `smith rules suggest` proposes a change to a rule entry
    suggest_min_acts: int = Field(default=5, ge=1, validation_alias="SMITH_SUGGEST_MIN_ACTS")
    suggest_min_share: float = Field(default=0.5, ge=0, lt=1, validation_alias="SMITH_SUGGEST_MIN_SHARE")

    log_level: str = Field(default="INFO", validation_alias=AliasChoices("SMITH_LOG_LEVEL", "LOG_LEVEL"))
    # `json`: one JSON object per line, for a log pipeline; `text`: a line for a person at a terminal.
    log_format: LogFormat = Field(default="text", validation_alias="SMITH_LOG_FORMAT")

    @field_validator("log_level", mode="before")
    @classmethod
    def _a_known_level(cls, value: object) -> object:
        if isinstance(value, str):
            if value.strip().upper() not in LOG_LEVELS:
                raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
            return value.strip().upper()
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _format_any_case(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator(
        "slack_bot_token",
        "slack_signing_secret",
        "slack_app_token",
        "ingest_token",
        "anthropic_api_key",
        "rules_file",
        "slack_api_base_url",
        "anthropic_base_url",
        "post_mode_setting",
        "dry_run_dir",
        "ops_channel",
        "triage_channel",
        "conversation_url_template",
        "github_repository",
        "github_token",
        "github_api_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        """`KEY=` in .env (as .env.example ships) means "not set", not an empty value."""
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def post_mode(self) -> PostMode:
        """`live` with a bot token, `dry_run` without one, unless SMITH_POST_MODE says otherwise."""
        if self.post_mode_setting is not None:
            return self.post_mode_setting
        return "live" if self.slack_bot_token is not None else "dry_run"

    @field_validator("github_repository")
    @classmethod
    def _owner_slash_name(cls, value: str | None) -> str | None:
        if value is not None and not _REPOSITORY.fullmatch(value):
            raise ValueError("must look like owner/name")
        return value

    @property
    def database_timeouts(self) -> DatabaseTimeouts:
        return DatabaseTimeouts(
            connect_seconds=self.db_connect_timeout_seconds,
            statement_seconds=self.db_statement_timeout_seconds,
            lock_seconds=self.db_lock_timeout_seconds,
        )

    @property
    def judge_enabled(self) -> bool:
        return self.anthropic_api_key is not None


class EnvFileMissing(SmithError):
    """SMITH_ENV_FILE names a file that is not there: an explicit choice is never silently ignored."""


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from the environment and a .env file: the working directory's `.env`, or the file
    SMITH_ENV_FILE names (which must exist). Variables set in the environment win over the file."""
    named = (os.environ if environ is None else environ).get(ENV_FILE_VARIABLE, "").strip()
    if not named:
        return Settings()
    if not Path(named).is_file():
        raise EnvFileMissing(f"{ENV_FILE_VARIABLE} names {named}, which is not a file")
    return Settings(_env_file=named)
