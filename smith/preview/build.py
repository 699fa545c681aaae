"""Grades documents into a throwaway database and delivers every post into an in-memory Slack.

The same parts as `smith serve` (the ingestor, the outbox, the relay, the Home tab, the tally and the
digest composers) run on a SQLite file in a temporary folder that is deleted afterwards: the preview
is what Slack would show, and nothing of it is stored or sent.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from blocks.home import build_home_view
from cerebrus import Rules
from gradecore.model.contract import ContractViolation, Conversation
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from smith.cli.documents import ParsedDocument
from smith.ingest import IngestResult
from smith.listening.home import home_for
from smith.outbox import Relay, RelayConfig
from smith.preview.workspace import InMemorySlack
from smith.reports.digest import compose_digest, iso_week
from smith.reports.tally import compose_tally
from smith.settings import Settings
from smith.wiring import build_ingestor

# The relay paces nothing here: no Slack is on the other end to be kind to.
_UNPACED = RelayConfig(channel_interval=0.0, global_rate=1_000_000.0)
_DRAIN_SECONDS = 3600.0  # an upper bound only: the drain ends as soon as nothing is pending


@dataclass(frozen=True)
class PropertyChannel:
    property_id: str
    name: str
    locale: str
    channel: str
    tally: dict[str, Any]


@dataclass
class Preview:
    """What the page shows: the workspace's channels, the Home tab, the tally lines and the digest."""

    slack: InMemorySlack
    properties: list[PropertyChannel]
    graded: list[tuple[str, IngestResult]]  # (where the document came from, its result)
    rejected: list[tuple[str, list[str]]]  # (where, each contract error as `path: message`)
    home: dict[str, Any]
    digest: dict[str, Any]

    @property
    def flagged(self) -> int:
        return sum(1 for _, result in self.graded if result.grade is not None and result.grade.flagged)


def preview_settings(settings: Settings) -> Settings:
    """`settings` as the preview runs them: posts built (never sent) and no judge lane (no one pays it)."""
    return settings.model_copy(update={"post_mode_setting": "dry_run", "anthropic_api_key": None})


def channel_for(index: int) -> str:
    """A made-up channel id per property, in Slack's shape; the page names channels by property."""
    return f"C{index:04d}PREVIEW"


async def build_preview(documents: Sequence[ParsedDocument], settings: Settings, rules: Rules) -> Preview:
    with tempfile.TemporaryDirectory(prefix="smith-preview-") as folder:
        engine = create_db_engine(f"sqlite:///{Path(folder) / 'preview.db'}")
        try:
            return await _build(Store(engine), documents, settings, rules)
        finally:
            engine.dispose()


async def _build(
    store: Store, documents: Sequence[ParsedDocument], settings: Settings, rules: Rules
) -> Preview:
    upgrade(store.engine)
    conversations = [(d.where, d.conversation) for d in documents if d.conversation is not None]
    rejected = [(d.where, _every_error(d.violation)) for d in documents if d.violation is not None]
    channels = _map_properties(store, [conversation for _, conversation in conversations])
    ingestor = build_ingestor(preview_settings(settings), store, rules)
    graded = [(where, ingestor.ingest(conversation)) for where, conversation in conversations]
    slack = InMemorySlack()
    await Relay(store, slack, _UNPACED).drain(within=_DRAIN_SECONDS)
    with store.unit() as unit:
        # Whose Home tab the preview shows: an admin sees every part of it (the unlinked accounts too).
        viewer = unit.users.add("preview@smith.invalid", "Preview", "admin")
    home = build_home_view(home_for(store, viewer)).to_dict()
    now = utcnow()
    digest = compose_digest(store, now, week=iso_week(now), judge_drift=None).as_message()
    properties = []
    with store.unit() as unit:
        for prop in unit.properties.list():
            today = now.astimezone(ZoneInfo(prop.timezone)).date()
            tally = compose_tally(unit, prop, today).content.as_message()
            properties.append(PropertyChannel(prop.id, prop.name, prop.locale, channels[prop.id], tally))
    return Preview(slack, properties, graded, rejected, home, digest)


def _map_properties(store: Store, conversations: Sequence[Conversation]) -> dict[str, str]:
    """Each property once, as its latest document describes it, mapped to a channel of its own."""
    channels: dict[str, str] = {}
    with store.unit() as unit:
        for conversation in conversations:
            prop = conversation.property
            channel = channels.setdefault(prop.id, channel_for(len(channels) + 1))
            unit.properties.set(
                prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale, channel_id=channel
            )
    return channels


def _every_error(violation: ContractViolation) -> list[str]:
    """Every contract error of a rejected document: the page has room for all of them."""
    return [f"{path}: {message}" for path, message in violation.errors]
