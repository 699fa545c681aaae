"""`smith demo`: the whole loop on the embedded default, in a fresh SQLite database, in seconds.

Demo staff and properties are created, the bundled example conversations are ingested and graded, and
every post is rendered as staff would see it in Slack (dry-run: nothing leaves the machine).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.table import Table

from gradecore.contract import Conversation, parse_conversation
from gradecore.db import create_db_engine, upgrade
from gradecore.store import Store
from smith.ingest import Ingestor, IngestResult
from smith.outbox import Relay, RelayConfig, RelayStats
from smith.transports.dry_run import DryRunTransport

DEMO_USERS = (
    ("maria.lopez@camellia.example", "María López", "staff"),
    ("sam.okafor@birchwood.example", "Sam Okafor", "staff"),
    ("dev.patel@smith.example", "Dev Patel", "engineer"),
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


def bundled_conversations() -> list[Conversation]:
    folder = resources.files("smith") / "demo_data"
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".json")), key=lambda e: e.name
    )
    return [parse_conversation(entry.read_bytes()) for entry in files]


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


async def run_demo(workdir: Path, console: Console) -> DemoRun:
    store = prepare(workdir)
    conversations = bundled_conversations()
    with store.unit() as unit:
        for conversation in conversations:
            prop = conversation.property
            channel = DEMO_CHANNELS.get(prop.id)
            unit.properties.set(
                prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale, channel_id=channel
            )
    ingestor = Ingestor(store)
    results = [ingestor.ingest(conversation) for conversation in conversations]
    transport = DryRunTransport(
        lambda line: console.print(line, markup=False, highlight=False), payload_dir=workdir / "posts"
    )
    relay = Relay(store, transport, RelayConfig(channel_interval=0.001, global_rate=1000.0))
    delivery = await relay.drain(within=30.0)
    return DemoRun(store, conversations, results, delivery)


def summary_table(run: DemoRun) -> Table:
    table = Table(
        "property", "channel", "verdict", "turns flagged", "Clara's part", "ours", title="What was flagged"
    )
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
