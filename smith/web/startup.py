"""What `smith serve` says and checks before it takes traffic.

One line of the effective settings (secrets shown only as set / not set, the database password masked),
a warning for each setting that leaves part of Smith off, and the Slack check: a bot token Slack
refuses, or a Slack Smith cannot reach, is one fatal line, not a log entry followed by silence.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from gradecore.errors import SmithError
from smith.settings import Settings

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

SLACK_DEFAULT_API = "https://slack.com/api/"


class StartupError(SmithError):
    """Smith cannot start as configured; the message is the whole explanation, in one line."""


@dataclass(frozen=True)
class SlackIdentity:
    """Who the bot token belongs to, from `auth.test`."""

    user_id: str | None
    team: str | None


def masked_database_url(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split(":", 1)[0] + ":…"  # unparseable: show only the scheme, never what follows


def _is_set(value: object | None) -> str:
    return "set" if value is not None else "not set"


def settings_summary(settings: Settings) -> str:
    """The effective settings in one line; no secret's value ever appears in it."""
    if settings.slack_app_token is not None:
        listening = "Slack events over Socket Mode"
    elif settings.slack_signing_secret is not None and settings.slack_bot_token is not None:
        listening = "Slack events at /slack/events"
    else:
        listening = "Slack events off"
    judge = f"judge {settings.judge_model}" if settings.judge_enabled else "judge off"
    parts = [
        f"http://{settings.host}:{settings.port}",
        f"database {masked_database_url(settings.database_url)}",
        f"posts {settings.post_mode}",
        f"Slack API {settings.slack_api_base_url or SLACK_DEFAULT_API}",
        listening,
        f"bot token {_is_set(settings.slack_bot_token)}",
        f"signing secret {_is_set(settings.slack_signing_secret)}",
        f"app token {_is_set(settings.slack_app_token)}",
        f"ingest token {_is_set(settings.ingest_token)}",
        judge,
        f"rules {settings.rules_file or 'built-in'}",
        f"tally {settings.tally_time:%H:%M} local",
        f"sweep {settings.sweep_time:%H:%M} UTC",
        f"fixtures {settings.fixtures_dir}",
        f"ops channel {settings.ops_channel or 'none'}",
        f"triage channel {settings.triage_channel or 'none'}",
    ]
    return "settings: " + " · ".join(parts)


def startup_warnings(settings: Settings) -> list[str]:
    """Settings that leave a part of Smith off without being a mistake on their own."""
    warnings = []
    if settings.ingest_token is None:
        warnings.append(
            "SMITH_INGEST_TOKEN is not set: POST /v1/conversations refuses every document (401) until it is"
        )
    if settings.slack_bot_token is not None and (
        settings.slack_signing_secret is None and settings.slack_app_token is None
    ):
        warnings.append(
            "neither SLACK_SIGNING_SECRET nor SLACK_APP_TOKEN is set: reactions and replies in Slack "
            "are not received"
        )
    return warnings


async def verify_slack(client: AsyncWebClient, *, api_url: str | None) -> SlackIdentity:
    """`auth.test` with the bot token; a refusal or no answer at all is a `StartupError`."""
    from aiohttp import ClientError
    from slack_sdk.errors import SlackApiError

    where = api_url or SLACK_DEFAULT_API
    try:
        response = await client.auth_test()
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        if error in ("invalid_auth", "not_authed", "token_revoked", "account_inactive", "token_expired"):
            raise StartupError(
                f"Slack refused the bot token ({error}): check SLACK_BOT_TOKEN (an xoxb- token of this app)"
            ) from None
        raise StartupError(f"Slack answered auth.test with an error ({error or 'no error code'})") from None
    except (TimeoutError, ClientError, OSError) as exc:
        raise slack_unreachable(where, exc) from None
    user, team = response.get("user_id"), response.get("team")
    return SlackIdentity(str(user) if user else None, str(team) if team else None)


def slack_unreachable(where: str, error: BaseException) -> StartupError:
    reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
    detail = f"{type(error).__name__}: {reason}" if reason else type(error).__name__
    return StartupError(f"cannot reach Slack at {where} ({detail}): check the network or SLACK_API_BASE_URL")


def socket_mode_refused(error: str | None) -> StartupError:
    return StartupError(
        f"Slack did not open a Socket Mode connection ({error or 'no error code'}): "
        "check SLACK_APP_TOKEN (an xapp- token with the connections:write scope)"
    )


def cannot_listen(host: str, port: int, error: OSError) -> StartupError:
    """A port another process holds, or an address this machine does not have, in words."""
    if error.errno == errno.EADDRINUSE:
        return StartupError(
            f"port {port} on {host} is already in use (another smith serve?): stop it or set SMITH_PORT"
        )
    if error.errno == errno.EACCES:
        return StartupError(f"not allowed to listen on {host}:{port}: choose a port above 1023 (SMITH_PORT)")
    reason = error.strerror or type(error).__name__
    return StartupError(f"cannot listen on {host}:{port}: {reason} (check SMITH_HOST and SMITH_PORT)")
