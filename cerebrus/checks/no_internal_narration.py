"""Turn check: the draft does not narrate Clara's machinery (prompts, tools, APIs, failures, raw errors)."""

from __future__ import annotations

from collections.abc import Iterator

from cerebrus.findings import Finding, data_missing, failed, passed
from cerebrus.registry import check
from cerebrus.text.folding import fold
from cerebrus.text.hits import narration_hits
from cerebrus.text.tokens import TokenizedText
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope, Span

from ._common import draft_evidence

FRAGMENT_CHARS = 12
FRAGMENT_WORDS = 2
ERROR_FRAGMENT_ENTRY = "narration.error_fragment"


CLEAN = passed("no_internal_narration", "The draft does not talk about Clara's machinery.")


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_internal_narration(view: TurnView) -> Finding:
    """The draft matches a narration pattern (machinery vocabulary in any language, failure narration
    in the draft's language) or holds a 12+ character, two-word fragment of a failed tool call's error
    text that is in neither the system prompt nor a successful tool result."""
    if not view.draft or view.draft.isspace():
        return data_missing("The draft is empty.")
    evidence: list[Evidence] = []
    tokens = view.tokens
    for pattern, start, stop in narration_hits(view.compiled.text, tokens, lambda: view.draft_language):
        evidence.append(
            draft_evidence(
                view,
                tokens.folded.span(start, stop),
                detail="narrates the machinery",
                rule_entry=pattern.id,
            )
        )
    if view.failed_tools:
        evidence.extend(_quoted_errors(view, tokens))
    if evidence:
        evidence.sort(key=lambda e: (e.span.start if e.span else 0, e.step_index or -1))
        return failed("internal_narration", "The draft talks about Clara's machinery.", *evidence)
    return CLEAN


def _quoted_errors(view: TurnView, tokens: TokenizedText) -> Iterator[Evidence]:
    """Fragments of failed calls' error texts in the draft, except what Clara may legitimately know
    from elsewhere (a vendor's name in the error that is also in a tool result or the prompt)."""
    known: list[str] | None = None
    for index, step in view.failed_tools:
        if not step.error:
            continue
        for span in _fragments(tokens, fold(step.error)):
            piece = fold(view.draft[span.start : span.end])
            if known is None:
                prompt = view.final_call[1].system_prompt if view.final_call else ""
                known = [fold(prompt or ""), *(fold(text) for text in view.tool_results_json)]
            if any(piece in text for text in known):
                continue
            yield draft_evidence(
                view,
                span,
                step_index=index,
                tool_name=step.tool_name,
                detail="quotes the tool error",
                rule_entry=ERROR_FRAGMENT_ENTRY,
            )


def _fragments(tokens: TokenizedText, error: str) -> Iterator[Span]:
    """Maximal stretches of the folded draft, 12+ characters and at least two words, found verbatim
    (case-insensitively) in the error text."""
    text = tokens.folded.folded
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
        if len(piece) >= FRAGMENT_CHARS and len(piece.split()) >= FRAGMENT_WORDS:
            offset = start + (len(text[start:end]) - len(text[start:end].lstrip()))
            yield tokens.folded.span(offset, offset + len(piece))
        start = end
