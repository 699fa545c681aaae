"""Turn check: a door or buzz code never goes to a prospect (matched by the code's identity)."""

from __future__ import annotations

from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.text import mask_code
from cerebrus.tokens import TokenizedText, first_piece, tokens_of
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

RULE_ENTRY = "access_code.whole_token"
FEW_CODES = 16

# The finding most turns get, built once at import (a shared finding costs nothing per call).
NO_CODE = passed("no_access_code", "The draft contains no access code.")

CodeIndex = tuple[dict[str, str], dict[tuple[str, ...], str], frozenset[bytes] | None, tuple[str, ...] | None]
"""Codes by their one folded token; codes that are several tokens (`12 34`) by their tokens; the
first pieces of every code (a draft holding none of them holds no code; None: cannot tell); and, when
there are only a few codes, their first tokens as substrings to search for (else None)."""


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.BLOCK)
def no_access_code_to_prospect(view: TurnView) -> Finding:
    """The person the turn answers is a prospect and the draft contains one of facts.access_codes as a
    whole token (`555-2580` is one token and does not contain the code 2580)."""
    codes = view.parent.access_codes
    if not codes:
        return not_applicable("The property has no access codes on file.")
    if view.answered is None:
        return not_applicable("The turn answers no inbound message, so nobody is known to receive it.")
    if view.answered.role != "prospect":
        return not_applicable(f"The turn answers a {view.answered.role}, not a prospect.")
    single, multiple, pieces, gates = _index(view)
    # A few codes: one substring search each says whether any can be there; many: set operations on
    # the draft's pieces (no code's piece in the draft, no code). Then one look-up per token.
    if gates is not None:
        folded = view.folded.folded
        if not any(gate in folded for gate in gates):
            return NO_CODE
    elif pieces is not None and pieces.isdisjoint(view.tokens.pieces):
        return NO_CODE
    tokens = view.tokens
    found: list[tuple[int, int, str]] = []
    for position, word in enumerate(tokens.words):
        code = single.get(word)
        if code is not None:
            found.append((position, position + 1, code))
    for parts, code in multiple.items():
        found.extend((start, start + len(parts), code) for start in _runs(tokens, parts))
    if not found:
        return NO_CODE
    # The quote is left out on purpose: a receipt may never hold the code in clear.
    evidence = [
        Evidence(
            message_id=view.message.id,
            turn_id=view.turn.id,
            span=tokens.span(start, stop),
            fact_key="access_codes",
            detail=f"access code {mask_code(code)} sent to a prospect",
            rule_entry=RULE_ENTRY,
        )
        for start, stop, code in sorted(found)
    ]
    return failed("access_code_to_prospect", "The draft gives a prospect an access code.", *evidence)


def _index(view: TurnView) -> CodeIndex:
    """The codes as tokens, built once per conversation."""
    memo_key = ("access_code_index", ())
    derived = view.parent.derived
    index: CodeIndex | None = derived.get(memo_key)
    if index is None:
        single: dict[str, str] = {}
        multiple: dict[tuple[str, ...], str] = {}
        pieces: set[bytes] | None = set()
        for code in view.parent.access_codes:
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
        gates = (*single, *(parts[0] for parts in multiple)) if few else None
        index = (single, multiple, None if pieces is None else frozenset(pieces), gates)
        derived[memo_key] = index
    return index


def _runs(tokens: TokenizedText, parts: tuple[str, ...]) -> list[int]:
    """Where a several-token code stands as consecutive tokens."""
    words = tokens.words
    return [
        start
        for start in tokens.starts(frozenset(parts[:1]))
        if tuple(words[start : start + len(parts)]) == parts
    ]
