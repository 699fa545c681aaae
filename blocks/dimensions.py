"""How one dimension result reads in Slack: level, reason title and sentence, and its receipt.

Check ids never show; the reason's title and sentence do. A failed tool's raw error is quoted only when
the caller asks for it (the thread reply), cut to a couple of hundred characters, codes masked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from blocks.common import escape, mask_codes
from blocks.limits import clip
from gradecore.contract import Conversation
from gradecore.vocabulary import DimensionResult, Evidence, Outcome
from smith import texts

TITLE_LIMIT = 150
QUOTE_LIMIT = 200
MESSAGE_QUOTE_LIMIT = 120
SENTENCE_LIMIT = 300
RECEIPT_LIMIT = 500
RECEIPTS_PER_DIMENSION = 3


def colouring_failures(dimensions: Sequence[DimensionResult]) -> list[DimensionResult]:
    """Failed dimensions that count towards the verdict, worst first."""
    failed = [d for d in dimensions if d.failed and d.colours_verdict]
    return sorted(failed, key=lambda d: -d.level.rank)


def advisory_failures(dimensions: Sequence[DimensionResult]) -> list[DimensionResult]:
    """Failed dimensions that are shown but do not colour the verdict (an uncalibrated judge)."""
    return [d for d in dimensions if d.failed and not d.colours_verdict]


def passing_layers(dimensions: Sequence[DimensionResult]) -> list[str]:
    """Layers checked at least once with no failure among their checks, in first-seen order."""
    checked = [d.layer for d in dimensions if d.outcome is not Outcome.NOT_CHECKED]
    failing = {d.layer for d in dimensions if d.failed}
    return [layer.value for layer in dict.fromkeys(checked) if layer not in failing]


@dataclass(frozen=True)
class Receipts:
    """What receipts are read against: the conversation's messages, the draft on show, the codes to mask."""

    codes: tuple[str, ...]
    messages: Mapping[str, tuple[str, str]]  # message id -> (author's role, text)
    draft: str | None
    draft_message_id: str | None
    tool_errors: bool  # the thread reply: tool errors and the rule entry that fired are shown


def receipts_for(conversation: Conversation, *, draft_message_id: str | None, tool_errors: bool) -> Receipts:
    roles = {p.id: p.role for p in conversation.participants}
    messages = {m.id: (roles.get(m.author, "system"), m.text) for m in conversation.messages}
    draft = messages[draft_message_id][1] if draft_message_id in messages else None
    return Receipts(
        codes=tuple(conversation.property.facts.access_codes),
        messages=messages,
        draft=draft,
        draft_message_id=draft_message_id,
        tool_errors=tool_errors,
    )


def failure_line(dimension: DimensionResult, receipts: Receipts) -> str:
    """`• *BLOCK · unbacked promise* — sentence` and, on the next line, the receipt."""
    title = clip(
        mask_codes(f"{dimension.level.value.upper()} · {dimension.reason.title}", receipts.codes), TITLE_LIMIT
    )
    line = f"• *{escape(title)}* — {_sentence(dimension, receipts.codes)}"
    parts = [part for item in dimension.evidence[:RECEIPTS_PER_DIMENSION] for part in _parts(item, receipts)]
    receipt = clip(" · ".join(parts), RECEIPT_LIMIT)
    return f"{line}\n      ↳ {receipt}" if receipt else line


def advisory_line(dimension: DimensionResult, codes: Sequence[str]) -> str:
    """`• *tone — poor*: sentence`; a judged score in words, never as a number."""
    label = f"{dimension.layer.value} — {texts.judged_score(dimension.score)}"
    return f"• *{escape(label)}*: {_sentence(dimension, codes)}"


def _parts(item: Evidence, receipts: Receipts) -> list[str]:
    """The receipt of one piece of evidence: a quote, a message, a tool (and its error), a fact.

    The grader's free-form `detail` is shown only as a tool's error: elsewhere it is written for
    engineers and may name participants by id.
    """
    codes = receipts.codes
    parts: list[str] = []
    quote = item.quote
    if quote is None and item.span is not None and item.message_id in (None, receipts.draft_message_id):
        quote = (receipts.draft or "")[item.span.start : item.span.end] or None
    message = receipts.messages.get(item.message_id or "")
    if quote:
        parts.append(escape(texts.receipt_quote(_short(quote, codes, QUOTE_LIMIT))))
    elif message is not None and item.message_id != receipts.draft_message_id:
        # The turn reply already shows its draft; any other message is quoted as the receipt.
        role, text = message
        parts.append(escape(texts.receipt_message(role, _short(text, codes, MESSAGE_QUOTE_LIMIT))))
    if item.tool_name:
        step = item.step_index + 1 if item.step_index is not None else None
        parts.append(escape(texts.receipt_tool(item.tool_name, step)))
        if item.detail and receipts.tool_errors:
            parts.append(escape(texts.receipt_tool_error(_short(item.detail, codes, QUOTE_LIMIT))))
    if item.fact_key:
        parts.append(escape(texts.receipt_fact(item.fact_key)))
    if item.rule_entry and receipts.tool_errors:
        # Small print on the thread reply: which pattern fired, so a 👎 can be traced to it.
        parts.append(f"_{escape(texts.receipt_rule(item.rule_entry))}_")
    return parts


def _sentence(dimension: DimensionResult, codes: Sequence[str]) -> str:
    return escape(clip(mask_codes(dimension.reason.sentence, codes), SENTENCE_LIMIT))


def _short(text: str, codes: Sequence[str], limit: int) -> str:
    """One line, codes masked, cut to `limit`: receipts are evidence, not transcripts."""
    return clip(" ".join(mask_codes(text, codes).split()), limit)
