"""`smith rules suggest`: the smallest rules-file change that would have agreed with the humans.

For each (check, rule entry) that people disagreed with often enough (at least `min_acts` acts and
more than `min_share` of them disagreeing), one change is proposed, in the same TOML a rules file
takes, each with a comment naming the acts that motivate it:

- a phrase pattern (narration, a promise's pattern, a question pattern): disable it by id;
- the wrong-item amount rule for a ledger key: give that key no labels (it is never paired again);
- a threshold check (token budget, loop iterations, follow-up and escalation deadlines): raise the
  threshold just past what the disagreeing acts saw;
- where people corrected to a *higher* level, nothing automatic: the rule missed, a person writes one;
- anything else (an access code to a prospect, an unbacked amount): listed for a person, never
  disabled by a machine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

import tomlkit
from tomlkit.items import AoT, Table

from cerebrus import Rules
from smith.calibration.disagreements import NO_ENTRY, EntryDisagreement

_TOKENS = re.compile(r"([\d,]+) tokens")
_CALLS = re.compile(r"(\d+) (?:claude_call|model call|calls?)")


@dataclass(frozen=True, slots=True)
class Suggestion:
    check: str
    entry: str
    kind: str  # disable | no_labels | threshold | missed | manual
    summary: str
    row: EntryDisagreement
    threshold: tuple[str, object, object] | None = None  # (setting, from, to) for kind "threshold"


def suggest(
    rows: Sequence[EntryDisagreement], rules: Rules, *, min_acts: int, min_share: float
) -> list[Suggestion]:
    chosen = [r for r in rows if r.acts >= min_acts and r.share_disagreeing > min_share]
    return [_suggestion(row, rules) for row in chosen]


def _suggestion(row: EntryDisagreement, rules: Rules) -> Suggestion:
    def make(kind: str, summary: str, threshold: tuple[str, object, object] | None = None) -> Suggestion:
        return Suggestion(row.check, row.entry, kind, summary, row, threshold)

    if row.wanted_higher * 2 > row.disagreeing:
        return make("missed", f"missed: write a rule — people corrected {row.check} to a higher level")
    if row.entry.startswith("amounts.wrong_item:"):
        key = row.entry.split(":", 1)[1]
        return make("no_labels", f"stop pairing amounts with `{key}` (give it no labels)")
    if row.entry != NO_ENTRY and _pattern_home(rules, row.entry) is not None:
        return make("disable", f"disable pattern `{row.entry}`")
    threshold = _threshold_change(row, rules)
    if threshold is not None:
        name, before, after = threshold
        return make("threshold", f"raise {name} from {before} to {after}", threshold)
    return make("manual", f"no safe automatic change for {row.check} ({row.entry}): review by hand")


def _pattern_home(rules: Rules, entry: str) -> tuple[str, str | None] | None:
    """Where a pattern id lives: ("narration", None), ("interrogatives", None), ("promises", id)."""
    if any(pattern.id == entry for pattern in rules.narration):
        return ("narration", None)
    if any(pattern.id == entry for pattern in rules.interrogatives):
        return ("interrogatives", None)
    for promise in rules.promises:
        if any(pattern.id == entry for pattern in promise.patterns):
            return ("promises", promise.id)
    return None


def _threshold_change(row: EntryDisagreement, rules: Rules) -> tuple[str, object, object] | None:
    thresholds = rules.thresholds
    details = " ".join(row.details)
    if row.check == "token_budget":
        seen = [int(n.replace(",", "")) for n in _TOKENS.findall(details)]
        highest = max(
            [n for n in seen if n > thresholds.token_budget], default=thresholds.token_budget * 3 // 2
        )
        return ("token_budget", thresholds.token_budget, int(math.ceil((highest + 1) / 1000) * 1000))
    if row.check == "loop_progress":
        seen = [int(n) for n in _CALLS.findall(details)]
        return ("max_iterations", thresholds.max_iterations, max([thresholds.max_iterations + 1, *seen]))
    if row.check == "followup_exists":
        return ("followup_sla", _hours(thresholds.followup_sla), _hours(thresholds.followup_sla * 2))
    if row.check == "escalation_closed":
        return ("escalation_sla", _hours(thresholds.escalation_sla), _hours(thresholds.escalation_sla * 2))
    return None


def _hours(value: timedelta) -> str:
    return f"{value.total_seconds() / 3600:g}h"


def candidate_toml(suggestions: Sequence[Suggestion], rules: Rules, *, window: str) -> str:
    """The candidate as a rules file, each change commented with the acts that motivate it."""
    document = tomlkit.document()
    document.add(tomlkit.comment("Candidate rules written by `smith rules suggest`. Nothing uses it until a"))
    document.add(tomlkit.comment("person runs `smith rules try` on it and points SMITH_RULES_FILE at it."))
    document.add(tomlkit.comment(f"Window: {window}."))
    for suggestion in suggestions:
        if suggestion.kind in ("missed", "manual"):
            document.add(tomlkit.comment(f"{suggestion.summary} ({_why(suggestion.row)})"))
    thresholds: Table | None = None
    labels: Table | None = None
    arrays: dict[str, AoT] = {}
    for suggestion in suggestions:
        why = _why(suggestion.row)
        if suggestion.kind == "threshold":
            assert suggestion.threshold is not None
            name, _, after = suggestion.threshold
            if thresholds is None:
                thresholds = tomlkit.table()
            thresholds.add(tomlkit.comment(f"{suggestion.summary}: {why}"))
            thresholds.add(name, after)
        elif suggestion.kind == "no_labels":
            key = suggestion.entry.split(":", 1)[1]
            if labels is None:
                labels = tomlkit.table()
            labels.add(tomlkit.comment(f"{suggestion.summary}: {why}"))
            labels.add(key, tomlkit.array())
        elif suggestion.kind == "disable":
            home = _pattern_home(rules, suggestion.entry)
            assert home is not None
            section, promise_id = home
            entry = tomlkit.table()
            entry.add(tomlkit.comment(f"{suggestion.summary}: {why}"))
            if promise_id is None:
                entry.add("id", suggestion.entry)
                entry.add("enabled", False)
            else:
                entry.add("id", promise_id)
                patterns = tomlkit.array()
                inline = tomlkit.inline_table()
                inline.update({"id": suggestion.entry, "enabled": False})
                patterns.append(inline)
                entry.add("patterns", patterns)
            arrays.setdefault(section, tomlkit.aot()).append(entry)
    if thresholds is not None:
        document.add("thresholds", thresholds)
    if labels is not None:
        document.add("amount_labels", labels)
    for section, aot in arrays.items():
        document.add(section, aot)
    return tomlkit.dumps(document)


def _why(row: EntryDisagreement) -> str:
    ids = ", ".join(str(v) for v in row.verdict_ids[:12]) + (" …" if len(row.verdict_ids) > 12 else "")
    return f"{row.disagreeing} of {row.acts} acts disagreed ({row.share_disagreeing:.0%}; verdicts {ids})"
