"""The parent post of a conversation that a new rubric no longer flags: edited in place, never deleted.

Staff saw it flagged; deleting it would erase what they reviewed. The edit says what happened and that
there is nothing left to do, in plain words; which rubric graded it again is engineering detail, kept in
the metadata with the grade's ids so reactions still trace to a grade.
"""

from __future__ import annotations

from blocks.common import PostContent, context, escape, grade_metadata, header, section
from blocks.copydeck import deck_for
from blocks.limits import MAX_FALLBACK_TEXT, clip
from gradecore.model.grades import ConversationGrade


def build_regraded_pass_blocks(
    grade: ConversationGrade,
    *,
    property_name: str,
    machine_grade_id: str,
    idempotency_key: str,
    locale: str | None = None,
) -> PostContent:
    texts = deck_for(locale)
    line, why = texts.regraded_pass_lines()
    blocks = [
        header(texts.REGRADED_HEADER),
        section(escape(line)),
        context(escape(f"{property_name} · {why}")),
    ]
    return PostContent(
        blocks=list(blocks),
        text=clip(escape(f"{property_name}: {line}"), MAX_FALLBACK_TEXT),
        metadata=grade_metadata(
            grade.conversation_id,
            None,
            machine_grade_id,
            idempotency_key,
            detail={"rubric": grade.rubric_version, "regraded": True},
        ),
    )


def build_superseded_turn_blocks(
    conversation_id: str,
    turn_id: str,
    number: int,
    *,
    machine_grade_id: str,
    idempotency_key: str,
    locale: str | None = None,
) -> PostContent:
    """A turn reply whose turn passes after a regrade: edited in place, so it reads as its parent does
    (docs/slack-surface.md: "superseded — now PASS"), keeping the metadata that traces it to its new grade."""
    line = deck_for(locale).turn_superseded(number)
    return PostContent(
        blocks=[section(escape(line))],
        text=clip(escape(line), MAX_FALLBACK_TEXT),
        metadata=grade_metadata(conversation_id, turn_id, machine_grade_id, idempotency_key),
    )
