"""Which plain strings a regular expression cannot match without: a cheap test that skips a scan.

`required_literals(pattern)` reads the pattern's parse tree and returns groups of strings such that
every match contains at least one string of each group (nothing when it cannot tell). A text missing
every string of some group cannot match, so the expensive scan is skipped; any other text is scanned
as before. Skipping never changes a result.

Conservative on purpose: anything it does not fully understand (case-insensitive matching, optional
or zero-width parts, character classes, back-references) counts as "no constraint", never as one.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

# The stdlib's own regex parser (what re.compile runs first). Imported as a module object: it has no
# public, typed name in Python 3.11 (`sre_parse` is the deprecated alias).
_parser: Any = importlib.import_module("re._parser")
_op: Any = importlib.import_module("re._constants")

Literals = frozenset[str]
Required = tuple[Literals, ...]
"""Groups of strings; every match holds at least one string of each group."""

# Testing a few groups is enough to rule most texts out; more would cost more than they save.
MAX_GROUPS = 3
MIN_LENGTH = 3


def required_literals(pattern: re.Pattern[str]) -> Required:
    """Groups of strings every match of `pattern` holds one of; empty when unknown."""
    if pattern.flags & re.IGNORECASE:
        return ()
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except re.error:
        return ()
    if parsed.state.flags & re.IGNORECASE:
        return ()
    # A group holding a string of a character or two rules almost nothing out: left aside. Groups
    # with fewer, longer strings first: they are cheaper to test and rarer in text.
    useful = {group for group in _mandatory(list(parsed)) if min(map(len, group)) >= MIN_LENGTH}
    groups = sorted(useful, key=lambda g: (len(g), -min(map(len, g)), sorted(g)))
    return tuple(groups[:MAX_GROUPS])


def _mandatory(items: list[tuple[Any, Any]]) -> list[Literals]:
    """The groups each mandatory part of a sequence gives (a run of literal characters is one
    string every match contains)."""
    groups: list[Literals] = []
    run: list[str] = []
    for op, av in items:
        if op is _op.LITERAL:
            run.append(chr(av))
            continue
        if run:
            groups.append(frozenset({"".join(run)}))
            run = []
        found = _item(op, av)
        if found is not None:
            groups.append(found)
    if run:
        groups.append(frozenset({"".join(run)}))
    return groups


def _sequence(items: list[tuple[Any, Any]]) -> Literals | None:
    """One group for a whole sequence: its most selective mandatory part (longest shortest string)."""
    groups = _mandatory(items)
    if not groups:
        return None
    return max(groups, key=lambda strings: (min(map(len, strings)), -len(strings)))


def _item(op: Any, av: Any) -> Literals | None:
    if op is _op.SUBPATTERN:
        _, add_flags, _, sub = av
        if add_flags & re.IGNORECASE:
            return None
        return _sequence(list(sub))
    if op is _op.BRANCH:
        union: set[str] = set()
        for alternative in av[1]:
            found = _sequence(list(alternative))
            if found is None:
                return None
            union |= found
        return frozenset(union)
    if op in (_op.MAX_REPEAT, _op.MIN_REPEAT, _op.POSSESSIVE_REPEAT):
        low, _, sub = av
        return _sequence(list(sub)) if low >= 1 else None
    if op is _op.ATOMIC_GROUP:
        return _sequence(list(av))
    return None


def may_match(text: str, required: Required) -> bool:
    """False only when the text misses every string of some group (so the pattern cannot match)."""
    for group in required:
        for literal in group:
            if literal in text:
                break
        else:
            return False
    return True
