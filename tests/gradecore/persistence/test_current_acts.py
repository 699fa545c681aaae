"""`current_acts`: what every reader counts — each grader's latest non-retracted act per item
(docs/storage.md)."""

from __future__ import annotations

from gradecore.persistence.entities import GradeVerdict, User
from gradecore.persistence.store import Store, current_acts
from tests.gradecore.rows import graded_item, machine_grade, verdict

PAT = User(id=1, email="pat@example.test", name="Pat", role="staff")
SAM = User(id=2, email="sam@example.test", name="Sam", role="staff")
TURN = machine_grade("conv-1", "t1")
OTHER_TURN = machine_grade("conv-1", "t2")


def _acts(*specs: tuple[User, str, int]) -> list[GradeVerdict]:
    """Acts on TURN with ids in order; (grader, signal, minutes after the base time)."""
    acts = []
    for number, (grader, signal, minutes) in enumerate(specs, start=1):
        act = verdict(grader, TURN, signal=signal, minutes=minutes)
        act.id = number
        acts.append(act)
    return acts


def _retract(act: GradeVerdict, new_id: int, minutes: int) -> GradeVerdict:
    grader = PAT if act.grader_user_id == PAT.id else SAM
    retraction = verdict(grader, TURN, signal="retraction", minutes=minutes)
    retraction.id, retraction.retracts_id = new_id, act.id
    return retraction


def _ids(acts: list[GradeVerdict]) -> list[int | None]:
    return [act.id for act in acts]


def test_a_later_act_by_the_same_grader_replaces_the_earlier() -> None:
    up, correction = _acts((PAT, "up", 0), (PAT, "correction", 5))
    correction.expected_level = "pass"
    assert _ids(current_acts([up, correction])) == [correction.id]


def test_order_of_input_does_not_matter() -> None:
    up, correction = _acts((PAT, "up", 0), (PAT, "correction", 5))
    correction.expected_level = "pass"
    assert _ids(current_acts([correction, up])) == [correction.id]


def test_a_note_does_not_displace_a_judgement_but_stands_alone() -> None:
    up, note = _acts((PAT, "up", 0), (PAT, "correction", 5))  # a correction naming no level is a note
    assert _ids(current_acts([up, note])) == [up.id]
    assert _ids(current_acts([note])) == [note.id]
    [later_down] = _acts((PAT, "down", 9))
    later_down.id = 3
    assert _ids(current_acts([up, note, later_down])) == [later_down.id]


def test_two_graders_each_keep_their_own_act() -> None:
    pat, sam = _acts((PAT, "up", 0), (SAM, "down", 1))
    assert _ids(current_acts([pat, sam])) == [pat.id, sam.id]


def test_a_retracted_act_is_not_counted_and_neither_is_the_retraction() -> None:
    (up,) = _acts((PAT, "up", 0))
    assert current_acts([up, _retract(up, 9, 3)]) == []


def test_retracting_the_latest_act_brings_back_the_one_before() -> None:
    """👍 then 👎, then the 👎 is removed: the 👍 is still on the post, so it is the current act."""
    up, down = _acts((PAT, "up", 0), (PAT, "down", 2))
    assert _ids(current_acts([up, down, _retract(down, 9, 4)])) == [up.id]


def test_items_are_counted_separately() -> None:
    on_turn = verdict(PAT, TURN, minutes=0)
    on_other = verdict(PAT, OTHER_TURN, signal="down", minutes=1)
    on_turn.id, on_other.id = 1, 2
    assert _ids(current_acts([on_turn, on_other])) == [1, 2]


def test_same_instant_is_ordered_by_id() -> None:
    first, second = _acts((PAT, "up", 0), (PAT, "down", 0))
    assert _ids(current_acts([second, first])) == [second.id]


def test_a_generator_is_read_once_correctly() -> None:
    """The function takes any iterable; a generator must not be exhausted by a first pass."""
    up, down = _acts((PAT, "up", 0), (PAT, "down", 2))
    retraction = _retract(down, 9, 4)
    assert _ids(current_acts(act for act in [up, down, retraction])) == [up.id]


def test_on_stored_rows(store: Store) -> None:
    with store.unit() as unit:
        pat, grade = graded_item(unit)
        sam = unit.users.add("sam@example.test", "Sam Roe")
        up, _ = unit.verdicts.add(verdict(pat, grade, minutes=0))
        down, _ = unit.verdicts.add(verdict(pat, grade, signal="down", minutes=1))
        unit.verdicts.retract(down)
        sams, _ = unit.verdicts.add(
            verdict(sam, grade, signal="correction", expected_level="pass", minutes=2)
        )
    with store.unit() as unit:
        rows = unit.verdicts.for_item(grade.item_type, grade.item_ref)
        assert len(rows) == 4
        assert _ids(current_acts(rows)) == [up.id, sams.id]
