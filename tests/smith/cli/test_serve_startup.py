"""`smith serve` as a user starts it: what cannot work stops the start with one line (no traceback), what
is off is warned about, and one line states the effective settings without any secret in it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from sqlalchemy import Engine

from tests.fakes.slack_api import FakeSlack
from tests.smith.cli.serving import free_port, serve_environment, serve_until_it_ends, serve_until_serving

SIGNING_SECRET = "signing-secret-never-logged-5f1e"
INGEST_TOKEN = "ingest-token-never-logged-93ab"


async def test_a_port_already_in_use_is_one_line(workdir: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = serve_environment(workdir, SMITH_PORT=str(port), SMITH_POST_MODE="dry_run")
        ended = await serve_until_it_ends(workdir, env)
    assert ended.fatal_line() == (
        f"smith: port {port} on 127.0.0.1 is already in use (another smith serve?): stop it or set SMITH_PORT"
    )


@pytest.mark.parametrize(
    "url",
    ["mysql://smith:hunter2-password@db.internal/smith", "oracle://scott:tiger-password@db/xe"],
)
async def test_an_unsupported_database_url_is_one_line_without_its_password(workdir: Path, url: str) -> None:
    ended = await serve_until_it_ends(workdir, serve_environment(workdir, SMITH_DATABASE_URL=url))
    line = ended.fatal_line()
    scheme = url.split("://")[0]
    assert line == (
        f"smith: invalid database URL: {scheme} is not supported; "
        "use sqlite:///path/to/smith.db or postgresql+psycopg://user@host/db"
    )
    assert "password" not in ended.stderr


async def test_slack_unreachable_at_start_up_is_one_line(workdir: Path) -> None:
    closed = f"http://127.0.0.1:{free_port()}/api/"  # nothing listens there
    env = serve_environment(
        workdir,
        SMITH_POST_MODE="live",
        SLACK_BOT_TOKEN="xoxb-unreachable-token",
        SLACK_API_BASE_URL=closed,
        SMITH_INGEST_TOKEN=INGEST_TOKEN,
    )
    line = (await serve_until_it_ends(workdir, env)).fatal_line()
    assert line.startswith(f"smith: cannot reach Slack at {closed} (")
    assert line.endswith("): check the network or SLACK_API_BASE_URL")


@pytest.mark.parametrize("signing_secret", [SIGNING_SECRET, None], ids=["listening", "posting-only"])
async def test_a_bot_token_slack_refuses_stops_the_start(workdir: Path, signing_secret: str | None) -> None:
    async with FakeSlack.running() as fake:
        env = serve_environment(
            workdir,
            SMITH_POST_MODE="live",
            SLACK_BOT_TOKEN="xoxb-revoked-or-mistyped",
            SLACK_API_BASE_URL=fake.api_url,
            SMITH_INGEST_TOKEN=INGEST_TOKEN,
            **({"SLACK_SIGNING_SECRET": signing_secret} if signing_secret else {}),
        )
        ended = await serve_until_it_ends(workdir, env)
        assert [call.method for call in fake.calls] == ["auth.test"]
    assert ended.fatal_line() == (
        "smith: Slack refused the bot token (invalid_auth): "
        "check SLACK_BOT_TOKEN (an xoxb- token of this app)"
    )
    assert "xoxb-revoked-or-mistyped" not in ended.stderr


@pytest.mark.backends("postgres")
async def test_start_up_states_the_settings_once_with_secrets_masked(workdir: Path, engine: Engine) -> None:
    database = engine.url.set(password="db-password-never-logged")
    async with FakeSlack.running() as fake:
        env = serve_environment(
            workdir,
            SMITH_DATABASE_URL=database.render_as_string(hide_password=False),
            SMITH_POST_MODE="live",
            SLACK_BOT_TOKEN=fake.bot_token,  # in the environment, as in production
            SLACK_SIGNING_SECRET=SIGNING_SECRET,
            SLACK_API_BASE_URL=fake.api_url,
            SMITH_INGEST_TOKEN=INGEST_TOKEN,
            ANTHROPIC_API_KEY="sk-ant-never-logged",
        )
        ended = await serve_until_serving(workdir, env)
    assert "Traceback" not in ended.stderr
    [summary] = [line for line in ended.lines if " settings: " in line]
    for shown in (
        f"http://127.0.0.1:{env['SMITH_PORT']}",
        "database postgresql+psycopg://postgres:***@",
        "posts live",
        f"Slack API {fake.api_url}",
        "Slack events at /slack/events",
        "bot token set",
        "signing secret set",
        "app token not set",
        "ingest token set",
        "judge claude-sonnet-4-6",
        "tally 09:00 local",
        "sweep 02:00 UTC",
    ):
        assert shown in summary, (shown, summary)
    for secret in (fake.bot_token, SIGNING_SECRET, INGEST_TOKEN, "sk-ant-never-logged", "db-password-never"):
        assert secret not in ended.stderr, secret
    # Bolt is given its client and secret; it no longer warns at every start that a token is unused.
    assert "will be unused" not in ended.stderr
    assert "SMITH_INGEST_TOKEN is not set" not in ended.stderr


async def test_an_unset_ingest_token_is_warned_about_at_start(workdir: Path) -> None:
    env = serve_environment(workdir, SMITH_POST_MODE="dry_run")
    ended = await serve_until_serving(workdir, env)
    [warning] = [line for line in ended.lines if "SMITH_INGEST_TOKEN" in line]
    assert " WARNING " in warning
    assert warning.endswith(
        "SMITH_INGEST_TOKEN is not set: POST /v1/conversations refuses every document (401) until it is"
    )
    assert "ingest token not set" in next(line for line in ended.lines if " settings: " in line)


async def test_an_app_token_slack_will_not_connect_stops_the_start(workdir: Path) -> None:
    async with FakeSlack.running() as fake:  # an app token the fake does not know: Slack says no
        env = serve_environment(
            workdir,
            SLACK_BOT_TOKEN=fake.bot_token,
            SLACK_APP_TOKEN="xapp-never-logged",
            SLACK_API_BASE_URL=fake.api_url,
            SMITH_INGEST_TOKEN=INGEST_TOKEN,
        )
        ended = await serve_until_it_ends(workdir, env)
        assert [call.method for call in fake.calls] == ["auth.test", "apps.connections.open"]
    line = ended.fatal_line()
    assert line.startswith("smith: Slack did not open a Socket Mode connection (")
    assert line.endswith("): check SLACK_APP_TOKEN (an xapp- token with the connections:write scope)")
    assert "xapp-never-logged" not in ended.stderr
