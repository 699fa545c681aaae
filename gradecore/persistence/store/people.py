"""Staff Users and the Slack identities mapped to them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import select as sql_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from gradecore.persistence.entities import SlackIdentity, User
from gradecore.persistence.store.errors import DuplicateEmail, UnknownUser

Role = Literal["staff", "engineer", "admin"]
ROLES: tuple[Role, ...] = ("staff", "engineer", "admin")


def normalise_email(email: str) -> str:
    return email.strip().lower()


class UsersRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, email: str, name: str, role: Role = "staff", *, active: bool = True) -> User:
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        key = normalise_email(email)
        if self.by_email(key) is not None:
            raise DuplicateEmail(key)
        user = User(email=key, name=name.strip(), role=role, active=active)
        self._session.add(user)
        try:
            self._session.flush()
        except IntegrityError:  # a concurrent writer won the race
            raise DuplicateEmail(key) from None
        return user

    def by_email(self, email: str) -> User | None:
        return self._session.exec(select(User).where(User.email == normalise_email(email))).first()

    def get(self, user_id: int) -> User | None:
        return self._session.get(User, user_id)

    def require_by_email(self, email: str) -> User:
        user = self.by_email(email)
        if user is None:
            raise UnknownUser(f"with email {normalise_email(email)}")
        return user

    def list(self) -> Sequence[User]:
        return self._session.exec(select(User).order_by(col(User.email))).all()

    def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The names of these users, by id, in one query however many there are."""
        ids = set(user_ids)
        if not ids:
            return {}
        users = self._session.exec(select(User).where(col(User.id).in_(ids))).all()
        return {user.id: user.name for user in users if user.id is not None}

    def set_active(self, email: str, active: bool) -> User:
        user = self.require_by_email(email)
        user.active = active
        self._session.add(user)
        return user


@dataclass(frozen=True)
class LinkedUser:
    """What acting needs to know of a linked Slack user's User: who, and whether they may still act."""

    user_id: int
    active: bool


class IdentitiesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def user_for(self, slack_user_id: str) -> User | None:
        identity = self._session.get(SlackIdentity, slack_user_id)
        return None if identity is None else self._session.get(User, identity.user_id)

    def linked(self, slack_user_ids: Iterable[str]) -> dict[str, LinkedUser]:
        """The linked ones among several Slack users, read in one query (a batch of acts' people)."""
        ids = list(dict.fromkeys(slack_user_ids))
        if not ids:
            return {}
        query = (
            sql_select(col(SlackIdentity.slack_user_id), col(SlackIdentity.user_id), col(User.active))
            .join(User, col(User.id) == col(SlackIdentity.user_id))
            .where(col(SlackIdentity.slack_user_id).in_(ids))
        )
        rows = self._session.connection().execute(query)  # plain rows: no ORM objects to build
        return {str(slack_id): LinkedUser(user_id, bool(active)) for slack_id, user_id, active in rows}

    def link(
        self, slack_user_id: str, user: User, *, linked_by: Literal["email", "admin"], team_id: str = ""
    ) -> None:
        """Map a Slack user to a User; re-linking replaces the mapping (an admin's word is final)."""
        assert user.id is not None
        identity = self._session.get(SlackIdentity, slack_user_id)
        if identity is None:
            identity = SlackIdentity(
                slack_user_id=slack_user_id, team_id=team_id, user_id=user.id, linked_by=linked_by
            )
        else:
            identity.user_id, identity.linked_by = user.id, linked_by
        self._session.add(identity)
        self._session.flush()

    def for_user(self, user_id: int) -> Sequence[SlackIdentity]:
        return self._session.exec(select(SlackIdentity).where(SlackIdentity.user_id == user_id)).all()
