"""A readable terminal rendering of a ConversationGrade (`smith grade`), for engineers, ids included."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Column, Table

from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import DimensionResult, Evidence, Level, Outcome

_LEVEL_STYLE = {
    Level.PASS: "green",
    Level.REPAIR: "yellow",
    Level.HOLD: "dark_orange",
    Level.BLOCK: "bold red",
}


def _receipt(evidence: Sequence[Evidence]) -> str:
    parts: list[str] = []
    for item in evidence:
        where = [
            f"message {item.message_id}" if item.message_id else "",
            f"step {item.step_index}" if item.step_index is not None else "",
            f"fact {item.fact_key}" if item.fact_key else "",
            f"tool {item.tool_name}" if item.tool_name else "",
        ]
        text = ", ".join(part for part in where if part)
        if item.quote:
            text += f' "{item.quote}"'
        if item.detail:
            text += f" ({item.detail[:80]})"
        parts.append(text.strip())
    return "; ".join(parts)


def _table(title: str, dimensions: Sequence[DimensionResult]) -> Table:
    # Folded, never cut with "…": a check id or a reason is what the reader came for.
    columns = ("check", "layer", "owner", "outcome", "level", "reason", "receipt")
    table = Table(*(Column(name, overflow="fold") for name in columns), title=title, title_justify="left")
    for dim in dimensions:
        outcome = dim.outcome.value
        if dim.outcome is Outcome.NOT_CHECKED and dim.not_checked_why is not None:
            outcome += f" ({dim.not_checked_why.value})"
        level = dim.level.value + ("" if dim.colours_verdict else " (advisory)")
        table.add_row(
            dim.check,
            dim.layer.value,
            dim.owner.value,
            outcome,
            f"[{_LEVEL_STYLE[dim.level]}]{level}[/]",
            dim.reason.sentence,
            _receipt(dim.evidence),
        )
    return table


def print_grade(console: Console, grade: ConversationGrade, conversation: Conversation) -> None:
    style = _LEVEL_STYLE[grade.level]
    console.rule(f"{conversation.property.name} · {conversation.channel} · {grade.conversation_id}")
    console.print(f"[{style}]{grade.headline.text}[/] — {grade.headline.reason.sentence}")
    console.print(f"scope: {grade.scope.text} · rubric {grade.rubric_version}")
    console.print(
        f"Clara's part: {', '.join(grade.split.clara) or '—'} · ours: {', '.join(grade.split.ours) or '—'}"
    )
    console.print(_table("conversation", grade.dimensions))
    for turn in grade.turns:
        flag = "flagged" if turn.flagged else "passes"
        console.print(
            _table(f"turn {turn.number} ({turn.turn_id}) · {turn.headline.text} · {flag}", turn.dimensions)
        )
