"""Wiring: settings → store → engine → Bolt app → aiohttp server / Socket Mode → scheduler; `smith serve`
runs it (the console script, `smith_cli`, is the one module above this one: docs/architecture.md).

Settings are read once (by the command line) and everything else receives what it needs from here;
what the settings build is built in `smith/wiring.py`, shared with the command line and the demo.
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

from cerebrus import Rules
from cerebrus.judge import JudgeLane
from gradecore.persistence.db import create_db_engine, require_migrated
from gradecore.persistence.store import Store
from handlers import ListenerServices
from handlers.slack_app import build_bolt_app, mount
from scheduler import JobConfig, Jobs, build_scheduler
from smith import wiring
from smith.cli.context import settings as read_settings
from smith.ingest import Ingestor
from smith.judging import JudgeWorker
from smith.listening.identity import SlackDirectory
from smith.listening.inbox_writer import InboxWriter
from smith.listening.membership import ChannelMembership, PeopleInChannels
from smith.listening.processor import ActProcessor
from smith.logs import configure_logging
from smith.outbox import Relay, RelayConfig
from smith.settings import Settings
from smith.tickets import build_tracker, check_tracker_settings
from smith.transports import Transport
from smith.web.health import handle_healthz, make_readyz_handler
from smith.web.ingest import make_ingest_handler
from smith.web.observe import make_metrics_handler, observed_ingest
from smith.web.startup import (
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


def build(settings: Settings) -> Smith:
    engine = create_db_engine(settings.database_url, timeouts=settings.database_timeouts)
    require_migrated(engine, named=True)
    store = Store(engine)
    rules = wiring.effective_rules(settings)
    transport = wiring.build_transport(settings)
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
    judge = wiring.build_judge_lane(settings, rules)
    ingestor = wiring.build_ingestor(settings, store, rules)
    smith = Smith(settings, store, rules, ingestor, judge, transport, relay)
    if judge.enabled:
        smith.judge_worker = JudgeWorker(store, judge, ingestor)
    attach_slack(smith)
    return smith


def attach_slack(smith: Smith) -> None:
    """The listening side: needs a bot token, and a signing secret (HTTP) or an app token (Socket Mode)."""
    settings = smith.settings
    client = wiring.slack_read_client(settings)
    if client is None:
        return
    smith.slack_client = client
    smith.membership = ChannelMembership(smith.store, client)
    people = PeopleInChannels(client)
    directory = SlackDirectory(client)
    inbox = InboxWriter(smith.store, deadline=settings.inbox_deadline_seconds)
    smith.processor = ActProcessor(
        smith.store,
        directory,
        bot_user_id=None,
        max_attempts=settings.inbox_max_attempts,
        ask_bot_user_id=directory.own_user_id,
        membership=people,
    )
    # Acks first: processing waits (a bounded while) for a burst of events to be recorded.
    smith.processor.defer_while(inbox.busy)
    services = ListenerServices(smith.store, inbox, smith.processor, directory, membership=people)
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
    application.router.add_post("/v1/conversations", observed_ingest(ingest))
    application.router.add_get("/healthz", handle_healthz)
    application.router.add_get("/metrics", make_metrics_handler(smith.store.engine))
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
    if smith.processor is not None and identity is not None:
        smith.processor.bot_user_id = identity.user_id  # known before the first event arrives
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
    if smith.processor is not None and smith.bolt is not None:
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
        # Events stop arriving from Slack before the tasks that process them drain: what is not acked
        # yet is delivered again to the next process; what is acked is in the inbox, which it resumes.
        if socket_mode is not None:
            await socket_mode.close_async()  # type: ignore[no-untyped-call]
        for task in tasks:
            await task
        await smith.judge.aclose()
        await runner.cleanup()


def serve_command(*, host: str | None = None, port: int | None = None) -> None:
    """Run the HTTP server (ingest, health, Slack events) with the outbox relay.

    `host`/`port` (the command's --host/--port) override SMITH_HOST/SMITH_PORT. Every setting is
    checked before anything is logged or started: a mistake is one line (exit 78), not a traceback
    after "serving"."""
    current = read_settings()
    overrides = {key: value for key, value in (("host", host), ("port", port)) if value is not None}
    if overrides:
        current = current.model_copy(update=overrides)
    check_tracker_settings(current)
    configure_logging(current.log_level, current.log_format)
    asyncio.run(serve(build(current)))
