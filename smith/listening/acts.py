"""Human acts on Smith posts and what they mean (docs/verdicts.md), recorded as append-only GradeVerdicts.

👍 says the machine's grade is right; 👎 says it is wrong (a grader error); a correction names the
expected level. "Clara was bad" and "the grader was wrong" land in different `error_class`es and are
never counted together.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import GradeVerdict, MachineGrade
from gradecore.persistence.grade_rows import frozen_copy
from gradecore.persistence.store import Unit, item_ref

Signal = Literal["up", "down", "correction", "retraction"]
Origin = Literal["slack_reaction", "slack_reply", "slack_modal", "cli"]
ItemType = Literal["conversation", "turn"]


@dataclass(frozen=True)
class Target:
    """The item a Smith post shows: its conversation (a parent) or one turn (a thread reply)."""

    item_type: ItemType
    conversation_id: str
    turn_id: str | None
    property_id: str

    @property
    def ref(self) -> str:
        return item_ref(self.conversation_id, self.turn_id if self.item_type == "turn" else None)


@dataclass(frozen=True)
class HumanAct:
    slack_user_id: str
    signal: Signal
    target: Target
    origin: Origin
    act_key: str
    expected_level: Level | None = None
    note: str | None = None
    tags: tuple[str, ...] = ()
    # For a retraction: which earlier acts it takes back (by the signal, or by the Slack message).
    retracts_signal: Signal | None = None
    retracts_slack_ts: str | None = None
    slack_channel: str | None = None
    slack_ts: str | None = None
    slack_event_id: str | None = None
    team_id: str = ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["expected_level"] = self.expected_level.value if self.expected_level else None
        data["tags"] = list(self.tags)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HumanAct:
        values = dict(data)
        values["target"] = Target(**values["target"])
        values["expected_level"] = Level(values["expected_level"]) if values.get("expected_level") else None
        values["tags"] = tuple(values.get("tags") or ())
        return cls(**values)


@dataclass(frozen=True)
class Meaning:
    expected_level: Level | None
    error_class: str | None


def meaning_of(act: HumanAct, machine: dict[str, Any]) -> Meaning:
    """docs/verdicts.md: what the act says about the machine grade it saw."""
    machine_level = Level(machine["level"])
    owner = machine.get("owner")
    if act.signal == "up":
        return Meaning(machine_level, owner)
    if act.signal == "down":
        return Meaning(None, "grader")
    if act.signal == "correction" and act.expected_level is not None:
        return Meaning(act.expected_level, "grader" if act.expected_level != machine_level else owner)
    return Meaning(None, None)  # a note, or a retraction


@dataclass
class Recorded:
    verdicts: list[GradeVerdict] = field(default_factory=list)
    duplicate: bool = False


def record_act(
    unit: Unit, act: HumanAct, grader_user_id: int, machine: MachineGrade | dict[str, Any]
) -> Recorded:
    """Append the act as GradeVerdict row(s); a retraction is a new row per act it takes back."""
    frozen = frozen_copy(machine) if isinstance(machine, MachineGrade) else machine
    if act.signal == "retraction":
        return _record_retraction(unit, act, grader_user_id)
    principles = unit.principles.ensure_candidates(act.tags)
    meaning = meaning_of(act, frozen)
    verdict, created = unit.verdicts.add(
        GradeVerdict(
            grader_user_id=grader_user_id,
            item_type=act.target.item_type,
            item_ref=act.target.ref,
            conversation_id=act.target.conversation_id,
            turn_id=act.target.turn_id if act.target.item_type == "turn" else None,
            property_id=act.target.property_id,
            signal=act.signal,
            expected_level=meaning.expected_level.value if meaning.expected_level else None,
            note=act.note,
            principles=principles,
            error_class=meaning.error_class,
            machine_grade_id=frozen["id"],
            machine_grade_at_time=frozen,
            origin=act.origin,
            act_key=act.act_key,
            slack_channel=act.slack_channel,
            slack_ts=act.slack_ts,
            slack_event_id=act.slack_event_id,
        )
    )
    return Recorded([verdict], duplicate=not created)


def _record_retraction(unit: Unit, act: HumanAct, grader_user_id: int) -> Recorded:
    if unit.verdicts.has_act_key(f"{act.act_key}#0"):
        return Recorded(duplicate=True)
    mine = unit.verdicts.for_item(act.target.item_type, act.target.ref, grader_user_id=grader_user_id)
    taken_back = {v.retracts_id for v in mine if v.signal == "retraction"}
    standing = [v for v in mine if v.signal != "retraction" and v.id not in taken_back]
    if act.retracts_slack_ts is not None:
        # A deleted reply takes back every act it made, its edits included.
        targets = [v for v in standing if v.slack_ts == act.retracts_slack_ts]
    else:
        # A removed reaction takes back the latest standing reaction of that kind.
        targets = [v for v in standing if v.signal == act.retracts_signal and v.origin == "slack_reaction"][
            -1:
        ]
    recorded = Recorded()
    for index, target in enumerate(targets):
        recorded.verdicts.append(
            unit.verdicts.retract(
                target,
                act_key=f"{act.act_key}#{index}",
                slack_channel=act.slack_channel,
                slack_ts=act.slack_ts,
                slack_event_id=act.slack_event_id,
            )
        )
    return recorded
