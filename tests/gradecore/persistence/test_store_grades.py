"""MachineGrades (latest, history, windows) and GradeVerdicts (act_key idempotency, windows) in the store."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy.exc import StatementError

from gradecore.persistence.store import Store
from tests.gradecore.rows import BASE_TIME, graded_item, machine_grade, verdict


def test_latest_and_history_of_an_item(store: Store) -> None:
    with store.unit() as unit:
        old = unit.grades.add(machine_grade(level="block", minutes=0))
        judged = unit.grades.add(machine_grade(level="repair", source="cerebrus.judge", minutes=5))
        new = unit.grades.add(machine_grade(level="pass", minutes=10))
        unit.grades.add(machine_grade("conv-1", "t2", minutes=20))  # another item
    with store.unit() as unit:
        latest = unit.grades.latest("turn", "conv-1/t1")
        assert latest is not None and latest.id == new.id
        from_judge = unit.grades.latest("turn", "conv-1/t1", source="cerebrus.judge")
        assert from_judge is not None and from_judge.id == judged.id
        assert unit.grades.latest("conversation", "conv-1/t1") is None
        history = unit.grades.history("turn", "conv-1/t1")
        assert [grade.id for grade in history] == [old.id, judged.id, new.id]
        assert all(grade.created_at.tzinfo is not None for grade in history)
        assert history[0].created_at == BASE_TIME
        assert len(unit.grades.for_conversation("conv-1")) == 4
        assert unit.grades.get(old.id) is not None and unit.grades.get("missing") is None


def test_json_columns_round_trip(store: Store) -> None:
    grade = machine_grade()
    grade.usage = {"input_tokens": 10, "cost_usd": 0.25}
    grade.citations = [{"message_id": "m3", "quote": "buzz code ••21", "start": 3, "end": 9}]
    with store.unit() as unit:
        unit.grades.add(grade)
    with store.unit() as unit:
        stored = unit.grades.get(grade.id)
        assert stored is not None
        assert (stored.usage, stored.citations, stored.dimensions) == (
            grade.usage,
            grade.citations,
            grade.dimensions,
        )


def test_created_between_is_a_half_open_window(store: Store) -> None:
    with store.unit() as unit:
        for minutes in (-1, 0, 59, 60):
            unit.grades.add(machine_grade(f"c{minutes}", None, minutes=minutes))
        unit.grades.add(machine_grade("elsewhere", None, property_id="birchwood", minutes=1))
        unit.grades.add(machine_grade("c1", "t1", minutes=1))
    with store.unit() as unit:
        window = unit.grades.created_between("camellia", BASE_TIME, BASE_TIME + timedelta(hours=1))
        assert sorted(grade.item_ref for grade in window) == ["c0", "c1/t1", "c59"]
        turns = unit.grades.created_between(
            "camellia", BASE_TIME, BASE_TIME + timedelta(hours=1), item_type="turn"
        )
        assert [grade.item_ref for grade in turns] == ["c1/t1"]


def test_a_naive_datetime_is_never_stored(store: Store) -> None:
    grade = machine_grade()
    grade.created_at = datetime(2026, 7, 17, 18, 0)
    with pytest.raises(StatementError, match="naive"), store.unit() as unit:
        unit.grades.add(grade)


def test_the_same_act_key_is_recorded_once(store: Store) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        first, created = unit.verdicts.add(verdict(user, grade, act_key="Ev1:up"))
        assert created
    with store.unit() as unit:  # Slack retried the event: a new unit, the same act
        again, created = unit.verdicts.add(verdict(user, grade, signal="down", act_key="Ev1:up"))
        assert not created
        assert again.id == first.id and again.signal == "up"
        other, created = unit.verdicts.add(verdict(user, grade, act_key="Ev2:up"))
        assert created and other.id != first.id
    with store.unit() as unit:
        assert len(unit.verdicts.for_item(grade.item_type, grade.item_ref)) == 2
        found = unit.verdicts.by_act_key("Ev1:up")
        assert found is not None and found.id == first.id


def test_acts_without_a_key_are_each_recorded(store: Store) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        unit.verdicts.add(verdict(user, grade))
        unit.verdicts.add(verdict(user, grade))
        assert len(unit.verdicts.for_item(grade.item_type, grade.item_ref)) == 2


def test_a_verdict_keeps_its_frozen_copy_of_the_grade(store: Store) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        act, _ = unit.verdicts.add(verdict(user, grade, principles=["arrival-section"]))
    with store.unit() as unit:
        stored = unit.verdicts.get(act.id or 0)
        assert stored is not None
        assert stored.machine_grade_at_time == {
            "id": grade.id,
            "level": "hold",
            "source": "cerebrus.deterministic",
            "rubric_version": "r1",
        }
        assert stored.principles == ["arrival-section"]
        assert stored.created_at.tzinfo is not None


def test_verdict_windows(store: Store) -> None:
    with store.unit() as unit:
        user, grade = graded_item(unit)
        ids = [unit.verdicts.add(verdict(user, grade, minutes=m))[0].id for m in (-1, 0, 30, 60)]
    with store.unit() as unit:
        window = unit.verdicts.since(BASE_TIME, BASE_TIME + timedelta(hours=1))
        assert [act.id for act in window] == ids[1:3]
        assert [act.id for act in unit.verdicts.since(BASE_TIME)] == ids[1:]
        assert ids[0] is not None
        assert [act.id for act in unit.verdicts.after_id(ids[0], limit=2)] == ids[1:3]
