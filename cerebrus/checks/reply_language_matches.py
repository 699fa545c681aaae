"""Turn check: Clara answers in the language she was written to."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, not_checked, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, NotCheckedWhy, Scope, Span

from ._common import draft_evidence

EXCERPT_CHARS = 80
RULE_ENTRY = "language.differs"

UNCLEAR_INBOUND = not_checked(
    NotCheckedWhy.LANGUAGE_UNCLEAR, "The inbound message's language is unclear (too short or mixed to tell)."
)
UNCLEAR_DRAFT = not_checked(
    NotCheckedWhy.LANGUAGE_UNCLEAR, "The draft's language is unclear (too short or mixed to tell)."
)


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.HOLD)
def reply_language_matches(view: TurnView) -> Finding:
    """The triggering inbound's language differs from the draft's (the primary subtags of their
    language tags when present, `es-MX` = `es`; else detected among the configured languages). When
    detection is unsure (short or mixed text, confidence under the rules' threshold) it is
    not_checked, "language unclear", never a guess."""
    trigger = view.trigger
    if trigger is None:
        return not_applicable("The turn answers no inbound message.")
    confidence = view.rules.thresholds.language_confidence
    # Through the conversation view: each untagged message is detected once, however many ask.
    asked, asked_how = view.parent.language_of(trigger, confidence)
    if asked is None:
        return UNCLEAR_INBOUND
    replied, replied_how = view.parent.language_of(view.message, confidence)
    if replied is None:
        return UNCLEAR_DRAFT
    if asked == replied:
        return passed("same_language", f"Written to in {asked}, answered in {replied}.")
    excerpt = Span(start=0, end=_excerpt_end(view.draft))
    return failed(
        "wrong_language",
        f"Written to in {asked}, Clara answered in {replied}.",
        Evidence(message_id=trigger.id, detail=f"inbound in {asked} ({asked_how})", rule_entry=RULE_ENTRY),
        draft_evidence(view, excerpt, detail=f"reply in {replied} ({replied_how})", rule_entry=RULE_ENTRY),
    )


def _excerpt_end(draft: str) -> int:
    """Where a short opening excerpt of the draft ends: at a word boundary when there is one."""
    if len(draft) <= EXCERPT_CHARS:
        return len(draft)
    cut = draft.rfind(" ", 0, EXCERPT_CHARS)
    return cut if cut > 0 else EXCERPT_CHARS
