"""Enforces append-only at the ORM level: MachineGrade and GradeVerdict rows are never changed.

The repositories offer no update or delete for them; this listener makes sure nothing else does either
(a retraction is a new GradeVerdict row that points at what it retracts).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session

from gradecore.persistence.entities import GradeVerdict, MachineGrade
from gradecore.persistence.store.errors import AppendOnlyViolation

APPEND_ONLY = (MachineGrade, GradeVerdict)


def _refuse_changes(session: Session, _context: Any, _instances: Any) -> None:
    for instance in list(session.dirty) + list(session.deleted):
        if isinstance(instance, APPEND_ONLY) and (
            instance in session.deleted or session.is_modified(instance)
        ):
            verb = "delete" if instance in session.deleted else "update"
            raise AppendOnlyViolation(f"{type(instance).__name__} rows are append-only; refusing to {verb}")


_APPEND_ONLY_TABLES = frozenset(entity.__tablename__ for entity in APPEND_ONLY)


def _refuse_bulk_changes(state: ORMExecuteState) -> None:
    if not (state.is_update or state.is_delete):
        return
    table = getattr(state.statement, "table", None)
    if getattr(table, "name", None) in _APPEND_ONLY_TABLES:
        raise AppendOnlyViolation(f"{table.name} is append-only; refusing a bulk update or delete")  # type: ignore[union-attr]


def install_append_only_guard() -> None:
    """Idempotent: listens on every Session once per process."""
    if not event.contains(Session, "before_flush", _refuse_changes):
        event.listen(Session, "before_flush", _refuse_changes)
        event.listen(Session, "do_orm_execute", _refuse_bulk_changes)
