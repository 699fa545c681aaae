"""What the settings build, built in one place: the rules, the Slack clients and transport, the judge
lane and the Ingestor. `app.py` (serve), the command line and the demo all take them from here, so
the three cannot drift apart (docs/architecture.md)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from cerebrus import Rules, load_rules
from cerebrus.judge import JudgeConfig, JudgeLane
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from smith.settings import Settings
from smith.transports import Transport
from smith.transports.dry_run import DryRunTransport
from smith.transports.live import LiveTransport, build_post_client

log = logging.getLogger("smith")


def effective_rules(settings: Settings) -> Rules:
    """The code's default rules, overridden by SMITH_RULES_FILE when it is set."""
    return Rules() if settings.rules_file is None else load_rules(settings.rules_file)


def judge_config(settings: Settings) -> JudgeConfig:
    """The judge lane the settings describe (off without an API key)."""
    key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else None
    return JudgeConfig(
        api_key=key,
        model=settings.judge_model,
        base_url=settings.anthropic_base_url,
        timeout_seconds=settings.judge_timeout_seconds,
        max_concurrency=settings.judge_concurrency,
    )


def build_judge_lane(settings: Settings, rules: Rules) -> JudgeLane:
    return JudgeLane(judge_config(settings), calibrated=frozenset(rules.calibrated_judged))


def build_ingestor(settings: Settings, store: Store, rules: Rules) -> Ingestor:
    return Ingestor(
        store,
        rules=rules,
        post=settings.post_mode != "off",
        conversation_url_template=settings.conversation_url_template,
        judge=judge_config(settings).enabled,
        max_thread_replies=settings.max_thread_replies,
    )


def build_transport(settings: Settings, printer: Callable[[str], None] | None = None) -> Transport | None:
    """How posts leave: Slack's Web API (live), rendered locally (dry run), or not at all (off)."""
    if settings.post_mode == "off":
        return None
    if settings.post_mode == "live":
        if settings.slack_bot_token is None:
            raise ValueError("SMITH_POST_MODE=live needs SLACK_BOT_TOKEN")
        client = build_post_client(
            settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_base_url
        )
        return LiveTransport(client)
    return DryRunTransport(printer or log.info, payload_dir=settings.dry_run_dir)


def build_read_client(token: str, *, base_url: str | None) -> AsyncWebClient:
    """A client that reads as the bot (users.info, views.open, auth.test), retrying 429s with
    slack_sdk's rate-limit handler; posting never goes through it — the relay's client retries
    nothing blindly."""
    kwargs: dict[str, object] = {
        "token": token,
        "timeout": 10,
        "retry_handlers": [AsyncRateLimitErrorRetryHandler(max_retry_count=2)],
    }
    if base_url:
        kwargs["base_url"] = base_url if base_url.endswith("/") else base_url + "/"
    return AsyncWebClient(**kwargs)  # type: ignore[arg-type]


def slack_read_client(settings: Settings) -> AsyncWebClient | None:
    """The bot's reading client, when a bot token is set."""
    if settings.slack_bot_token is None:
        return None
    return build_read_client(
        settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_base_url
    )
