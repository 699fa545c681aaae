"""The weekly engineering digest on a small real history: its sections, the checks that never failed
in 30 days, the pass rate against 👎, and the grader-error trend (docs/jobs.md, the monitors)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from cerebrus import check_ids
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.reports.digest import Section, digest_sections
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.scheduling.world import (
    BIRCHWOOD_RENT,
    CAMELLIA_DOUBLE,
    CAMELLIA_LANGUAGE,
    LAMPLITER,
    OAKRIDGE,
    add_grader,
    demo,
    demo_variant,
    ingest,
    react,
    set_property,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # Monday


def on(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


def history(store: Store) -> None:
    """Forty days of grading and reactions across three properties."""
    set_property(store, "camellia", timezone="America/Los_Angeles", channel="C0CAMELLIA", name="Camellia")
    set_property(store, "lampliter", timezone="America/Chicago", channel="C0LAMPLITER", name="Lampliter")
    grader = add_grader(store)
    ingest(store, demo(BIRCHWOOD_RENT), when=on(10, 21))  # amounts_match_ledger failed 40 days ago
    # Last week: two passes and a block, one 👎.
    ingest(store, demo(LAMPLITER), when=on(11, 20))  # no_ungrounded_policy_claim fails
    ingest(store, demo_variant(OAKRIDGE, "a"), when=on(11, 19))
    ingest(store, demo_variant(OAKRIDGE, "b"), when=on(11, 21))
    react(store, demo(LAMPLITER).conversation_id, "down", when=on(11, 20, 15), grader=grader)
    # This week: one pass, a hold and a block; two grader errors, a 👍, and a 👎 taken back.
    ingest(store, demo(CAMELLIA_LANGUAGE), when=on(11, 27))
    ingest(store, demo(CAMELLIA_DOUBLE), when=on(11, 27, 13))
    ingest(store, demo(OAKRIDGE), when=on(11, 28))
    react(store, demo(CAMELLIA_LANGUAGE).conversation_id, "down", when=on(11, 27, 14), grader=grader)
    react(
        store,
        demo(CAMELLIA_DOUBLE).conversation_id,
        "correction",
        expected=Level.PASS,
        when=on(11, 27, 15),
        grader=grader,
    )
    oakridge = demo(OAKRIDGE).conversation_id
    react(store, oakridge, "down", when=on(11, 28, 13), grader=grader)
    react(store, oakridge, "retraction", retracts="down", when=on(11, 28, 14), grader=grader)
    react(store, oakridge, "up", when=on(11, 28, 15), grader=grader)


def sections(store: Store, judge_drift: list[str] | None = None) -> dict[str, list[str]]:
    with store.unit() as unit:
        found: list[Section] = digest_sections(unit, NOW, judge_drift=judge_drift)
    return dict(found)


def test_every_section_is_present(store: Store) -> None:
    history(store)
    assert list(sections(store)) == [
        "Reaction rate per channel (7 days)",
        "Agreement with staff (7 days, 👎 included)",
        "Top root causes of failures on our side (this week, vs last week)",
        "Checks that have not failed in 30 days — unnecessary or broken?",
        "Pass rate vs 👎 (last week → this week)",
        "Calibration debt",
        "Judge drift (a frozen sample graded again)",
        "Tool errors recovered by a retry (last week → this week)",
        "Rules people disagree with (7 days, top 5)",
        "Set aside after repeated failures",
    ]


def test_reaction_rate_per_channel(store: Store) -> None:
    history(store)
    assert sections(store)["Reaction rate per channel (7 days)"] == [
        "Birchwood (no channel): nothing flagged",
        "Camellia (channel C0CAMELLIA): 2 of 2 flagged reacted",
        "Lampliter (channel C0LAMPLITER): nothing flagged",  # its block was 10 days ago
        "Oakridge (no channel): nothing flagged",
    ]


def test_a_check_that_never_failed_in_30_days_is_listed(store: Store) -> None:
    history(store)
    quiet = sections(store)["Checks that have not failed in 30 days — unnecessary or broken?"]
    assert "amounts_match_ledger" in quiet  # it failed, but 40 days ago
    assert "token_budget" in quiet  # never failed at all
    for failed_lately in ("no_ungrounded_policy_claim", "reply_language_matches", "one_message_per_trigger"):
        assert failed_lately not in quiet
    assert set(quiet) <= set(check_ids())


def test_grader_error_trend_counts_current_acts(store: Store) -> None:
    history(store)
    # Last week one 👎; this week a 👎 and a correction to another level. The 👎 taken back and the
    # 👍 on a pass are not grader errors.
    assert sections(store)["Calibration debt"] == [
        "grader-error acts 1 → 2",
        "growing: fix the grader before shipping more checks",
    ]


def test_pass_rate_against_thumbs_down(store: Store) -> None:
    history(store)
    assert sections(store)["Pass rate vs 👎 (last week → this week)"] == ["pass rate 67% → 33% · 👎 1 → 1"]


def test_grade_inflation_is_called_out(store: Store) -> None:
    grader = add_grader(store)
    ingest(store, demo(LAMPLITER), when=on(11, 20))
    react(store, demo(LAMPLITER).conversation_id, "down", when=on(11, 20, 13), grader=grader)
    ingest(store, demo(OAKRIDGE), when=on(11, 28))
    react(store, demo(OAKRIDGE).conversation_id, "down", when=on(11, 28, 13), grader=grader)
    assert sections(store)["Pass rate vs 👎 (last week → this week)"] == [
        "pass rate 0% → 100% · 👎 1 → 1",
        "pass rate rose while 👎 did not fall: check for grade inflation",
    ]
    assert sections(store)["Calibration debt"] == ["grader-error acts 1 → 1"]  # not growing


def test_judge_drift_lines_or_the_lane_off(store: Store) -> None:
    assert sections(store)["Judge drift (a frozen sample graded again)"] == ["judge lane off"]
    drift = ["1 of 12 scores changed on the frozen sample", "tone 4→2 (conversation c1, turn t1)"]
    assert sections(store, drift)["Judge drift (a frozen sample graded again)"] == drift
    assert sections(store)["Reaction rate per channel (7 days)"] == ["no properties yet"]


async def test_the_weekly_digest_is_posted_once_to_the_triage_channel(store: Store, tmp_path: Path) -> None:
    history(store)
    jobs = Jobs(
        store, JobConfig(fixtures_dir=tmp_path / "fixtures", triage_channel="C0TRIAGE"), clock=lambda: NOW
    )
    assert ("digest", "2026-W49") in await jobs.tick()
    assert ("digest", "2026-W49") not in await jobs.tick()
    with store.unit() as unit:
        post = unit.outbox.by_key("digest:2026-W49")
    assert post is not None and (post.kind, post.channel) == ("digest", "C0TRIAGE")
    assert post.payload["text"] == "Smith weekly digest · 2026-W49"
    shown = str(post.payload["blocks"])
    assert "grader-error acts 1 → 2" in shown and "amounts_match_ledger" in shown


def _tour_with_errors(conversation_id: str, errors: int, *, recovered: bool) -> ConversationBuilder:
    """A tour turn whose slot look-up timed out `errors` times, then (when `recovered`) succeeded."""
    calls = [tool("get_tour_slots", status="error", error="upstream timeout")] * errors
    if recovered:
        calls.append(tool("get_tour_slots", result={"slots": []}))
    steps = [step for call in calls for step in (claude(stop_reason="tool_use"), call)] + [claude("Ok")]
    return ConversationBuilder(conversation_id=conversation_id).inbound("Tour?").reply("Ok", steps=steps)


def test_tool_errors_recovered_by_a_retry_are_counted(store: Store) -> None:
    ingest(store, _tour_with_errors("c-last", 1, recovered=True).build(), when=on(11, 20))
    ingest(store, _tour_with_errors("c-this", 2, recovered=True).build(), when=on(11, 27))
    ingest(store, _tour_with_errors("c-this-2", 1, recovered=True).build(), when=on(11, 28))
    # Unrecovered errors are failures, already flagged: not counted here.
    ingest(store, _tour_with_errors("c-failed", 3, recovered=False).build(), when=on(11, 28))
    assert sections(store)["Tool errors recovered by a retry (last week → this week)"] == [
        "recovered tool errors 1 → 3"
    ]


def test_no_30_day_section_before_30_days_of_grades(store: Store) -> None:
    # Day one (docs/jobs.md): with only a week of grades, "has not failed in 30 days" would be untrue
    # for every check, so the section is left out.
    ingest(store, demo(LAMPLITER), when=on(11, 20))
    ingest(store, demo(OAKRIDGE), when=on(11, 28))
    found = sections(store)
    assert "Checks that have not failed in 30 days — unnecessary or broken?" not in found
    assert "Reaction rate per channel (7 days)" in found


def test_no_heading_nests_emphasis(store: Store) -> None:
    # Headings are set in bold; an asterisk inside one ends the bold early in Slack's mrkdwn.
    history(store)
    assert not any("*" in heading for heading in sections(store))


async def test_day_one_posts_neither_an_empty_sweep_summary_nor_a_digest(
    store: Store, tmp_path: Path
) -> None:
    # The first start (docs/jobs.md): grades of three days, no verdict to sweep. A "Nightly D8 sweep" of
    # nothing and a digest of a week Smith was not running for would both be noise.
    ingest(store, demo(LAMPLITER), when=on(11, 27))
    ingest(store, demo(OAKRIDGE), when=on(11, 28))
    config = JobConfig(fixtures_dir=tmp_path / "fixtures", triage_channel="C0TRIAGE")
    ran = await Jobs(store, config, clock=lambda: NOW).tick()
    assert ("digest", "2026-W49") in ran and ("sweep", "2026-11-30") in ran  # they ran, and said nothing
    with store.unit() as unit:
        assert unit.outbox.by_key("digest:2026-W49") is None
        assert unit.outbox.by_key("sweep:2026-11-30") is None
        run = unit.jobs.get("digest", "2026-W49")
        assert run is not None and run.counts == {"posted": False, "why": "no full week of grades yet"}

    # A week later there is a full week of grades: the digest starts.
    next_week = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    assert ("digest", "2026-W50") in await Jobs(store, config, clock=lambda: next_week).tick()
    with store.unit() as unit:
        assert unit.outbox.by_key("digest:2026-W50") is not None


def test_agreement_with_staff_counts_the_thumbs_down(store: Store) -> None:
    """docs/verdicts.md: this week's 👎, the correction to PASS and the 👍 all count: 1 of 3 agree (the 👎
    taken back is not an act). Before 👎s counted this would have read 1 of 2."""
    history(store)
    assert sections(store)["Agreement with staff (7 days, 👎 included)"] == [
        "33% agree with Smith (1 of 3 acts)"
    ]
