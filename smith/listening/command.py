"""What `/smith stats | link @user email | help` answers: the words to respond with, never a post.

Who may link is decided here, with the same resolution as for acts (`identity.resolve`): an admin who
has never reacted is known by their e-mail.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from blocks import texts
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store, StoreError
from smith.listening.identity import Directory, DirectoryUnavailable, resolve
from smith.listening.link_command import UnclearLink, parse_link_text
from smith.listening.linking import LinkRefused, link_identity
from smith.listening.membership import ChannelsOfPeople, MembershipUnavailable
from smith.reports.stats import window_stats

STATS_WINDOW = timedelta(days=30)


@dataclass(frozen=True)
class SmithCommand:
    """The slash command as Slack sent it: who typed it, in which channel, and the words after `/smith`."""

    user_id: str
    channel_id: str
    text: str


async def answer_command(
    store: Store, directory: Directory, command: SmithCommand, membership: ChannelsOfPeople | None = None
) -> str:
    words = command.text.strip().split(maxsplit=1)
    verb = words[0].lower() if words else "help"
    if verb == "stats":
        if membership is not None:
            # docs/verdicts.md: a channel's figures are for its members (a public channel can be viewed,
            # and a command typed there, without joining it).
            try:
                theirs = await membership.channels_of(command.user_id)
            except MembershipUnavailable:
                return texts.slack_unavailable()
            if command.channel_id not in theirs:
                return texts.stats_members_only()
        return await asyncio.to_thread(stats_text, store, command.channel_id)
    if verb == "link":
        try:
            admin = await _is_admin(store, directory, command.user_id)
        except DirectoryUnavailable:
            return texts.slack_unavailable()
        if not admin:
            return texts.link_admins_only()
        return await asyncio.to_thread(_link, store, words[1] if len(words) > 1 else "")
    return texts.command_help()


def stats_text(store: Store, channel: str) -> str:
    with store.unit() as unit:
        properties = [p.id for p in unit.properties.list() if p.slack_channel_id == channel]
        if not properties:
            return texts.stats_no_property()
        end = utcnow()
        stats = window_stats(unit, properties, end - STATS_WINDOW, end)
        return texts.stats_line(
            stats.graded, stats.flagged, stats.reacted, stats.agreement, days=STATS_WINDOW.days
        )


async def _is_admin(store: Store, directory: Directory, slack_user_id: str) -> bool:
    who = await resolve(store, directory, slack_user_id)
    return who.may_grade and who.user is not None and who.user.role == "admin"


def _link(store: Store, text: str) -> str:
    try:
        request = parse_link_text(text)
    except UnclearLink as unclear:
        return str(unclear)
    try:
        result = link_identity(
            store, request.slack_user_id, request.email, linked_by="admin", force=request.force
        )
    except LinkRefused as refused:
        return str(refused)
    except StoreError as exc:
        return texts.link_failed(str(exc))
    answer = texts.linked(request.slack_user_id, result.user.email, result.attributed)
    return f"{answer} {texts.link_replaced(result.replaced)}" if result.replaced else answer
