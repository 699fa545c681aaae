"""Turn check: every money amount Clara wrote is one the ledger or a tool actually gave her, and an
amount said of a named item is that item's (see docs/amounts.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cerebrus.amount_labels import LabelMatcher, label_matcher
from cerebrus.amounts import MoneyMention, money_in
from cerebrus.backing import cents, ledger_sums, tool_money_values
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.vocabulary import Evidence, Layer, Level, Scope

from ._common import draft_evidence

# Findings most turns get, built once at import (a shared finding costs nothing per call).
NO_AMOUNT = not_applicable("The draft states no money amount.")
MATCHED = passed("amounts_match", "Every amount in the draft is backed by the ledger or a tool result.")

UNBACKED_ENTRY = "amounts.unbacked"
WRONG_ITEM_ENTRY = "amounts.wrong_item"


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.REPAIR)
def amounts_match_ledger(view: TurnView) -> Finding:
    """A money amount in the draft is backed by nothing (a ledger value, the sum of two or three
    distinct ledger items, a money value in a successful tool result), or is said of a ledger item
    (its label is the nearest before it in the sentence) while equal to another item's value, not its
    own: "amount for the wrong item". The span is the amount as written."""
    mentions = money_in(view.folded)
    return _judge(view, mentions) if mentions else NO_AMOUNT


def _judge(view: TurnView, mentions: list[MoneyMention]) -> Finding:
    """The verdict on a draft's amounts."""
    ledger = _ledger(view)
    tool_values: frozenset[int] | None = None
    unbacked: list[MoneyMention] = []
    wrong: list[tuple[MoneyMention, str, str]] = []
    labels = ledger.labels
    folded = view.folded.folded
    owner_of, cents_of = ledger.owner_of, ledger.cents_of
    several = len(owner_of) >= 2
    for position, mention in enumerate(mentions):
        value = cents(mention.value)
        owner = owner_of.get(value)
        if owner is not None:
            # Equal to an item: fine unless its sentence names another item, whose value it is not.
            if not several:
                continue
            previous_end = mentions[position - 1].end if position else 0
            other = ledger.other_labels(value)
            if other is None or other.search(folded, previous_end, mention.start) is None:
                # No label naming only other items stands between the amount before and this one:
                # whatever label is nearest names this value's item (or none is), so it is fine.
                continue
            paired = labels.paired_keys(folded, mention.start, previous_end)
            if not paired or _holds_value(paired, cents_of, value):
                continue
            if tool_values is None:
                tool_values = _tool_values(view)
            if value in tool_values:
                continue  # a tool quoted this very amount (a specific unit's price), so it is backed
            wrong.append((mention, paired[0], owner))
            continue
        if value in ledger.sums:
            continue
        if tool_values is None:
            tool_values = _tool_values(view)
        if value not in tool_values:
            unbacked.append(mention)
    if not (unbacked or wrong):
        return MATCHED
    return _failure(view, ledger, unbacked, wrong)


def _holds_value(keys: tuple[str, ...], cents_of: dict[str, int], value: int) -> bool:
    """Whether one of the ledger items `keys` is worth `value` cents."""
    for key in keys:  # noqa: SIM110 (a plain loop: any() over a generator costs more per amount)
        if cents_of[key] == value:
            return True
    return False


def _failure(
    view: TurnView, ledger: _Ledger, unbacked: list[MoneyMention], wrong: list[tuple[MoneyMention, str, str]]
) -> Finding:
    # The conversation's own amounts, not the shared ledger's (equal values may be written apart:
    # `-0.0` and `0.0` are one cent value but read differently in a receipt).
    amounts = view.conversation.property.facts.amounts
    evidence: list[Evidence] = [
        draft_evidence(
            view,
            mention.span,
            fact_key="amounts",
            detail=f"{mention.value:g} is {owner}'s amount, not {paired}'s ({amounts[paired]:g})",
            rule_entry=f"{WRONG_ITEM_ENTRY}:{paired}",
        )
        for mention, paired, owner in wrong
    ]
    evidence.extend(
        draft_evidence(
            view,
            mention.span,
            fact_key="amounts",
            detail=f"{mention.value:g} is not on file",
            rule_entry=UNBACKED_ENTRY,
        )
        for mention in unbacked
    )
    evidence.sort(key=lambda e: e.span.start if e.span is not None else 0)
    if wrong:
        quoted = ", ".join(mention.quote for mention, _, _ in wrong)
        return failed("amount_for_the_wrong_item", f"The draft gives {quoted} for the wrong item.", *evidence)
    quoted = ", ".join(m.quote for m in unbacked)
    return failed(
        "amount_mismatch",
        f"The draft states {quoted}, which matches nothing in the ledger or a tool result.",
        *evidence,
    )


class _Ledger:
    """facts.amounts as the check reads it, worked out once per ledger: each item's value in cents,
    the first item holding each value, the labels naming items, and (on first need) the sums.

    Everything here follows from the items' keys, their values in cents and the label matcher, so
    one ledger serves every conversation of a property (see `_ledger`)."""

    def __init__(self, amounts: Mapping[str, float], labels: LabelMatcher) -> None:
        self.cents_of = {key: cents(value) for key, value in amounts.items()}
        self.owner_of: dict[int, str] = {}
        for key, value in self.cents_of.items():
            self.owner_of.setdefault(value, key)
        self.labels = labels
        self._sums: frozenset[int] | None = None
        self._other_labels: dict[int, re.Pattern[str] | None] = {}

    def other_labels(self, value: int) -> re.Pattern[str] | None:
        """A pattern finding the first token of every label that names only items worth something
        else than `value` (cents), as a substring; None when there is no such label. An amount equal
        to an item can be "for the wrong item" only when such a label is the nearest before it, so a
        stretch of text without any of these first tokens rules that out in one search."""
        try:
            return self._other_labels[value]
        except KeyError:
            pass
        worth = frozenset(key for key, item in self.cents_of.items() if item == value)
        pattern = self._other_labels[value] = self.labels.screen_without(worth)
        return pattern

    @property
    def sums(self) -> frozenset[int]:
        if self._sums is None:
            self._sums = ledger_sums(self.cents_of.values())
        return self._sums


def _ledger(view: TurnView) -> _Ledger:
    """The conversation's ledger: looked up once per conversation, and built once per distinct
    ledger (a property's conversations all carry the same facts.amounts)."""
    derived = view.parent.derived
    ledger: _Ledger | None = derived.get(_LEDGER_KEY)
    if ledger is None:
        amounts = view.conversation.property.facts.amounts
        labels = label_matcher(tuple(amounts), view.rules.amount_labels)
        # The matcher by identity (it is not hashable): each cached ledger holds its matcher, so
        # that identity is not reused while the entry lives.
        key = (id(labels), tuple(amounts.items()))
        ledger = _LEDGERS.get(key)
        if ledger is None:
            if len(_LEDGERS) >= _LEDGERS_LIMIT:
                _LEDGERS.clear()  # starting afresh is always correct: a ledger is rebuilt on a miss
            ledger = _LEDGERS[key] = _Ledger(amounts, labels)
        derived[_LEDGER_KEY] = ledger
    return ledger


_LEDGER_KEY = ("amounts_match_ledger", ())
_LEDGERS: dict[tuple[int, tuple[tuple[str, float], ...]], _Ledger] = {}
_LEDGERS_LIMIT = 256


def _tool_values(view: TurnView) -> frozenset[int]:
    return tool_money_values(s.result for _, s in view.tool_steps if s.status == "success")
