"""The App Home tab of whoever opens it: what waits for a review, their own week, and (for admins) the
Slack accounts whose acts wait for a link; the not-linked tab for someone who may not grade.

Reads only: the tab is rebuilt from the database each time it is opened (`app_home_opened`). Who
someone is follows the same resolution as for acts (`identity.resolve`); when Slack cannot say just
now, the person sees the not-linked tab rather than nothing. `blocks/home.py` builds the view.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from slack_sdk.models.views import View

from blocks import locales
from blocks.home import HomeContent, MyWeek, WaitingPost, build_home_view
from gradecore.persistence.entities import Property, SlackPost, User, utcnow
from gradecore.persistence.store import Store, Unit, agrees_with_machine, current_acts
from smith.listening.identity import Directory, DirectoryUnavailable, resolve
from smith.listening.membership import ChannelsOfPeople, MembershipUnavailable

log = logging.getLogger(__name__)

WEEK = timedelta(days=7)
MAX_WAITING = 20  # posts listed; the heading still counts them all
_SCAN_PAGE = 200  # parent posts read per page while looking for unreviewed ones
_SCAN_PAGES = 50  # the newest 10,000 parent posts: opening the tab stays quick on a years-old archive


def home_for(
    store: Store,
    user: User | None,
    *,
    now: datetime | None = None,
    locale: str | None = None,
    channels: frozenset[str] | None = None,
) -> HomeContent:
    """The Home tab of `user` (None: a Slack account not linked to an active staff User), in the
    viewer's Slack `locale`: a person belongs to no property, so the tab speaks their language,
    English when Slack did not say. With `channels`, only the properties posting to one of them (the
    channels the person is in)."""
    now = now or utcnow()
    with store.unit() as unit:
        properties = {
            p.id: p
            for p in unit.properties.with_channel()
            if channels is None or p.slack_channel_id in channels
        }
        locale = locales.supported(locale)
        if user is None or user.id is None:
            return HomeContent(locale, False, [], 0, None, [])
        waiting, total = _waiting(unit, properties)
        unlinked = _unlinked(unit) if user.role == "admin" else []
        return HomeContent(locale, True, waiting, total, _my_week(unit, user.id, now), unlinked)


async def home_view_for(
    store: Store,
    directory: Directory,
    slack_user_id: str,
    membership: ChannelsOfPeople | None = None,
    *,
    locale: str | None = None,
) -> View:
    """The Home tab for `slack_user_id`, in their Slack `locale` (English when unknown). With
    `membership`, a person who is not an admin sees only the properties whose channels they are a
    member of (docs/verdicts.md); if Slack cannot say which, they see none until it can."""
    user: User | None = None
    try:
        who = await resolve(store, directory, slack_user_id)
        user = who.user if who.may_grade else None
    except DirectoryUnavailable:
        log.warning("Home tab for %s: users.info unavailable", slack_user_id)
    channels: frozenset[str] | None = None
    if user is not None and user.role != "admin" and membership is not None:
        try:
            channels = await membership.channels_of(slack_user_id)
        except MembershipUnavailable as exc:
            log.warning("Home tab for %s: %s", slack_user_id, exc)
            channels = frozenset()
    return build_home_view(await asyncio.to_thread(home_for, store, user, locale=locale, channels=channels))


def _waiting(unit: Unit, properties: dict[str, Property]) -> tuple[list[WaitingPost], int]:
    """Parent posts in mapped channels that no one has reviewed yet, newest first."""
    channels = {p.slack_channel_id for p in properties.values() if p.slack_channel_id}
    if not channels:
        return [], 0
    waiting: list[WaitingPost] = []
    total = 0
    offset = 0
    for _ in range(_SCAN_PAGES):
        page = unit.outbox.sent_parents_in(channels, offset=offset, limit=_SCAN_PAGE)
        if not page:
            break
        offset += len(page)
        acts = unit.verdicts.for_conversations(post.conversation_id or "" for post in page)
        reviewed = {verdict.conversation_id for verdict in current_acts(acts)}
        for post in page:
            if post.conversation_id in reviewed:
                continue
            total += 1
            if len(waiting) < MAX_WAITING:
                prop = properties.get(post.property_id or "")
                waiting.append(
                    WaitingPost(
                        headline=_headline(post),
                        property_name=prop.name if prop else "",
                        channel=post.channel or "",
                        ts=post.ts or "",
                        posted_at=post.updated_at,
                    )
                )
    return waiting, total


def _headline(post: SlackPost) -> str:
    """The post's headline as it was posted (in its property's language)."""
    for block in post.payload.get("blocks") or []:
        if block.get("type") == "header":
            return str((block.get("text") or {}).get("text") or "")
    return str(post.payload.get("text") or "")[:150]


def _my_week(unit: Unit, user_id: int, now: datetime) -> MyWeek:
    window = unit.verdicts.since(now - WEEK, now + timedelta(seconds=1))
    mine = [verdict for verdict in window if verdict.grader_user_id == user_id]
    standing = current_acts(mine)
    # docs/verdicts.md: a 👎 judges the grade (and disagrees), as in `smith agreement` and /smith stats.
    said = [
        agrees_with_machine(v.signal, v.expected_level, v.machine_grade_at_time.get("level"))
        for v in standing
    ]
    judged = [agrees for agrees in said if agrees is not None]
    return MyWeek(len(standing), len(judged), sum(judged))


def _unlinked(unit: Unit) -> list[tuple[str, int]]:
    """Slack users with acts still waiting for a link, most acts first."""
    return sorted(unit.pending_acts.waiting_per_person(), key=lambda row: (-row[1], row[0]))
