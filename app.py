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

from aiohttp import web
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp

from cerebrus import Rules, load_rules
from cerebrus.judge import JudgeConfig, JudgeLane
from gradecore.db import create_db_engine, require_migrated
from gradecore.store import Store
from handlers import ListenerServices
from scheduler import JobConfig, Jobs, build_scheduler
from smith.ingest import Ingestor
from smith.listening.identity import SlackDirectory
from smith.listening.processor import ActProcessor
from smith.membership import ChannelMembership
from smith.outbox import Relay, RelayConfig
from smith.settings import Settings
from smith.slack_app import bot_user_id, build_bolt_app, build_read_client, mount
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
    bolt: AsyncApp | None = None
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


def build_judge(settings: Settings, rules: Rules) -> JudgeLane:
    key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else None
    config = JudgeConfig(
        api_key=key,
        model=settings.judge_model,
        base_url=settings.anthropic_base_url,
        timeout_seconds=settings.judge_timeout_seconds,
        max_concurrency=settings.judge_concurrency,
    )
    return JudgeLane(config, calibrated=frozenset(rules.calibrated_judged))


def build(
    settings: Settings, *, printer: Callable[[str], None] | None = None, migrated: bool = True
) -> Smith:
    engine = create_db_engine(settings.database_url)
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
            ops_channel=settings.ops_channel,
        )
        relay = Relay(store, transport, relay_config)
    ingestor = Ingestor(
        store,
        rules=rules,
        post=transport is not None,
        conversation_url_template=settings.conversation_url_template,
        max_thread_replies=settings.max_thread_replies,
    )
    smith = Smith(settings, store, rules, ingestor, build_judge(settings, rules), transport, relay)
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
    smith.membership = ChannelMembership(smith.store, client)
    smith.processor = ActProcessor(smith.store, SlackDirectory(client), bot_user_id=None)
    services = ListenerServices(smith.store, smith.processor)
    if settings.slack_signing_secret is not None:
        smith.bolt = build_bolt_app(client, settings.slack_signing_secret.get_secret_value(), services)
        smith.extra_routes.append(mount(smith.bolt))
    elif settings.slack_app_token is not None:
        # Socket Mode delivers events over a websocket Slack authenticates; no signing secret is involved.
        smith.bolt = build_bolt_app(client, "socket-mode-needs-no-signing-secret", services)
    else:
        log.warning(
            "SLACK_SIGNING_SECRET is not set: /slack/events is not served (requests could not be verified)"
        )


def make_web_app(smith: Smith) -> web.Application:
    token = smith.settings.ingest_token.get_secret_value() if smith.settings.ingest_token else None
    # A little over the document limit, so an oversize body is answered 413 by us, with a reason.
    application = web.Application(client_max_size=2 * 1024 * 1024 + 64 * 1024)
    application.router.add_post("/v1/conversations", make_ingest_handler(smith.ingestor, token, smith.judge))
    application.router.add_get("/healthz", handle_healthz)
    channels = smith.membership.channels_not_joined if smith.membership is not None else None
    application.router.add_get("/readyz", make_readyz_handler(smith.store, smith.relay, channels))
    for add_routes in smith.extra_routes:
        add_routes(application)
    return application


async def serve(smith: Smith) -> None:
    """Run the HTTP server and the relay until SIGINT/SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    runner = web.AppRunner(make_web_app(smith), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, smith.settings.host, smith.settings.port)
    await site.start()
    log.info(
        "smith serving on http://%s:%s (posts: %s)",
        smith.settings.host,
        smith.settings.port,
        smith.settings.post_mode,
    )
    tasks = []
    if smith.relay is not None:
        tasks.append(asyncio.create_task(smith.relay.run_forever(stop)))
    socket_mode = None
    if smith.processor is not None and smith.bolt is not None:
        smith.processor.bot_user_id = await bot_user_id(smith.bolt.client)
        # Events acked before a crash are still in the inbox: they are processed now, then periodically.
        tasks.append(asyncio.create_task(smith.processor.run_forever(stop)))
        if smith.settings.slack_app_token is not None:
            socket_mode = AsyncSocketModeHandler(
                smith.bolt, smith.settings.slack_app_token.get_secret_value()
            )
            await socket_mode.connect_async()  # type: ignore[no-untyped-call]
            log.info("connected to Slack in Socket Mode")
    jobs = Jobs(
        smith.store,
        JobConfig(
            tally_time=smith.settings.tally_time,
            sweep_time=smith.settings.sweep_time,
            fixtures_dir=smith.settings.fixtures_dir,
            triage_channel=smith.settings.triage_channel,
        ),
        judge=smith.judge,
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
            await socket_mode.close_async()  # type: ignore[no-untyped-call]
        for task in tasks:
            await task
        await smith.judge.aclose()
        await runner.cleanup()
