"""What can back a money amount in a draft: the ledger's values and the sums of two or three distinct
items of it (a move-in total), and the money values in a successful tool result.

Values are compared to the cent, as whole cents, so backing is a set look-up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Any

from cerebrus import defaults
from cerebrus.amounts.mentions import money_in, parse_number
from cerebrus.text.folding import FoldedText

_PLAIN_NUMBER = re.compile(r"\s*-?\d[\d.,]*\s*")
_MONEY_KEY = re.compile("|".join(re.escape(word) for word in defaults.MONEY_KEY_WORDS))


def cents(value: float) -> int:
    """A value to the cent, as a whole number of cents."""
    return round(value * 100)


def ledger_sums(values: Iterable[int]) -> frozenset[int]:
    """The sums of two or three distinct items of the ledger, given each item's value in cents (an
    item is a key, so two items of equal value still add up)."""
    items = list(values)
    sums: set[int] = set()
    for size in (2, 3):
        sums.update(sum(group) for group in combinations(items, size))
    return frozenset(sums)


def is_money_key(key: str) -> bool:
    return _MONEY_KEY.search(key.lower()) is not None


def tool_money_values(results: Iterable[Any]) -> frozenset[int]:
    """Every money value (in cents) in some tool results: a number under a key naming money (rent,
    fee, total, …) at any depth, or a string with a currency marker. Square footage, unit numbers,
    dates and counts are under other keys, so they back nothing."""
    found: set[int] = set()
    for result in results:
        found.update(cents(value) for value in _money_values(result, under_money_key=False))
    return frozenset(found)


def _money_values(value: Any, *, under_money_key: bool) -> Iterator[float]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _money_values(item, under_money_key=under_money_key or is_money_key(str(key)))
    elif isinstance(value, list):
        for item in value:
            yield from _money_values(item, under_money_key=under_money_key)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        if under_money_key:
            yield float(value)
    elif isinstance(value, str):
        if under_money_key and _PLAIN_NUMBER.fullmatch(value):
            yield parse_number(value.strip().lstrip("-"))
        else:
            yield from (mention.value for mention in money_in(FoldedText(value)))
