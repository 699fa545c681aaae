"""The store: the one way the rest of the code reads and writes the database.

`Store.unit()` opens a unit of work (one transaction) whose repositories share a session; leaving the
block commits, an exception rolls everything back. Append-only entities have no update or delete path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlmodel import Session

from gradecore.model.keys import item_ref
from gradecore.persistence.store.conversations import ConversationsRepo, PutOutcome, content_hash
from gradecore.persistence.store.errors import (
    AppendOnlyViolation,
    DuplicateEmail,
    StoreError,
    UnknownItem,
    UnknownProperty,
    UnknownUser,
)
from gradecore.persistence.store.grades import GradesRepo
from gradecore.persistence.store.guard import install_append_only_guard
from gradecore.persistence.store.inbox import InboxRepo, PendingActsRepo
from gradecore.persistence.store.jobs import FixturesRepo, JobsRepo
from gradecore.persistence.store.judging import JudgeRequestsRepo
from gradecore.persistence.store.outbox import OutboxRepo
from gradecore.persistence.store.people import ROLES, IdentitiesRepo, UsersRepo, normalise_email
from gradecore.persistence.store.properties import PropertiesRepo
from gradecore.persistence.store.tickets import TicketsRepo
from gradecore.persistence.store.verdicts import (
    PrinciplesRepo,
    VerdictsRepo,
    agrees_with_machine,
    current_acts,
)
from gradecore.persistence.store.windows import WindowsRepo

__all__ = [
    "ROLES",
    "AppendOnlyViolation",
    "DuplicateEmail",
    "PutOutcome",
    "Store",
    "StoreError",
    "Unit",
    "UnknownItem",
    "UnknownProperty",
    "UnknownUser",
    "agrees_with_machine",
    "content_hash",
    "current_acts",
    "item_ref",
    "normalise_email",
]


class Unit:
    """One transaction's worth of repositories."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.users = UsersRepo(session)
        self.identities = IdentitiesRepo(session)
        self.properties = PropertiesRepo(session)
        self.conversations = ConversationsRepo(session)
        self.grades = GradesRepo(session)
        self.verdicts = VerdictsRepo(session)
        self.principles = PrinciplesRepo(session)
        self.outbox = OutboxRepo(session)
        self.inbox = InboxRepo(session)
        self.pending_acts = PendingActsRepo(session)
        self.jobs = JobsRepo(session)
        self.fixtures = FixturesRepo(session)
        self.tickets = TicketsRepo(session)
        self.judging = JudgeRequestsRepo(session)
        self.windows = WindowsRepo(session)


class Store:
    def __init__(self, engine: Engine) -> None:
        install_append_only_guard()
        self.engine = engine

    @contextmanager
    def unit(self) -> Iterator[Unit]:
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield Unit(session)
                session.commit()
            except BaseException:
                session.rollback()
                raise
