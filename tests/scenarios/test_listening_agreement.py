"""Agreement read from verdict rows that real Slack acts produced (docs/verdicts.md, `smith agreement`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import Engine

from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import utcnow
from smith.reports.meaning_reads import agreement_counts
from tests.scenarios.listening import Scene, running_scene


async def _graded_by_people(scene: Scene) -> None:
    lampliter = await scene.seed("lampliter-unbacked-promise.json")  # BLOCK
    language = await scene.seed("camellia-wrong-language.json")  # HOLD
    scene.add_grader("U0ANA", "ana@example.test")
    scene.add_grader("U0BO", "bo@example.test")
    await scene.react("U0ANA", "+1", lampliter.parent_ts)  # agrees: block/block
    await scene.reply("U0ANA", language.parent_ts, "Should be HOLD — wrong language")  # agrees: hold/hold
    await scene.reply(
        "U0BO", lampliter.parent_ts, "Should be PASS — instructions on file #arrival"
    )  # pass/block
    await scene.react("U0BO", "-1", language.parent_ts)  # names no level, counts, disagrees
    await scene.react("U0BO", "+1", language.turn_ts["t1"])
    await scene.settle()
    await scene.react("U0BO", "+1", language.turn_ts["t1"], added=False)  # retracted: not counted
    await scene.settle()


async def test_agreement_counts_pair_each_standing_act_with_the_machine_level_it_saw(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        await _graded_by_people(scene)
        with scene.store.unit() as unit:
            groups = agreement_counts(
                unit, utcnow() - timedelta(days=1), utcnow() + timedelta(minutes=1), "grader"
            )

        assert dict(groups.downs) == {"bo@example.test": 1}  # the 👎 counts, outside the level pairs
        acts = [
            (grader, expected, machine)
            for grader, counted in groups.pairs.items()
            for (expected, machine), n in counted.items()
            for _ in range(n)
        ]
        pairs = sorted((grader, expected.value, machine.value) for grader, expected, machine in acts)
        assert pairs == [
            ("ana@example.test", "block", "block"),
            ("ana@example.test", "hold", "hold"),
            ("bo@example.test", "pass", "block"),
        ]
        assert all(isinstance(level, Level) for _, *levels in acts for level in levels)


async def test_smith_agreement_prints_share_and_kappa(engine: Engine, tmp_path: Path) -> None:
    async with running_scene(engine) as scene:
        await _graded_by_people(scene)
        code, stdout, stderr = await scene.run_smith("agreement", cwd=tmp_path)
        assert code == 0, stderr
        # Piped: the table is tab-separated lines (issue 25), the group first, then its cells.
        rows = {
            line.split("\t")[0]: line.split("\t") for line in stdout.splitlines() if line.count("\t") >= 4
        }
        cells = lambda key: rows[key][1:]  # noqa: E731
        assert cells("ana@example.test")[:2] == ["2", "100%"]
        # docs/verdicts.md: bo's 👎 is a disagreeing act (was 1 act, and 67% overall, before 👎s counted);
        # κ stays over the acts naming a level: its n (the last column) is 3.
        assert cells("bo@example.test")[:2] == ["2", "0%"]
        assert cells("all")[:2] == ["4", "50%"]
        assert cells("all")[-1] == "3"
