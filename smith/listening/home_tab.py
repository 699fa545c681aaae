"""The Home tab of whoever opens it: their content if they may grade, else the not-linked tab.

Who someone is follows the same resolution as for acts (`identity.resolve`); when Slack cannot say
just now, the person sees the not-linked tab rather than nothing.
"""

from __future__ import annotations

import asyncio
import logging

from slack_sdk.models.views import View

from blocks.home import build_home_view
from gradecore.entities import User
from gradecore.store import Store
from smith.listening.home import home_for
from smith.listening.identity import Directory, DirectoryUnavailable, resolve
from smith.listening.membership import ChannelsOfPeople, MembershipUnavailable

log = logging.getLogger(__name__)


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
