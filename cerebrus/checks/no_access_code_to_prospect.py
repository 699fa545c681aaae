"""Turn check: a door or buzz code never goes to a prospect (matched by the code's identity)."""

from __future__ import annotations

from functools import lru_cache

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text.tokens import TokenizedText, first_piece, tokens_of
from cerebrus.views import TurnView
from gradecore.model.access_codes import mask_code
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope, Span

RULE_ENTRY = "access_code.whole_token"
FEW_CODES = 16

NO_CODE = passed("no_access_code", "The draft contains no access code.")

CodeIndex = tuple[
    dict[str, str],
    dict[tuple[str, ...], str],
    frozenset[bytes] | None,
    bool,
    tuple[tuple[tuple[str, ...], str], ...],
]
"""Codes by their one folded token; codes that are several tokens (`12 34`) by their tokens; the
first pieces of every code (a draft holding none of them holds no code; None: cannot tell); whether
there are few enough codes to search for each one in the draft; and every code as (its tokens, the
code), one-token codes first."""


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_access_code_to_prospect(view: TurnView) -> Finding:
    """The person the turn answers is a prospect and the draft contains one of facts.access_codes as a
    whole token (`555-2580` is one token and does not contain the code 2580)."""
    codes = view.parent.access_codes
    if not codes:
        return not_applicable("The property has no access codes on file.")
    answered = view.answered
    if answered is None:
        return not_applicable("The turn answers no inbound message, so nobody is known to receive it.")
    if answered.role != "prospect":
        return not_applicable(f"The turn answers a {answered.role}, not a prospect.")
    single, multiple, pieces, few, wanted = _code_index(view.parent.access_codes)
    tokens = view.tokens
    if few:
        # A few codes: find each where it stands in the folded draft and read the token there.
        spans = _found_where_they_stand(tokens, wanted)
    elif pieces is not None and pieces.isdisjoint(tokens.pieces):
        # Many codes: no code's first piece among the draft's pieces, no code (set operations).
        return NO_CODE
    else:
        spans = _found_token_by_token(tokens, single, multiple)
    if not spans:
        return NO_CODE
    # The quote is left out on purpose: a receipt may never hold the code in clear.
    evidence = [
        Evidence(
            message_id=view.message.id,
            turn_id=view.turn.id,
            span=span,
            fact_key="access_codes",
            detail=f"access code {mask_code(code)} sent to a prospect",
            rule_entry=RULE_ENTRY,
        )
        for span, code in sorted(spans, key=lambda found: found[0].start)
    ]
    return failed("access_code_to_prospect", "The draft gives a prospect an access code.", *evidence)


# A property's code list is the same in all its conversations: its index is built once per list.
@lru_cache(maxsize=64)
def _code_index(codes: tuple[str, ...]) -> CodeIndex:
    """The index of a code list (see CodeIndex)."""
    single: dict[str, str] = {}
    multiple: dict[tuple[str, ...], str] = {}
    pieces: set[bytes] | None = set()
    for code in codes:
        parts = tuple(tokens_of(code))
        if len(parts) == 1:
            single[parts[0]] = code
        elif parts:
            multiple[parts] = code
        piece = first_piece(parts[0]) if parts else None
        if piece is None:
            # A code without a piece (non-ASCII letters only) cannot be ruled out by pieces.
            pieces = None
        elif pieces is not None:
            pieces.add(piece)
    few = len(single) + len(multiple) <= FEW_CODES
    wanted = (*(((word,), code) for word, code in single.items()), *multiple.items())
    return (single, multiple, None if pieces is None else frozenset(pieces), few, wanted)


def _found_where_they_stand(
    tokens: TokenizedText, wanted: tuple[tuple[tuple[str, ...], str], ...]
) -> list[tuple[Span, str]]:
    """Each occurrence of a code's first token in the folded draft that starts a token, when the
    tokens from there are the code's: a substring search per code, no tokenizing the whole draft."""
    folded = tokens.folded.folded
    found: list[tuple[Span, str]] = []
    for parts, code in wanted:
        offset = folded.find(parts[0])
        while offset >= 0:
            if tokens.starts_token(offset):
                words, bounds = tokens.window(offset, len(parts))
                if tuple(words) == parts:
                    found.append((tokens.folded.span(offset, bounds[-1][1]), code))
            offset = folded.find(parts[0], offset + 1)
    return found


def _found_token_by_token(
    tokens: TokenizedText, single: dict[str, str], multiple: dict[tuple[str, ...], str]
) -> list[tuple[Span, str]]:
    """One look-up per token, however many codes are on file."""
    words = tokens.words
    found = [
        (tokens.span(position, position + 1), code)
        for position, word in enumerate(words)
        if (code := single.get(word)) is not None
    ]
    for parts, code in multiple.items():
        found.extend(
            (tokens.span(start, start + len(parts)), code)
            for start in tokens.starts(frozenset(parts[:1]))
            if tuple(words[start : start + len(parts)]) == parts
        )
    return found
