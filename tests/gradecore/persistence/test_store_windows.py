"""Counts the database makes over a window (gradecore.persistence.store.windows) equal what the readers
counted in Python from whole rows before (docs/storage.md: what readers count), and hold at 100,000+
conversations."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert

from gradecore.persistence.entities import GradeVerdict, MachineGrade, User
from gradecore.persistence.store import Store, Unit, agrees_with_machine, current_acts
from smith.reports.meaning_reads import agreement_counts
from smith.reports.stats import WindowStats, window_stats, window_stats_by_property
from tests.gradecore.rows import BASE_TIME, machine_grade, verdict

LEVELS = ("pass", "repair", "hold", "block")
PROPERTIES = ("camellia", "lampliter", "oakridge")


def _old_window_stats(unit: Unit, property_ids: list[str], start: datetime, end: datetime) -> WindowStats:
    """The counting as it was, from ORM rows and `current_acts` in Python: the reference."""
    latest: dict[str, MachineGrade] = {}
    for property_id in property_ids:
        for grade in unit.grades.created_between(property_id, start, end, item_type="conversation"):
            known = latest.get(grade.conversation_id)
            if known is None or (grade.created_at, grade.id) > (known.created_at, known.id):
                latest[grade.conversation_id] = grade
    flagged = {cid for cid, grade in latest.items() if grade.level != "pass"}
    acts = current_acts(unit.verdicts.for_conversations(latest))
    reacted = {v.conversation_id for v in acts if v.conversation_id in flagged}
    # docs/verdicts.md: every act that judges the grade counts, 👎 included (it disagrees).
    said = [
        agrees_with_machine(v.signal, v.expected_level, v.machine_grade_at_time.get("level")) for v in acts
    ]
    judged = [agrees for agrees in said if agrees is not None]
    return WindowStats(
        len(latest), len(latest) - len(flagged), len(flagged), len(reacted), len(judged), sum(judged)
    )


def _random_history(store: Store, seed: int) -> None:
    """Three properties over ten days: regrades, acts by three graders on conversations and turns, notes
    after judgements, changes of mind and retractions, some made long after the grade."""
    rng = random.Random(seed)
    minute = 0
    with store.unit() as unit:
        graders: list[User] = [unit.users.add(f"g{n}@example.test", f"Grader {n}") for n in range(3)]
        grades: list[MachineGrade] = []
        for n in range(60):
            conversation = f"conv-{n}"
            prop = rng.choice(PROPERTIES)
            for turn in (None, "t1", "t2"):
                for _ in range(rng.choice((1, 1, 2))):  # now and then graded again
                    minute += rng.randint(1, 300)
                    grade = machine_grade(
                        conversation, turn, level=rng.choice(LEVELS), property_id=prop, minutes=minute
                    )
                    grades.append(unit.grades.add(grade))
        acts: list[GradeVerdict] = []
        for _ in range(250):
            grade = rng.choice(grades)
            signal = rng.choice(("up", "down", "correction", "note", "retraction"))
            minute += rng.randint(1, 120)
            if signal == "retraction" and acts:
                target = rng.choice(acts)
                retraction = target.model_copy(
                    update={
                        "id": None,
                        "signal": "retraction",
                        "expected_level": None,
                        "retracts_id": target.id,
                        "created_at": BASE_TIME + timedelta(minutes=minute),
                    }
                )
                unit.verdicts.add(retraction)
                continue
            expected = rng.choice(LEVELS) if signal == "correction" else None
            act = verdict(
                rng.choice(graders),
                grade,
                signal="correction" if signal == "note" else signal if signal != "retraction" else "up",
                expected_level=expected,
                minutes=minute,
            )
            if signal == "note":
                act.expected_level = None
            acts.append(unit.verdicts.add(act)[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_window_stats_equal_the_python_counting_they_replace(store: Store, seed: int) -> None:
    _random_history(store, seed)
    with store.unit() as unit:
        for days in range(0, 10, 2):
            start = BASE_TIME + timedelta(days=days)
            end = start + timedelta(days=3)
            for ids in (["camellia"], ["camellia", "lampliter"], list(PROPERTIES)):
                assert window_stats(unit, ids, start, end) == _old_window_stats(unit, ids, start, end)
            per_property = window_stats_by_property(unit, list(PROPERTIES), start, end)
            for prop in PROPERTIES:
                assert per_property[prop] == _old_window_stats(unit, [prop], start, end)


def test_standing_signals_and_agreement_equal_current_acts_of_the_window(store: Store) -> None:
    _random_history(store, 7)
    with store.unit() as unit:
        emails = {user.id: user.email for user in unit.users.list()}
        first, last = unit.verdicts.after_id(0, limit=1)[0], unit.verdicts.since(BASE_TIME)[-1]
        span = (last.created_at - first.created_at) / 3
        for part in range(4):  # windows cutting through the acts (and their retractions) at random places
            start = first.created_at + part * span - timedelta(hours=5)
            end = start + span
            standing = current_acts(unit.verdicts.since(start, end))
            signals = unit.windows.standing_signals(start, end)
            assert signals.downs == sum(1 for v in standing if v.signal == "down")
            assert signals.grader_errors == sum(1 for v in standing if v.error_class == "grader")
            judged = [v for v in standing if v.expected_level is not None or v.signal == "down"]
            assert judged, "the history must give the window acts to count"
            assert any(v.signal == "down" for v in judged), "and 👎s among them (they count)"
            keys: dict[str, Any] = {
                "grader": lambda v: emails[v.grader_user_id],
                "property": lambda v: v.property_id,
            }
            for by, key in keys.items():
                expected: dict[str, Counter[tuple[str | None, str]]] = {}
                for v in judged:
                    pair = (v.expected_level, v.machine_grade_at_time["level"])
                    expected.setdefault(key(v), Counter())[pair] += 1
                counts = agreement_counts(unit, start, end, by)
                found: dict[str, Counter[tuple[str | None, str]]] = {}
                for group, counted in counts.pairs.items():
                    found.setdefault(group, Counter()).update(
                        {(e.value, m.value): n for (e, m), n in counted.items()}
                    )
                # A 👎 names no level: counted beside the pairs, against no particular machine level.
                downs = {g: sum(n for (e, _), n in c.items() if e is None) for g, c in expected.items()}
                assert dict(counts.downs) == {g: n for g, n in downs.items() if n}
                named = {
                    g: Counter({p: n for p, n in c.items() if p[0] is not None}) for g, c in expected.items()
                }
                assert found == {g: c for g, c in named.items() if c}


def test_a_window_of_100_000_conversations_is_counted(store: Store) -> None:
    """More conversations than a statement may bind parameters for (65,535 on PostgreSQL): no read
    lists them; the counts come back whole."""
    conversations = 100_001
    start = BASE_TIME
    rows = [
        {
            "id": f"g{n:07d}",
            "item_type": "conversation",
            "item_ref": f"c{n:07d}",
            "conversation_id": f"c{n:07d}",
            "turn_id": None,
            "property_id": "camellia",
            "source": "cerebrus.deterministic",
            "rubric_version": "r1",
            "content_hash": "0" * 64,
            "level": "pass" if n % 4 else "hold",
            "headline": "something",
            "reason": "a reason",
            "owner": "clara",
            "dimensions": [],
            "citations": [],
            "usage": None,
            "created_at": start + timedelta(seconds=n % 80_000),
        }
        for n in range(conversations)
    ]
    with store.unit() as unit:
        unit.session.execute(insert(MachineGrade), rows)
        grader = unit.users.add("pat@example.test", "Pat Doe")
        grades = [unit.grades.get(f"g{n:07d}") for n in (0, 4, 99_996, 99_997)]
        for grade in grades:
            assert grade is not None
            unit.verdicts.add(verdict(grader, grade, signal="up"))
    with store.unit() as unit:
        stats = window_stats(unit, ["camellia"], start, start + timedelta(days=1))
        assert stats == WindowStats(
            graded=conversations,
            passed=conversations - 25_001,
            flagged=25_001,
            reacted=3,  # 0, 4 and 99,996 are flagged (n % 4 == 0); 99,997 passed
            acts=4,
            agreeing=4,
        )
        assert window_stats_by_property(unit, ["camellia"], start, start + timedelta(days=1)) == {
            "camellia": stats
        }
