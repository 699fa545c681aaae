"""The engineering detail of a post: check ids, layers, owners, rule entries, tools, facts, rubric.

Staff never read it in the post (docs/slack-surface.md: no engineering words in staff text); engineers and
calibrators do, in the message metadata (`event_payload.detail`), in the correction modal's "Detail
for engineers" section and in the tickets. Kept small: Slack caps metadata, and a post must never be
refused for its small print.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from blocks.common import mask_codes
from blocks.limits import clip
from gradecore.model.vocabulary import DimensionResult, Outcome

MAX_DETAIL_CHECKS = 16
NOTE_LIMIT = 160


def engineering_detail(
    dimensions: Sequence[DimensionResult],
    *,
    codes: Sequence[str],
    rubric_version: str | None = None,
    checks_run: int | None = None,
    not_checked: Iterable[tuple[str, str]] = (),
) -> dict[str, Any]:
    """What engineers need to trace a post to its checks, as plain JSON for the message metadata.

    Grader notes are masked like everything else that leaves Smith: no access code by any route.
    """
    failed = [d for d in dimensions if d.failed]
    checked = [d.layer.value for d in dimensions if d.outcome is not Outcome.NOT_CHECKED]
    failing_layers = {d.layer.value for d in failed}
    detail: dict[str, Any] = {
        "failed": [_check(d, codes) for d in failed[:MAX_DETAIL_CHECKS]],
        "passed_layers": [layer for layer in dict.fromkeys(checked) if layer not in failing_layers],
    }
    if rubric_version is not None:
        detail["rubric"] = rubric_version
    if checks_run is not None:
        detail["checks_run"] = checks_run
    skipped = [[check, why] for check, why in not_checked]
    if skipped:
        detail["not_checked"] = skipped
    return detail


def _check(dimension: DimensionResult, codes: Sequence[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "check": dimension.check,
        "layer": dimension.layer.value,
        "owner": dimension.owner.value,
        "level": dimension.level.value,
        "reason": dimension.reason.slug,
    }
    fields = {
        "rule_entries": [e.rule_entry for e in dimension.evidence if e.rule_entry],
        "tools": [e.tool_name for e in dimension.evidence if e.tool_name],
        "facts": [e.fact_key for e in dimension.evidence if e.fact_key],
        "notes": [clip(mask_codes(e.detail, codes), NOTE_LIMIT) for e in dimension.evidence if e.detail],
    }
    entry |= {key: list(dict.fromkeys(values))[:4] for key, values in fields.items() if values}
    return entry


def detail_lines(dimensions: Iterable[Mapping[str, Any]], rubric_version: str | None) -> list[str]:
    """The detail as short lines for the correction modal: `no_ungrounded_policy_claim · output ·
    Clara's · rule vendor_visit · tool dispatch_vendor`, one per failing check (stored dimensions)."""
    lines = []
    for dimension in dimensions:
        if dimension.get("outcome") != Outcome.FAIL.value:
            continue
        evidence = dimension.get("evidence") or []
        parts = [str(dimension.get("check")), str(dimension.get("layer")), f"owner {dimension.get('owner')}"]
        parts += [f"rule {e['rule_entry']}" for e in evidence if isinstance(e, dict) and e.get("rule_entry")]
        parts += [f"tool {e['tool_name']}" for e in evidence if isinstance(e, dict) and e.get("tool_name")]
        parts += [f"fact {e['fact_key']}" for e in evidence if isinstance(e, dict) and e.get("fact_key")]
        lines.append(" · ".join(dict.fromkeys(parts)))
    if rubric_version:
        lines.append(f"rubric {rubric_version}")
    return lines
