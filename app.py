"""Wiring: settings → store → engine → Bolt app → aiohttp server / Socket Mode → scheduler.

Settings are read once by the caller (the CLI) and everything else receives what it needs from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from aiohttp import ClientError, web
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from cerebrus import Rules, load_rules
from cerebrus.judge import JudgeLane
from gradecore.db import create_db_engine, require_migrated
from gradecore.store import Store
from handlers import ListenerServices
from scheduler import JobConfig, Jobs, build_scheduler
from smith.ingest import Ingestor
from smith.judging import JudgeWorker, build_judge_lane
from smith.listening.identity import SlackDirectory
from smith.listening.processor import ActProcessor
from smith.membership import ChannelMembership
from smith.outbox import Relay, RelayConfig
from smith.settings import Settings
from smith.slack_app import build_bolt_app, build_read_client, mount
from smith.startup import (
    SLACK_DEFAULT_API,
    SlackIdentity,
    StartupError,
    cannot_listen,
    settings_summary,
    slack_unreachable,
    socket_mode_refused,
    startup_warnings,
    verify_slack,
)
from smith.tickets import build_tracker
from smith.transports import Transport
from smith.transports.dry_run import DryRunTransport
from smith.transports.live import LiveTransport, build_post_client
from smith.web.health import handle_healthz, make_readyz_handler
from smith.web.ingest import make_ingest_handler

log = logging.getLogger("smith")


@dataclass
class Smith:
    """The wired application: one of these per process."""

    settings: Settings
    store: Store
    rules: Rules
    ingestor: Ingestor
    judge: JudgeLane
    transport: Transport | None
    relay: Relay | None
    processor: ActProcessor | None = None
    judge_worker: JudgeWorker | None = None  # pays the judgements ingest left owed (judge lane on)
    bolt: AsyncApp | None = None
    slack_client: AsyncWebClient | None = None  # reads as the bot (auth.test, users.info, membership)
    membership: ChannelMembership | None = None
    extra_routes: list[Callable[[web.Application], None]] = field(default_factory=list)


def load_effective_rules(settings: Settings) -> Rules:
    return Rules() if settings.rules_file is None else load_rules(settings.rules_file)


def build_transport(settings: Settings, printer: Callable[[str], None] | None = None) -> Transport | None:
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


def build(
    settings: Settings, *, printer: Callable[[str], None] | None = None, migrated: bool = True
) -> Smith:
    engine = create_db_engine(settings.database_url, timeouts=settings.database_timeouts)
    if migrated:
        require_migrated(engine)
    store = Store(engine)
    rules = load_effective_rules(settings)
    transport = build_transport(settings, printer)
    relay = None
    if transport is not None:
        relay_config = RelayConfig(
            channel_interval=settings.channel_interval_seconds,
            global_rate=settings.global_rate_per_second,
            max_attempts=settings.relay_max_attempts,
            lease_seconds=settings.relay_lease_seconds,
            ops_channel=settings.ops_channel,
        )
        relay = Relay(store, transport, relay_config)
    judge = build_judge_lane(settings, rules)
    ingestor = Ingestor.from_settings(store, settings, rules)
    smith = Smith(settings, store, rules, ingestor, judge, transport, relay)
    if judge.enabled:
        smith.judge_worker = JudgeWorker(store, judge, ingestor)
    attach_slack(smith)
    return smith


def attach_slack(smith: Smith) -> None:
    """The listening side: needs a bot token, and a signing secret (HTTP) or an app token (Socket Mode)."""
    settings = smith.settings
    if settings.slack_bot_token is None:
        return
    client = build_read_client(
        settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_base_url
    )
    smith.slack_client = client
    smith.membership = ChannelMembership(smith.store, client)
    smith.processor = ActProcessor(
        smith.store,
        SlackDirectory(client),
        bot_user_id=None,
        max_attempts=settings.inbox_max_attempts,
    )
    services = ListenerServices(smith.store, smith.processor, ack_deadline=settings.inbox_deadline_seconds)
    if settings.slack_signing_secret is not None:
        secret = settings.slack_signing_secret.get_secret_value()
        smith.bolt = build_bolt_app(client, secret, services)
        smith.extra_routes.append(mount(smith.bolt, secret))
    elif settings.slack_app_token is not None:
        # Socket Mode delivers events over a websocket Slack authenticates; no signing secret is involved.
        smith.bolt = build_bolt_app(client, "socket-mode-needs-no-signing-secret", services)


def make_web_app(smith: Smith) -> web.Application:
    token = smith.settings.ingest_token.get_secret_value() if smith.settings.ingest_token else None
    # A little over the document limit, so an oversize body is answered 413 by us, with a reason.
    application = web.Application(client_max_size=2 * 1024 * 1024 + 64 * 1024)
    judge_owed = smith.judge_worker.wake if smith.judge_worker is not None else None
    ingest = make_ingest_handler(
        smith.ingestor, token, judge_owed, deadline_seconds=smith.settings.ingest_deadline_seconds
    )
    application.router.add_post("/v1/conversations", ingest)
    application.router.add_get("/healthz", handle_healthz)
    channels = smith.membership.channels_not_joined if smith.membership is not None else None
    application.router.add_get("/readyz", make_readyz_handler(smith.store, smith.relay, channels))
    for add_routes in smith.extra_routes:
        add_routes(application)
    return application


async def check_slack(smith: Smith) -> SlackIdentity | None:
    """Before taking traffic: a bot token Slack refuses, or a Slack out of reach, stops the start."""
    settings = smith.settings
    talks_to_slack = settings.post_mode == "live" or smith.bolt is not None
    if smith.slack_client is None or not talks_to_slack:
        return None
    identity = await verify_slack(smith.slack_client, api_url=settings.slack_api_base_url)
    log.info("Slack: the bot token is valid (bot user %s, workspace %s)", identity.user_id, identity.team)
    return identity


async def connect_socket_mode(smith: Smith) -> AsyncSocketModeHandler | None:
    """Socket Mode when an app token is set; an app token Slack refuses stops the start in one line."""
    if smith.bolt is None or smith.settings.slack_app_token is None:
        return None
    handler = AsyncSocketModeHandler(smith.bolt, smith.settings.slack_app_token.get_secret_value())
    try:
        # connect() retries a refused app token for ever, a traceback each time: ask for the socket's
        # URL once first (connect() then uses that URL), so a refusal is an answer, not a loop.
        handler.client.wss_uri = await handler.client.issue_new_wss_url()
        await handler.connect_async()  # type: ignore[no-untyped-call]
    except SlackApiError as exc:
        await handler.close_async()  # type: ignore[no-untyped-call]
        raise socket_mode_refused(exc.response.get("error")) from None
    except (ClientError, OSError, TimeoutError) as exc:
        await handler.close_async()  # type: ignore[no-untyped-call]
        raise slack_unreachable(smith.settings.slack_api_base_url or SLACK_DEFAULT_API, exc) from None
    log.info("connected to Slack in Socket Mode")
    return handler


async def listen(smith: Smith) -> web.AppRunner:
    """The HTTP server, bound; a port in use is a `StartupError` in words, not an OSError traceback."""
    runner = web.AppRunner(make_web_app(smith), access_log=None)
    await runner.setup()
    host, port = smith.settings.host, smith.settings.port
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise cannot_listen(host, port, exc) from None
    return runner


async def serve(smith: Smith) -> None:
    """Run the HTTP server and the relay until SIGINT/SIGTERM."""
    log.info(settings_summary(smith.settings))
    for warning in startup_warnings(smith.settings):
        log.warning(warning)
    identity = await check_slack(smith)
    socket_mode = await connect_socket_mode(smith)
    try:
        runner = await listen(smith)
    except StartupError:
        if socket_mode is not None:
            await socket_mode.close_async()  # type: ignore[no-untyped-call]
        raise
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    log.info(
        "smith serving on http://%s:%s (posts: %s)",
        smith.settings.host,
        smith.settings.port,
        smith.settings.post_mode,
    )
    tasks = []
    if smith.relay is not None:
        tasks.append(asyncio.create_task(smith.relay.run_forever(stop)))
    if smith.judge_worker is not None:
        # Judgements owed before a restart are still in the database: paid now, then as ingest asks.
        tasks.append(asyncio.create_task(smith.judge_worker.run_forever(stop)))
    socket_mode = None
    if smith.processor is not None and smith.bolt is not None:
        smith.processor.bot_user_id = identity.user_id if identity is not None else None
        # Events acked before a crash are still in the inbox: they are processed now, then periodically.
        tasks.append(asyncio.create_task(smith.processor.run_forever(stop)))
    jobs = Jobs(
        smith.store,
        JobConfig(
            tally_time=smith.settings.tally_time,
            sweep_time=smith.settings.sweep_time,
            fixtures_dir=smith.settings.fixtures_dir,
            triage_channel=smith.settings.triage_channel,
            ticket_quiet_after=timedelta(days=smith.settings.ticket_quiet_days),
        ),
        judge=smith.judge,
        tracker=build_tracker(smith.settings),
    )
    scheduler = build_scheduler(jobs)
    scheduler.start()
    # Start-up leaves ~300k long-lived objects (SDKs, models, the rules); a full collection over them
    # stalls every in-flight request for ~150 ms. Frozen, they are skipped: Slack's acks stay fast.
    gc.collect()
    gc.freeze()
    try:
        await stop.wait()
    finally:
        scheduler.shutdown(wait=False)
        if socket_mode is not None:
            await socket_mode.close_async()
        for task in tasks:
            await task
        await smith.judge.aclose()
        await runner.cleanup()
