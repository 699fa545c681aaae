"""MachineGrade and GradeVerdict are append-only (docs/storage.md): no code path updates or deletes one.

Three layers of proof: the source has no update/delete of them, every public method of their
repositories leaves existing rows byte-for-byte unchanged, and the ORM guard refuses anything else.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session as PlainSession
from sqlmodel import col

from gradecore.persistence.entities import GradeVerdict, MachineGrade
from gradecore.persistence.store import AppendOnlyViolation, Store, Unit
from gradecore.persistence.store.grades import GradesRepo
from gradecore.persistence.store.verdicts import VerdictsRepo
from tests.gradecore.rows import BASE_TIME, graded_item, machine_grade, verdict

ROOT = Path(__file__).resolve().parents[3]
APPEND_ONLY_NAMES = {"MachineGrade", "GradeVerdict"}
APPEND_ONLY_TABLES = ("machine_grades", "grade_verdicts")


# --- the source -------------------------------------------------------------------------------------


def _python_files() -> list[Path]:
    packages = ["gradecore", "cerebrus", "smith", "blocks", "handlers"]
    files = [path for package in packages for path in (ROOT / package).rglob("*.py")]
    files += [path for path in (ROOT / "app.py", ROOT / "scheduler.py") if path.exists()]
    return [path for path in files if "migrations" not in path.parts]


def _bulk_writes_on_append_only(tree: ast.AST) -> list[str]:
    """`update(MachineGrade)`, `sa.delete(GradeVerdict)`, `delete(GradeVerdict.__table__)`, …"""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        target = ast.unparse(node.args[0]).split(".")[0]
        if name in ("update", "delete") and target in APPEND_ONLY_NAMES:
            found.append(ast.unparse(node))
    return found


def _raw_sql_writes(source: str) -> list[str]:
    lowered = " ".join(source.lower().split())
    return [
        phrase
        for table in APPEND_ONLY_TABLES
        for phrase in (f"update {table}", f"delete from {table}")
        if phrase in lowered
    ]


def test_no_code_path_issues_an_update_or_delete_on_append_only_tables() -> None:
    offenders = {}
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        found = _bulk_writes_on_append_only(ast.parse(source)) + _raw_sql_writes(source)
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert offenders == {}


def test_the_source_scan_would_notice_a_bulk_write() -> None:
    tree = ast.parse(
        "session.execute(sa.update(MachineGrade).values(level='pass'))\ns.execute(delete(GradeVerdict))"
    )
    assert len(_bulk_writes_on_append_only(tree)) == 2
    assert _raw_sql_writes('text("DELETE  FROM grade_verdicts")') == ["delete from grade_verdicts"]


@pytest.mark.parametrize("repo", [GradesRepo, VerdictsRepo])
def test_append_only_repositories_never_delete_or_assign(repo: type) -> None:
    """No session.delete/merge, and no attribute assignment outside `self` in either repository."""
    tree = ast.parse(inspect.getsource(repo))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in ("delete", "merge", "update"), ast.unparse(node)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute):
                        assert ast.unparse(part.value) == "self", ast.unparse(node)


# --- every public method, exercised ------------------------------------------------------------------


def _snapshot(engine: Engine) -> dict[str, dict[Any, tuple[Any, ...]]]:
    with engine.connect() as connection:
        return {
            table: {row[0]: tuple(row) for row in connection.exec_driver_sql(f"SELECT * FROM {table}")}
            for table in APPEND_ONLY_TABLES
        }


Call = Callable[[Unit, dict[str, Any]], object]


def _row(grade: MachineGrade) -> dict[str, Any]:
    return {column.name: getattr(grade, column.name) for column in MachineGrade.__table__.columns}  # type: ignore[attr-defined]


GRADES_CALLS: dict[str, Call] = {
    "add": lambda unit, seed: unit.grades.add(machine_grade("conv-2", None)),
    "add_all": lambda unit, seed: unit.grades.add_all(
        [_row(machine_grade("conv-3", None)), _row(machine_grade("conv-3", "t1"))]
    ),
    "latest_turn_hashes": lambda unit, seed: unit.grades.latest_turn_hashes("conv-1"),
    "get": lambda unit, seed: unit.grades.get(seed["grade"].id),
    "latest": lambda unit, seed: (
        unit.grades.latest("turn", seed["grade"].item_ref),
        unit.grades.latest("turn", seed["grade"].item_ref, source="cerebrus.judge"),
    ),
    "latest_frozen": lambda unit, seed: unit.grades.latest_frozen("turn", seed["grade"].item_ref),
    "frozen": lambda unit, seed: unit.grades.frozen(seed["grade"].id),
    "history": lambda unit, seed: unit.grades.history("turn", seed["grade"].item_ref),
    "for_conversation": lambda unit, seed: unit.grades.for_conversation("conv-1"),
    "judged_sample": lambda unit, seed: unit.grades.judged_sample(5),
    "first_graded_at": lambda unit, seed: unit.grades.first_graded_at(),
    "created_between": lambda unit, seed: (
        unit.grades.created_between("camellia", BASE_TIME - timedelta(days=1), BASE_TIME + timedelta(days=1)),
        unit.grades.created_between("camellia", BASE_TIME, BASE_TIME + timedelta(days=1), item_type="turn"),
    ),
}
VERDICTS_CALLS: dict[str, Call] = {
    "add": lambda unit, seed: (
        unit.verdicts.add(verdict(seed["user"], seed["grade"], signal="down", act_key="k2")),
        unit.verdicts.add(verdict(seed["user"], seed["grade"], signal="down", act_key="k1")),
    ),
    "retract": lambda unit, seed: unit.verdicts.retract(seed["verdict"], act_key="k1:removed"),
    "get": lambda unit, seed: unit.verdicts.get(seed["verdict"].id),
    "by_act_key": lambda unit, seed: unit.verdicts.by_act_key("k1"),
    "for_item": lambda unit, seed: unit.verdicts.for_item("turn", seed["grade"].item_ref),
    "for_conversations": lambda unit, seed: (
        unit.verdicts.for_conversations(["conv-1", "conv-1", "conv-2"]),
        unit.verdicts.for_conversations([]),
    ),
    "act_rows_of_conversation": lambda unit, seed: unit.verdicts.act_rows_of_conversation("conv-1"),
    "latest_for_property": lambda unit, seed: unit.verdicts.latest_for_property("camellia"),
    "by_slack_message": lambda unit, seed: unit.verdicts.by_slack_message("C1", "1.2"),
    "since": lambda unit, seed: (
        unit.verdicts.since(BASE_TIME - timedelta(days=1)),
        unit.verdicts.since(BASE_TIME - timedelta(days=1), BASE_TIME + timedelta(days=1)),
    ),
    "after_id": lambda unit, seed: unit.verdicts.after_id(0, limit=10),
    "prefetch_act_keys": lambda unit, seed: unit.verdicts.prefetch_act_keys(["k1", "k9"]),
    "has_act_key": lambda unit, seed: (unit.verdicts.has_act_key("k1"), unit.verdicts.has_act_key("k9")),
    "prefetch_items": lambda unit, seed: unit.verdicts.prefetch_items(
        [("turn", seed["grade"].item_ref, seed["user"].id)]
    ),
}


def _public_methods(repo: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(repo, inspect.isfunction) if not name.startswith("_")}


@pytest.mark.parametrize(("repo", "calls"), [(GradesRepo, GRADES_CALLS), (VerdictsRepo, VERDICTS_CALLS)])
def test_every_public_method_is_exercised_below(repo: type, calls: dict[str, Call]) -> None:
    missing = _public_methods(repo) - set(calls)
    assert not missing, f"new public method(s) on an append-only repository: {missing}; add them to the calls"


@pytest.mark.parametrize("name", sorted(GRADES_CALLS))
def test_grades_methods_leave_existing_rows_unchanged(store: Store, name: str) -> None:
    _exercise(store, GRADES_CALLS[name])


@pytest.mark.parametrize("name", sorted(VERDICTS_CALLS))
def test_verdicts_methods_leave_existing_rows_unchanged(store: Store, name: str) -> None:
    _exercise(store, VERDICTS_CALLS[name])


def _exercise(store: Store, call: Call) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        act = verdict(user, grade, act_key="k1")
        act.slack_channel, act.slack_ts = "C1", "1.2"
        unit.verdicts.add(act)
    before = _snapshot(store.engine)
    with store.unit() as unit:
        call(unit, {"user": user, "grade": grade, "verdict": act})
    after = _snapshot(store.engine)
    for table in APPEND_ONLY_TABLES:
        assert {key: after[table][key] for key in before[table]} == before[table]


# --- the ORM guard ----------------------------------------------------------------------------------


def _seeded(store: Store) -> tuple[str, int]:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        act, _ = unit.verdicts.add(verdict(user, grade))
    assert act.id is not None
    return grade.id, act.id


@pytest.mark.parametrize("entity", [MachineGrade, GradeVerdict])
def test_changing_a_loaded_row_is_refused_at_flush(store: Store, entity: type) -> None:
    grade_id, verdict_id = _seeded(store)
    key = grade_id if entity is MachineGrade else verdict_id
    with pytest.raises(AppendOnlyViolation, match="refusing to update"):
        _move_to_another_property(store, entity, key)
    assert _property_of(store, entity, key) == "camellia"


def _move_to_another_property(store: Store, entity: type, key: object) -> None:
    with store.unit() as unit:
        row = unit.session.get(entity, key)
        assert row is not None
        row.property_id = "elsewhere"
        unit.session.flush()


@pytest.mark.parametrize("entity", [MachineGrade, GradeVerdict])
def test_deleting_a_row_is_refused(store: Store, entity: type) -> None:
    grade_id, verdict_id = _seeded(store)
    key = grade_id if entity is MachineGrade else verdict_id
    with pytest.raises(AppendOnlyViolation, match="refusing to delete"), store.unit() as unit:
        unit.session.delete(unit.session.get(entity, key))
    assert _property_of(store, entity, key) == "camellia"


def test_merging_a_changed_copy_is_refused(store: Store) -> None:
    grade_id, _ = _seeded(store)
    copy = machine_grade()
    copy.id, copy.level = grade_id, "pass"
    with pytest.raises(AppendOnlyViolation, match="refusing to update"):
        _merge(store, copy)


def _merge(store: Store, copy: MachineGrade) -> None:
    with store.unit() as unit:
        unit.session.merge(copy)
        unit.session.flush()


@pytest.mark.parametrize(
    "statement",
    [
        update(MachineGrade).values(level="pass"),
        update(GradeVerdict).where(col(GradeVerdict.signal) == "up").values(signal="down"),
        delete(GradeVerdict),
        delete(MachineGrade).where(col(MachineGrade.level) == "hold"),
        update(MachineGrade.__table__).values(level="pass"),  # type: ignore[attr-defined]
    ],
    ids=["update grades", "update verdicts", "delete verdicts", "delete grades", "update grades table"],
)
def test_bulk_statements_through_a_session_are_refused(store: Store, statement: Any) -> None:
    _seeded(store)
    before = _snapshot(store.engine)
    with pytest.raises(AppendOnlyViolation, match="append-only"), store.unit() as unit:
        unit.session.execute(statement)
    assert _snapshot(store.engine) == before


def test_the_guard_covers_sessions_the_store_did_not_open(store: Store) -> None:
    grade_id, _ = _seeded(store)
    with PlainSession(store.engine) as session:
        row = session.get(MachineGrade, grade_id)
        assert row is not None
        row.level = "pass"
        with pytest.raises(AppendOnlyViolation):
            session.commit()


def test_other_tables_are_still_writable(store: Store) -> None:
    """The guard is narrow: a User may be deactivated in the same session as grades are read."""
    _seeded(store)
    with store.unit() as unit:
        unit.users.set_active("pat@example.test", False)
        unit.session.execute(select(MachineGrade)).all()
    with store.unit() as unit:
        user = unit.users.by_email("pat@example.test")
        assert user is not None and user.active is False


def _property_of(store: Store, entity: type, key: object) -> str:
    with store.unit() as unit:
        row = unit.session.get(entity, key)
        assert row is not None
        return str(row.property_id)


# --- retraction and what readers count -------------------------------------------------------------


def test_a_retraction_is_a_new_row_and_the_original_is_unchanged(store: Store) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        original, _ = unit.verdicts.add(verdict(user, grade, act_key="r:1"))
    before = _snapshot(store.engine)["grade_verdicts"][original.id]
    with store.unit() as unit:
        retraction = unit.verdicts.retract(original, act_key="r:1:removed", slack_event_id="Ev1")
    assert retraction.id != original.id
    assert retraction.signal == "retraction"
    assert retraction.retracts_id == original.id
    assert retraction.slack_event_id == "Ev1"
    assert retraction.grader_user_id == original.grader_user_id
    assert _snapshot(store.engine)["grade_verdicts"][original.id] == before
    with store.unit() as unit:
        assert unit.verdicts.retract(original, act_key="r:1:removed").id == retraction.id  # idempotent
        assert len(unit.verdicts.for_item(grade.item_type, grade.item_ref)) == 2
