"""How one dimension result reads in Slack: level, reason title and sentence, its receipt, what to do.

Check ids never show; the reason's title and sentence do, in the post's copy deck. A failed tool's raw
error is quoted only when the caller asks for it (the thread reply), cut to a couple of hundred
characters, codes masked. A receipt already shown higher up in the same post is not repeated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from blocks.common import escape, mask_codes
from blocks.copydeck import CopyDeck
from blocks.limits import clip
from blocks.locales import SentenceFacts
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import DimensionResult, Evidence

TITLE_LIMIT = 150
QUOTE_LIMIT = 200
MESSAGE_QUOTE_LIMIT = 120
SENTENCE_LIMIT = 240  # with the title and "what to do", eight failures fit one section
RECEIPT_LIMIT = 500
RECEIPTS_PER_DIMENSION = 3
# The language checks say which languages they compared in their evidence: "inbound in es (field)".
_LANGUAGE_DETAIL = re.compile(r"^(inbound|reply) in ([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)?)\b")


def colouring_failures(dimensions: Sequence[DimensionResult]) -> list[DimensionResult]:
    """Failed dimensions that count towards the grade's level, worst first."""
    failed = [d for d in dimensions if d.failed and d.colours_verdict]
    return sorted(failed, key=lambda d: -d.level.rank)


def advisory_failures(dimensions: Sequence[DimensionResult]) -> list[DimensionResult]:
    """Failed dimensions that are shown but do not colour the grade's level (an uncalibrated judge)."""
    return [d for d in dimensions if d.failed and not d.colours_verdict]


@dataclass(frozen=True)
class Receipts:
    """What receipts are read against: the conversation's messages, the draft on show, the codes to mask."""

    codes: tuple[str, ...]
    messages: Mapping[str, tuple[str, str]]  # message id -> (author's role, text)
    draft: str | None
    draft_message_id: str | None
    tool_errors: bool  # the thread reply: tool errors and the rule entry that fired are shown
    deck: CopyDeck
    # Receipt parts already shown in this post: the same evidence is never listed twice.
    shown: set[str] = field(default_factory=set)
    # Issue 20: the *ours* checks engineers have a ticket for, with its web address ("" when none).
    tickets: Mapping[str, str] = field(default_factory=dict)


def receipts_for(
    conversation: Conversation,
    *,
    draft_message_id: str | None,
    tool_errors: bool,
    deck: CopyDeck,
    tickets: Mapping[str, str] | None = None,
) -> Receipts:
    roles = {p.id: p.role for p in conversation.participants}
    messages = {m.id: (roles.get(m.author, "system"), m.text) for m in conversation.messages}
    draft = messages[draft_message_id][1] if draft_message_id in messages else None
    return Receipts(
        codes=tuple(conversation.property.facts.access_codes),
        messages=messages,
        draft=draft,
        draft_message_id=draft_message_id,
        tool_errors=tool_errors,
        deck=deck,
        tickets=tickets or {},
    )


def failure_line(dimension: DimensionResult, receipts: Receipts) -> str:
    """`• *BLOCK · unbacked promise* — sentence`, then the receipt, then what to do about it."""
    deck = receipts.deck
    title = clip(
        mask_codes(deck.headline(dimension.level.value, dimension.reason.slug), receipts.codes), TITLE_LIMIT
    )
    line = f"• *{escape(title)}* — {_sentence(dimension, receipts.codes, deck)}"
    parts: list[str] = []
    items_shown = 0
    for item in dimension.evidence:
        if items_shown >= RECEIPTS_PER_DIMENSION:
            break
        fresh = [part for part in dict.fromkeys(_parts(item, receipts)) if part not in receipts.shown]
        receipts.shown.update(fresh)
        parts += fresh
        items_shown += bool(fresh)
    receipt = clip(" · ".join(parts), RECEIPT_LIMIT)
    if receipt:
        line += f"\n      ↳ {receipt}"
    ticket = receipts.tickets.get(dimension.check)
    todo = escape(deck.what_to_do(dimension.check, dimension.owner.value, ticketed=ticket is not None))
    if ticket and ticket.startswith(("https://", "http://")):
        todo += f" · <{ticket}|{escape(deck.TICKET_LINK)}>"
    return f"{line}\n      → {todo}"


def advisory_line(dimension: DimensionResult, codes: Sequence[str], deck: CopyDeck) -> str:
    """`• *tone — poor*: sentence`; a judged score in words, never as a number."""
    label = f"{deck.layer_name(dimension.layer.value)} — {deck.judged_score(dimension.score)}"
    return f"• *{escape(label)}*: {_sentence(dimension, codes, deck)}"


def sentence_facts(dimension: DimensionResult) -> SentenceFacts:
    """What a deck may rewrite the check's sentence from, read off its evidence."""
    languages: dict[str, str] = {}
    for item in dimension.evidence:
        if item.detail and (found := _LANGUAGE_DETAIL.match(item.detail)):
            languages[found.group(1)] = found.group(2)
    pair = (languages["inbound"], languages["reply"]) if len(languages) == 2 else None
    return SentenceFacts(
        languages=pair,
        quotes=tuple(item.quote for item in dimension.evidence if item.quote),
        tools=tuple(item.tool_name for item in dimension.evidence if item.tool_name),
        fact_keys=tuple(item.fact_key for item in dimension.evidence if item.fact_key),
    )


def _parts(item: Evidence, receipts: Receipts) -> list[str]:
    """The receipt of one piece of evidence: a quote from the draft, or a message someone wrote.

    Only what people wrote is shown: a tool's name, the grader's free-form `detail`, the rule entry and
    the fact key are engineering detail (the post's metadata), and the grader's own finding must never
    read as if a tool or a person had said it.
    """
    codes, deck = receipts.codes, receipts.deck
    parts: list[str] = []
    quote = item.quote
    if quote is None and item.span is not None and item.message_id in (None, receipts.draft_message_id):
        quote = (receipts.draft or "")[item.span.start : item.span.end] or None
    message = receipts.messages.get(item.message_id or "")
    if quote:
        parts.append(escape(deck.receipt_quote(_short(quote, codes, QUOTE_LIMIT))))
    elif message is not None and item.message_id != receipts.draft_message_id:
        # The turn reply already shows its draft; any other message is quoted as the receipt.
        role, text = message
        parts.append(escape(deck.receipt_message(role, _short(text, codes, MESSAGE_QUOTE_LIMIT))))
    return parts


def _sentence(dimension: DimensionResult, codes: Sequence[str], deck: CopyDeck) -> str:
    rewritten = deck.check_sentence(dimension.reason.slug, sentence_facts(dimension))
    sentence = rewritten or dimension.reason.sentence
    return escape(clip(mask_codes(sentence, codes), SENTENCE_LIMIT))


def _short(text: str, codes: Sequence[str], limit: int) -> str:
    """One line, codes masked, cut to `limit`: receipts are evidence, not transcripts."""
    return clip(" ".join(mask_codes(text, codes).split()), limit)
