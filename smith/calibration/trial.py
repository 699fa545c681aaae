"""`smith rules try CANDIDATE`: proof before use.

Re-grades, under the current rules and under the candidate, (a) every calibration fixture, whose
expected level a person confirmed, and (b) every stored conversation of the window. A fixture the
candidate gets wrong that the current rules got right is a regression; the command exits non-zero
on any. Stored conversations are compared by verdict: which flip between passing and flagged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from cerebrus import Rules, grade
from gradecore.persistence.store import Store
from smith.calibration.stored import stored_conversations
from smith.regression_fixtures.check import check_fixtures


@dataclass
class TrialReport:
    now_agree: list[str] = field(default_factory=list)  # fixtures fixed by the candidate
    regressions: list[str] = field(default_factory=list)  # fixtures broken by the candidate
    unchanged_agree: int = 0
    unchanged_disagree: int = 0
    graded: int = 0
    to_pass: Counter[str] = field(default_factory=Counter)  # per property: flagged → pass
    to_flagged: Counter[str] = field(default_factory=Counter)  # per property: pass → flagged

    @property
    def fixtures(self) -> int:
        return len(self.now_agree) + len(self.regressions) + self.unchanged_agree + self.unchanged_disagree


def try_candidate(
    store: Store,
    fixtures_dir: Path,
    current: Rules,
    candidate: Rules,
    start: datetime,
    end: datetime,
    *,
    on_graded: Callable[[], None] | None = None,
) -> TrialReport:
    """`on_graded` is called after each fixture or stored conversation is graded both ways."""
    report = TrialReport()
    tick = on_graded or (lambda: None)
    before = {result.path: result.agrees for result in check_fixtures(fixtures_dir, current)}
    for result in check_fixtures(fixtures_dir, candidate, on_checked=tick):
        agreed = before.get(result.path, False)
        if result.agrees and not agreed:
            report.now_agree.append(result.path.name)
        elif agreed and not result.agrees:
            report.regressions.append(result.path.name)
        elif result.agrees:
            report.unchanged_agree += 1
        else:
            report.unchanged_disagree += 1
    for stored in stored_conversations(store, start, end):
        report.graded += 1
        was = grade(stored.conversation, rules=current).flagged
        now = grade(stored.conversation, rules=candidate).flagged
        if was and not now:
            report.to_pass[stored.conversation.property.id] += 1
        elif now and not was:
            report.to_flagged[stored.conversation.property.id] += 1
        tick()
    return report
