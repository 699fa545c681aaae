"""The integration ticket: a fixture of kind `ours` rendered as markdown for engineers.

`ours` means the failure was in what we gave Clara (context, tools, truth, shape, handoff), so the
ticket leads with the failing checks and their receipts, then shows the anonymized conversation.
"""

from __future__ import annotations

import json
from typing import Any

from smith.sweep.fixture_model import FixtureV1

EXCERPT_MESSAGES = 6


def render_ticket(fixture: dict[str, Any]) -> str:
    """Markdown for one fixture: title, layers, receipts, expected level, reason, excerpt."""
    model = FixtureV1.model_validate(fixture)
    grade = model.machine_grade_at_time
    failing = [d for d in _dicts(grade.get("dimensions")) if d.get("outcome") == "fail"]
    lines = [f"# Integration: {_title(failing, grade)}", ""]
    item = f"turn `{model.turn_id}`" if model.turn_id else "the whole conversation"
    lines += [
        f"Conversation `{model.conversation_id}`, {item} · property `{_property(model)}` · "
        f"verdict v{model.verdict_id} by grader user {model.grader_user_id} · {model.created_at.isoformat()}",
        "",
        "## Expected level",
        "",
        f"**{model.expected_level.value.upper()}** (the machine said {str(grade.get('level', '?')).upper()})",
        "",
        "## Reason",
        "",
        _quote(model.reason) if model.reason else "_No reason was given._",
        "",
        "## Layers that failed",
        "",
        *_layers(failing, grade),
        "",
        "## Failing checks and receipts",
        "",
        *_receipts(failing),
        "",
        "## Principles",
        "",
        ", ".join(f"`{tag}`" for tag in model.principles) if model.principles else "_None tagged._",
        "",
        "## Conversation excerpt (anonymized)",
        "",
        *_excerpt(model),
        "",
        "## The whole fixture",
        "",
        "<details><summary>smith.fixture/v1 JSON (anonymized)</summary>",
        "",
        "```json",
        json.dumps(fixture, sort_keys=True, indent=2, ensure_ascii=False).replace("```", "`\u200b``"),
        "```",
        "",
        "</details>",
        "",
        f"_Drafted by the nightly D8 sweep from a `{model.format}` fixture. It proposes; it changed no rule "
        "and no prompt._",
    ]
    return "\n".join(lines) + "\n"


def _title(failing: list[dict[str, Any]], grade: dict[str, Any]) -> str:
    checks = list(dict.fromkeys(str(d.get("check")) for d in failing if d.get("owner") == "ours"))
    checks = checks or list(dict.fromkeys(str(d.get("check")) for d in failing))
    if checks:
        return ", ".join(f"`{check}`" for check in checks)
    return f"`{grade.get('headline') or 'unknown check'}`"


def _property(model: FixtureV1) -> str:
    prop = model.input.get("property")
    return str(prop.get("id")) if isinstance(prop, dict) else "?"


def _layers(failing: list[dict[str, Any]], grade: dict[str, Any]) -> list[str]:
    if not failing:
        owner = grade.get("owner") or "unknown"
        return [f"- {owner}: the machine grade at the time holds no per-check results"]
    by_owner: dict[str, list[str]] = {}
    for dimension in failing:
        by_owner.setdefault(str(dimension.get("owner")), []).append(str(dimension.get("layer")))
    return [f"- {owner}: {', '.join(dict.fromkeys(layers))}" for owner, layers in sorted(by_owner.items())]


def _receipts(failing: list[dict[str, Any]]) -> list[str]:
    if not failing:
        return ["_No receipts: the machine grade at the time was stored without its checks._"]
    lines: list[str] = []
    for dimension in failing:
        reason = dimension.get("reason")
        sentence = reason.get("sentence") if isinstance(reason, dict) else None
        lines.append(
            f"- **`{dimension.get('check')}`** ({dimension.get('layer')}, {dimension.get('owner')}, "
            f"{str(dimension.get('level')).upper()}): {sentence or 'no reason recorded'}"
        )
        for evidence in _dicts(dimension.get("evidence")):
            where = ", ".join(
                f"{key} `{evidence[key]}`"
                for key in ("message_id", "turn_id", "step_index", "tool_name", "fact_key")
                if evidence.get(key) is not None
            )
            said = " — ".join(str(evidence[key]) for key in ("quote", "detail") if evidence.get(key))
            lines.append(f"  - {where or 'receipt'}{': ' if said else ''}{_inline(said)}")
    return lines


def _excerpt(model: FixtureV1) -> list[str]:
    document = model.input
    roles = {p.get("id"): p.get("role") for p in _dicts(document.get("participants"))}
    messages = _dicts(document.get("messages"))[-EXCERPT_MESSAGES:]
    graded = {t.get("message_id"): t for t in _dicts(document.get("turns")) if t.get("id") == model.turn_id}
    lines: list[str] = []
    for message in messages:
        marker = " ← graded turn" if message.get("id") in graded else ""
        lines.append(
            f"**{message.get('id')}** · {roles.get(message.get('author'), '?')} · "
            f"{message.get('direction')} · {message.get('at')}{marker}"
        )
        lines.append(_quote(str(message.get("text", ""))))
        lines.append("")
        turn = graded.get(message.get("id"))
        if turn is not None:
            lines += _trace(turn)
    return lines or ["_No messages._"]


def _trace(turn: dict[str, Any]) -> list[str]:
    trace = turn.get("trace")
    steps = _dicts(trace.get("steps")) if isinstance(trace, dict) else []
    lines = [f"Trace of turn `{turn.get('id')}`:", ""]
    for index, step in enumerate(steps):
        if step.get("kind") == "tool_execution":
            error = f" — {_inline(str(step['error']))}" if step.get("error") else ""
            lines.append(f"{index}. tool `{step.get('tool_name')}` → {step.get('status')}{error}")
        else:
            lines.append(
                f"{index}. claude call (loop {step.get('loop_iteration')}) → {step.get('stop_reason')}"
            )
    return [*lines, ""]


def _dicts(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines() or [""])


def _inline(text: str) -> str:
    return " ".join(text.split())
