"""`smith demo`: the whole loop on the embedded default, in a fresh SQLite database, in seconds.

Demo staff and properties are created, the bundled example conversations are ingested and graded, and
every post is rendered as staff would see it in Slack (dry-run: nothing leaves the machine).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from rich.console import Console
from rich.table import Column, Table

from cerebrus import Rules
from gradecore.model.contract import Conversation, parse_conversation
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from smith.ingest import IngestResult
from smith.listening.identity import SlackProfile
from smith.listening.processor import ActProcessor
from smith.outbox import Relay, RelayConfig, RelayStats
from smith.outbox.keys import parent_key, turn_key
from smith.reports.tally import compose_tally
from smith.settings import Settings
from smith.sweep.job import SweepReport, run_sweep
from smith.tickets.tracker import MarkdownTracker
from smith.transports.render import render_payload
from smith.wiring import build_ingestor, build_transport

DEMO_USERS = (
    ("maria.lopez@camellia.example", "María López", "staff"),
    ("sam.okafor@birchwood.example", "Sam Okafor", "staff"),
    ("dev.patel@smith.example", "Dev Patel", "engineer"),
)
# The demo's Slack accounts: users.info would give these e-mails, which map them to the staff above.
DEMO_SLACK_ACCOUNTS = {"U0MARIA": "maria.lopez@camellia.example", "U0SAM": "sam.okafor@birchwood.example"}
CORRECTION = (
    "Should be PASS — the $1,950 is the renewal rate the office quoted on the call #ledger-renewal-rates"
)
DEMO_CHANNELS = {
    "camellia": "C0CAMELLIA",
    "birchwood": "C0BIRCHWOOD",
    "lampliter": "C0LAMPLITER",
    "oakridge": "C0OAKRIDGE",
}


@dataclass
class DemoRun:
    store: Store
    conversations: list[Conversation]
    results: list[IngestResult]
    delivery: RelayStats
    acts: list[str] = field(default_factory=list)
    sweep: SweepReport | None = None
    tallies: list[str] = field(default_factory=list)


class DemoDirectory:
    """Stands in for users.info: the demo's Slack accounts and their e-mails."""

    async def profile(self, slack_user_id: str) -> SlackProfile | None:
        email = DEMO_SLACK_ACCOUNTS.get(slack_user_id)
        return None if email is None else SlackProfile(email=email, is_bot=False)


def bundled_conversations() -> list[Conversation]:
    folder = resources.files("smith") / "demo_data"
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".json")), key=lambda e: e.name
    )
    return [parse_conversation(entry.read_bytes()) for entry in files]


async def write_preview(workdir: Path, settings: Settings, rules: Rules) -> Path:
    """The bundled examples' posts as one HTML page (`smith preview`), beside the demo's database."""
    from smith.cli.documents import ParsedDocument
    from smith.preview.build import build_preview
    from smith.preview.page import render_page

    documents = [ParsedDocument(c.conversation_id, c, None) for c in bundled_conversations()]
    page = workdir / "preview.html"
    page.write_text(render_page(await build_preview(documents, settings, rules)), encoding="utf-8")
    return page


def prepare(workdir: Path) -> Store:
    """A fresh database with the demo staff and properties (each property mapped to its channel)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    engine = create_db_engine(f"sqlite:///{workdir / 'demo.db'}")
    upgrade(engine)
    store = Store(engine)
    with store.unit() as unit:
        for email, name, role in DEMO_USERS:
            unit.users.add(email, name, role)  # type: ignore[arg-type]
    return store


def demo_settings(settings: Settings, workdir: Path) -> Settings:
    """`settings` as the demo runs them: posts rendered under `workdir` (never sent), no judge lane
    (nothing would pay what it owes); the rules file and the conversation links still apply."""
    return settings.model_copy(
        update={"post_mode_setting": "dry_run", "dry_run_dir": workdir / "posts", "anthropic_api_key": None}
    )


async def run_demo(workdir: Path, console: Console, settings: Settings, rules: Rules) -> DemoRun:
    """The demo, wired from `settings` and grading under `rules` as `serve` would."""
    store = prepare(workdir)
    settings = demo_settings(settings, workdir)
    conversations = bundled_conversations()
    with store.unit() as unit:
        for conversation in conversations:
            prop = conversation.property
            channel = DEMO_CHANNELS.get(prop.id)
            unit.properties.set(
                prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale, channel_id=channel
            )
    ingestor = build_ingestor(settings, store, rules)
    results = [ingestor.ingest(conversation) for conversation in conversations]
    transport = build_transport(
        settings, lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)
    )
    assert transport is not None  # the demo's settings render every post
    relay = Relay(store, transport, RelayConfig(channel_interval=0.001, global_rate=1000.0))
    delivery = await relay.drain(within=30.0)
    run = DemoRun(store, conversations, results, delivery)
    run.acts = await simulate_staff(store)
    delivery.merge(await relay.drain(within=30.0))
    run.sweep = run_sweep(store, workdir / "fixtures", tracker=MarkdownTracker(workdir / "fixtures"))
    run.tallies = tally_lines(store, conversations)
    return run


async def simulate_staff(store: Store) -> list[str]:
    """A 👍 on one parent and a written correction under one turn, through the real inbox and processor."""
    with store.unit() as unit:
        parent = unit.outbox.by_key(parent_key("c0a80101-lampliter-0001"))
        reply = unit.outbox.by_key(turn_key("b1rchw00d-rent-0042", "t1"))
        parent_of_reply = unit.outbox.by_key(parent_key("b1rchw00d-rent-0042"))
    assert parent and reply and parent_of_reply and parent.ts and reply.ts and parent_of_reply.ts
    thumbs_up: dict[str, Any] = {
        "type": "reaction_added",
        "user": "U0MARIA",
        "reaction": "+1::skin-tone-3",
        "item": {"type": "message", "channel": parent.channel, "ts": parent.ts},
    }
    correction: dict[str, Any] = {
        "type": "message",
        "user": "U0SAM",
        "channel": parent_of_reply.channel,
        "text": CORRECTION,
        "ts": f"{float(reply.ts) + 1:.6f}",
        "thread_ts": parent_of_reply.ts,
    }
    events = [("Ev0DEMO1", thumbs_up), ("Ev0DEMO2", correction)]
    processor = ActProcessor(store, DemoDirectory(), bot_user_id="U0SMITH")
    outcomes = []
    for event_id, event in events:
        with store.unit() as unit:
            unit.inbox.add(
                event_id, str(event["type"]), {"event_id": event_id, "team_id": "T0DEMO", "event": event}
            )
        outcomes.append(await processor.process(event_id))
    return outcomes


def tally_lines(store: Store, conversations: list[Conversation]) -> list[str]:
    """Each property's tally of the local day its bundled conversations settled on: a tally counts
    conversations by the day they settled (docs/jobs.md), and the examples settled on fixed dates."""
    settled_on: dict[str, datetime] = {}
    for conversation in conversations:
        latest = settled_on.get(conversation.property.id)
        if latest is None or conversation.settled_at > latest:
            settled_on[conversation.property.id] = conversation.settled_at
    lines = []
    with store.unit() as unit:
        for prop in unit.properties.with_channel():
            settled = settled_on.get(prop.id, utcnow())
            day = settled.astimezone(ZoneInfo(prop.timezone)).date()
            lines.append(render_payload(compose_tally(unit, prop, day).content.as_message())[0])
    return lines


def summary_table(run: DemoRun) -> Table:
    columns = ("property", "channel", "verdict", "turns flagged", "Clara's part", "ours")
    table = Table(*(Column(name, overflow="fold") for name in columns), title="What was flagged")
    for conversation, result in zip(run.conversations, run.results, strict=True):
        grade = result.grade
        assert grade is not None
        table.add_row(
            conversation.property.name,
            conversation.channel,
            grade.headline.text,
            f"{len(grade.flagged_turns)} of {len(grade.turns)}",
            ", ".join(grade.split.clara) or "—",
            ", ".join(grade.split.ours) or "—",
        )
    return table
