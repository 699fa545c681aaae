"""The triage channel's copy deck: the nightly sweep's summary, the weekly digest, judge drift and the
rules people disagree with, as functions (English only: the channel is the team running Smith's).

Like `blocks/texts.py`, the texts are plain strings; `build_digest_blocks` escapes them and sets the
headings in bold, so no heading holds emphasis of its own (nested asterisks break Slack's mrkdwn).
"""

from __future__ import annotations

from datetime import datetime

NONE = "none"

# --- the nightly sweep's summary ---------------------------------------------------------------------

# The title the summary has carried in Slack since the first night, kept so posts stay as they were. "D8"
# is a label the sweep had in its first design notes, which are not in this repository; everywhere else
# the project says "the nightly sweep". Besides this title (which `smith demo` shows too), only the help
# of `smith sweep` still says it, kept as the command line printed it.
SWEEP_SUMMARY_TITLE = "Nightly D8 sweep"
FIXTURES_WRITTEN = "Fixture drafts written"
NEW_TICKETS = "New integration tickets"
REOPENED_TICKETS = "Reopened: it happened again"
REFUSED = "Refused (would leak, or could not be built)"
TICKETS_POSTPONED = "Tickets postponed (the tracker's rate limit)"
FAILED_OR_PARKED = "Failed (tried again next night) or parked (set aside after repeated failures)"


def fixtures_of_kind(kind: str, count: int) -> str:
    return f"{kind}: {count}"


def refused_act(act_id: int, why: str) -> str:
    return f"verdict {act_id}: {why}"


def tickets_postponed(count: int, until: datetime) -> str:
    return f"{count} ticket(s) wait until {until:%Y-%m-%d %H:%M} UTC; the next sweep syncs them"


def failed_act(act_id: int, why: str) -> str:
    return f"verdict {act_id} failed: {why}"


def parked_act(act_id: int, why: str) -> str:
    return f"verdict {act_id} parked: {why}"


# --- the weekly digest -------------------------------------------------------------------------------


def digest_title(week: str) -> str:
    return f"Smith weekly digest · {week}"


REACTION_RATE = "Reaction rate per channel (7 days)"
AGREEMENT = "Agreement with staff (7 days, 👎 included)"
ROOT_CAUSES = "Top root causes of failures on our side (this week, vs last week)"
QUIET_CHECKS = "Checks that have not failed in 30 days — unnecessary or broken?"
INFLATION = "Pass rate vs 👎 (last week → this week)"
CALIBRATION_DEBT = "Calibration debt"
JUDGE_DRIFT = "Judge drift (a frozen sample graded again)"
RECOVERED_TOOL_ERRORS = "Tool errors recovered by a retry (last week → this week)"
RULE_DISAGREEMENTS = "Rules people disagree with (7 days, top 5)"
SET_ASIDE = "Set aside after repeated failures"

NO_PROPERTIES = "no properties yet"
EVERY_CHECK_FAILED = "every check failed at least once"
JUDGE_LANE_OFF = "judge lane off"
NOT_MEASURED = "not measured"
NO_ACT_JUDGED = "no act judged a grade"
NO_OURS_FAILURES = "no ours failures this week"
INFLATION_WARNING = "pass rate rose while 👎 did not fall: check for grade inflation"
CALIBRATION_WARNING = "growing: fix the grader before shipping more checks"


def reaction_rate(property_name: str, channel: str | None, flagged: int, reacted: int) -> str:
    rate = "nothing flagged" if flagged == 0 else f"{reacted} of {flagged} flagged reacted"
    where = f"channel {channel}" if channel else "no channel"
    return f"{property_name} ({where}): {rate}"


def agreement(share: float, agreeing: int, acts: int) -> str:
    return f"{share:.0%} agree with Smith ({agreeing} of {acts} acts)"


def root_cause(check_id: str, cause: str, this_week: int, last_week: int) -> str:
    change = this_week - last_week
    sign = "+" if change >= 0 else "−"
    trend = "new this week" if last_week == 0 else f"{sign}{abs(change)} vs last week"
    return f"{check_id}: {cause} — {this_week} ({trend})"


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def pass_rate_against_downs(
    last_pass_rate: float | None, this_pass_rate: float | None, last_downs: int, this_downs: int
) -> str:
    return (
        f"pass rate {_percent(last_pass_rate)} → {_percent(this_pass_rate)} · 👎 {last_downs} → {this_downs}"
    )


def grader_errors(last_week: int, this_week: int) -> str:
    return f"grader-error acts {last_week} → {this_week}"


def recovered_tool_errors(last_week: int, this_week: int) -> str:
    return f"recovered tool errors {last_week} → {this_week}"


def parked_events(parked: int) -> str:
    if parked == 0:
        return "no Slack event parked"
    plural = "s" if parked != 1 else ""
    return f"{parked} Slack event{plural} parked after repeated failures (each keeps its error in the inbox)"


def parked_acts(parked: int) -> str:
    if parked == 0:
        return "no verdict parked"
    plural = "s" if parked != 1 else ""
    return f"{parked} verdict{plural} parked after repeated failures (see the Fixture ledger)"


# --- judge drift and the rules people disagree with --------------------------------------------------

NO_JUDGED_TURNS = "no judged turns to compare yet"
NO_RULE_DISAGREEMENT = "no disagreement with a rule entry this week"


def drift_summary(changed: int, compared: int) -> str:
    return f"{changed} of {compared} scores changed on the frozen sample"


def drift_change(check: str, before: int, after: int, conversation_id: str, turn_id: str) -> str:
    return f"{check} {before}→{after} (conversation {conversation_id}, turn {turn_id})"


def rule_disagreement(check: str, entry: str, disagreeing: int, acts: int, share: float) -> str:
    return f"{check} · {entry}: {disagreeing} of {acts} acts disagreed ({share:.0%})"
