"""`/smith stats | link @user email | help`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncRespond

from gradecore.entities import utcnow
from gradecore.store import Store, StoreError
from handlers.services import ListenerServices
from smith import texts
from smith.listening.identity import DirectoryUnavailable, resolve
from smith.listening.link_command import UnclearLink, parse_link_text
from smith.listening.linking import link_identity
from smith.stats import window_stats

STATS_WINDOW = timedelta(days=30)


def _stats_text(store: Store, channel: str) -> str:
    with store.unit() as unit:
        properties = [p.id for p in unit.properties.list() if p.slack_channel_id == channel]
        if not properties:
            return texts.stats_no_property()
        end = utcnow()
        stats = window_stats(unit, properties, end - STATS_WINDOW, end)
        return texts.stats_line(
            stats.graded, stats.flagged, stats.reacted, stats.agreement, days=STATS_WINDOW.days
        )


async def _is_admin(services: ListenerServices, slack_user_id: str) -> bool:
    # The same resolution as for acts: an admin who has never reacted is known by their e-mail.
    who = await resolve(services.store, services.processor.directory, slack_user_id)
    return who.may_grade and who.user is not None and who.user.role == "admin"


def _link(store: Store, text: str) -> str:
    try:
        request = parse_link_text(text)
    except UnclearLink as unclear:
        return str(unclear)
    try:
        result = link_identity(store, request.slack_user_id, request.email, linked_by="admin")
    except StoreError as exc:
        return texts.link_failed(str(exc))
    return texts.linked(request.slack_user_id, result.user.email, result.attributed)


def handle_smith_command(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_smith(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        words = str(command.get("text", "")).strip().split(maxsplit=1)
        verb = words[0].lower() if words else "help"
        if verb == "stats":
            await respond(
                await asyncio.to_thread(_stats_text, services.store, str(command.get("channel_id", "")))
            )
        elif verb == "link":
            try:
                admin = await _is_admin(services, str(command.get("user_id", "")))
            except DirectoryUnavailable:
                await respond(texts.slack_unavailable())
                return
            if not admin:
                await respond(texts.link_admins_only())
                return
            await respond(await asyncio.to_thread(_link, services.store, words[1] if len(words) > 1 else ""))
        else:
            await respond(texts.command_help())

    return handle_smith
