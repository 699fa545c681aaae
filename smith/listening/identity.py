"""Who acted: a Slack user mapped to a staff User through SlackIdentity, else by users.info e-mail.

No User, no verdict: an unknown person's act waits as pending until an admin links them. Provenance is
never weakened by guessing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.exc import IntegrityError

from gradecore.errors import SmithError
from gradecore.persistence.entities import User
from gradecore.persistence.store import Store

log = logging.getLogger(__name__)


# Answers that settle who someone is; any other failure (5xx, fatal_error, …) is Slack being unwell.
_NO_SUCH_USER = {"user_not_found", "user_not_visible"}


class DirectoryUnavailable(SmithError):
    """users.info could not answer now; the event stays in the inbox and the retry pass tries again."""


@dataclass(frozen=True)
class SlackProfile:
    email: str | None
    is_bot: bool


class Directory(Protocol):
    async def profile(self, slack_user_id: str) -> SlackProfile | None: ...


class SlackDirectory:
    """users.info through a client that retries 429s on reads (slack_sdk's rate-limit handler)."""

    def __init__(self, client: AsyncWebClient) -> None:
        self._client = client

    async def profile(self, slack_user_id: str) -> SlackProfile | None:
        try:
            response = await self._client.users_info(user=slack_user_id)
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error in _NO_SUCH_USER:
                return None
            # Not "unknown person": parking the act as unlinked would tell a linked grader otherwise.
            raise DirectoryUnavailable(f"users.info {slack_user_id} failed: {error}") from None
        user = response.get("user") or {}
        email = (user.get("profile") or {}).get("email")
        return SlackProfile(email=email, is_bot=bool(user.get("is_bot")) or slack_user_id == "USLACKBOT")

    async def own_user_id(self) -> str | None:
        """Smith's own Slack user (auth.test), so its own acts are told apart without a lookup."""
        user = (await self._client.auth_test()).get("user_id")
        return str(user) if user else None


@dataclass(frozen=True)
class Resolution:
    user: User | None
    is_bot: bool = False

    @property
    def may_grade(self) -> bool:
        return self.user is not None and self.user.active


async def resolve(store: Store, directory: Directory, slack_user_id: str, team_id: str = "") -> Resolution:
    known = await asyncio.to_thread(_linked_user, store, slack_user_id)
    if known is not None:
        return Resolution(known)
    profile = await directory.profile(slack_user_id)
    if profile is None:
        return Resolution(None)
    if profile.is_bot:
        return Resolution(None, is_bot=True)
    if not profile.email:
        return Resolution(None)
    email = profile.email
    return Resolution(await asyncio.to_thread(_link_by_email, store, slack_user_id, email, team_id))


def _linked_user(store: Store, slack_user_id: str) -> User | None:
    with store.unit() as unit:
        return unit.identities.user_for(slack_user_id)


def _link_by_email(store: Store, slack_user_id: str, email: str, team_id: str) -> User | None:
    with store.unit() as unit:
        user = unit.users.by_email(email)
    if user is None:
        return None
    try:
        # A unit of its own: on SQLite a read-then-write transaction fails at once under concurrency.
        with store.unit() as unit:
            unit.identities.link(slack_user_id, user, linked_by="email", team_id=team_id)
    except IntegrityError:  # the person's other first act linked them a moment ago
        pass
    return user
