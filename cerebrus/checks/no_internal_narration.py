"""Turn check: the draft does not narrate Clara's internals (prompts, tools, APIs, raw errors)."""

from __future__ import annotations

from collections.abc import Iterator

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.text import FoldedText, fold
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope, Span

from ._common import draft_evidence

FRAGMENT_CHARS = 12


# The finding most turns get, built once at import (a shared finding costs nothing per call).
CLEAN = passed("no_internal_narration", "The draft uses no internal vocabulary.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_internal_narration(view: TurnView) -> Finding:
    """The draft contains internal vocabulary (the internal_narration lexicons) or any 12+ character
    fragment of a failed tool's error text."""
    if not view.draft or view.draft.isspace():
        return data_missing("The draft is empty.")
    evidence: list[Evidence] = []
    narration = view.compiled.narration
    # Most drafts hold none of the lexicon's keys: said by a few substring tests, no scan set up.
    if narration.may_occur(view.folded.folded):
        evidence.extend(
            draft_evidence(view, span, detail="internal vocabulary")
            for span, _ in narration.finditer(view.folded)
        )
    for index, step in view.failed_tools:
        if step.error:
            evidence.extend(
                draft_evidence(
                    view, span, step_index=index, tool_name=step.tool_name, detail="quotes the tool error"
                )
                for span in _fragments(view.folded, fold(step.error))
            )
    if evidence:
        evidence.sort(key=lambda e: (e.span.start if e.span else 0, e.step_index or -1))
        return failed("internal_narration", "The draft talks about Clara's internals.", *evidence)
    return CLEAN


def _fragments(draft: FoldedText, error: str) -> Iterator[Span]:
    """Maximal stretches of the folded draft, 12+ chars with some letters, found verbatim in the error."""
    text = draft.folded
    if len(error) < FRAGMENT_CHARS:
        return
    grams = {error[i : i + FRAGMENT_CHARS] for i in range(len(error) - FRAGMENT_CHARS + 1)}
    # Usually no stretch of the draft is in the error at all: one substring search per gram (in C)
    # says so faster than sliding over the draft character by character.
    if not any(gram in text for gram in grams):
        return
    start = 0
    while start <= len(text) - FRAGMENT_CHARS:
        if text[start : start + FRAGMENT_CHARS] not in grams:
            start += 1
            continue
        end = start + FRAGMENT_CHARS
        while end < len(text) and text[start : end + 1] in error:
            end += 1
        piece = text[start:end].strip()
        if len(piece) >= FRAGMENT_CHARS and sum(ch.isalnum() for ch in piece) >= FRAGMENT_CHARS // 2:
            yield draft.span(start, end)
        start = end
