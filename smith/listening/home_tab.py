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
from smith.home import home_for
from smith.listening.identity import Directory, DirectoryUnavailable, resolve

log = logging.getLogger(__name__)


async def home_view_for(
    store: Store, directory: Directory, slack_user_id: str, *, locale: str | None = None
) -> View:
    """The Home tab for `slack_user_id`, in their Slack `locale` (English when unknown)."""
    user: User | None = None
    try:
        who = await resolve(store, directory, slack_user_id)
        user = who.user if who.may_grade else None
    except DirectoryUnavailable:
        log.warning("Home tab for %s: users.info unavailable", slack_user_id)
    return build_home_view(await asyncio.to_thread(home_for, store, user, locale=locale))
