"""Turn check: every money amount Clara wrote is one the ledger or a tool actually gave her, and an
amount said of a named item is that item's (see docs/amounts.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cerebrus.amounts.backing import cents, ledger_sums, tool_money_values
from cerebrus.amounts.labels import LabelMatcher, Pairing, label_matcher
from cerebrus.amounts.mentions import MoneyMention, money_in
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope

from ._common import draft_evidence

NO_AMOUNT = not_applicable("The draft states no money amount.")
MATCHED = passed("amounts_match", "Every amount in the draft is backed by the ledger or a tool result.")

UNBACKED_ENTRY = "amounts.unbacked"

_WrongItem = tuple[MoneyMention, Pairing, str]
"""An amount for the wrong item: the amount, the label it is paired with, and the item it is worth."""
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
    wrong: list[_WrongItem] = []
    labels = ledger.labels
    folded = view.folded.folded
    owner_of, cents_of = ledger.owner_of, ledger.cents_of
    several = len(owner_of) >= 2
    for position, mention in enumerate(mentions):
        value = cents(mention.value)
        owner = owner_of.get(value)
        if owner is not None:
            # Equal to an item: fine unless it is paired with another item, whose value it is not.
            if not several:
                continue
            paired = _paired(labels, folded, mentions, position, ledger.other_labels(value))
            if paired is None or _holds_value(paired.keys, cents_of, value):
                continue
            if tool_values is None:
                tool_values = _tool_values(view)
            if value in tool_values:
                continue  # a tool quoted this very amount (a specific unit's price), so it is backed
            wrong.append((mention, paired, owner))
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


def _paired(
    labels: LabelMatcher,
    folded: str,
    mentions: list[MoneyMention],
    position: int,
    other_labels: re.Pattern[str] | None,
) -> Pairing | None:
    """The label the amount `mentions[position]` is paired with (docs/amounts.md): the
    label right after it; else the nearest before it in its sentence, with no other amount between
    and not taken by the amount before (as the label right after that one); else none.

    `other_labels` finds the first tokens of the labels naming only items worth something else: a
    stretch before the amount without any of them cannot pair it with the wrong item, so the labels
    there are not read at all (most amounts stop here). A pairing that cannot be wrong may be
    answered None: the caller only asks whether the amount is for the wrong item."""
    if other_labels is None:
        return None  # every label names an item worth this amount: no pairing can make it wrong
    mention = mentions[position]
    if labels.may_have_label_after(folded, mention.end):
        after = labels.label_after(folded, mention.end)
        if after is not None:
            return after
    floor = mentions[position - 1].end if position else 0
    if other_labels.search(folded, floor, mention.start) is None:
        # No label naming only other items stands in the stretch: whatever label is nearest names
        # this value's item (or none is), so it cannot be the wrong item.
        return None
    if position:
        taken = labels.label_after(folded, floor)
        if taken is not None:
            floor = taken.end  # the amount before took it: it pairs with no other amount
    return labels.label_before(folded, mention.start, floor)


def _holds_value(keys: tuple[str, ...], cents_of: dict[str, int], value: int) -> bool:
    """Whether one of the ledger items `keys` is worth `value` cents."""
    return any(cents_of[key] == value for key in keys)


def _failure(
    view: TurnView, ledger: _Ledger, unbacked: list[MoneyMention], wrong: list[_WrongItem]
) -> Finding:
    # The conversation's own amounts, not the shared ledger's (equal values may be written apart:
    # `-0.0` and `0.0` are one cent value but read differently in a receipt).
    amounts = view.conversation.property.facts.amounts
    evidence: list[Evidence] = [
        draft_evidence(
            view,
            mention.span,
            fact_key="amounts",
            detail=_wrong_item_detail(view, mention, paired, owner, amounts),
            rule_entry=f"{WRONG_ITEM_ENTRY}:{paired.keys[0]}",
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


def _wrong_item_detail(
    view: TurnView, mention: MoneyMention, paired: Pairing, owner: str, amounts: Mapping[str, float]
) -> str:
    """What the receipt says of an amount for the wrong item: the label it was paired with, quoted as
    written, and that label's ledger key, beside the item whose value it is."""
    key = paired.keys[0]
    label = view.folded.quote(view.folded.span(paired.start, paired.end))
    side = "after" if paired.start >= mention.end else "before"
    return (
        f'{mention.value:g} is paired with "{label}" ({key}, the label {side} it), '
        f"but it is {owner}'s amount, not {key}'s ({amounts[key]:g})"
    )


class _Ledger:
    """facts.amounts as the check reads it, worked out once per conversation: each item's value in cents,
    the first item holding each value, the labels naming items, and (on first need) the sums.

    Everything here follows from the items' keys, their values in cents and the label matcher."""

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
        to an item can be "for the wrong item" only when it is paired with such a label, so a stretch
        of text before it without any of these first tokens rules the label before it out in one
        search (and None rules out every pairing)."""
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
    """The conversation's ledger, built once for all its turns."""
    derived = view.parent.derived
    ledger: _Ledger | None = derived.get(_LEDGER_KEY)
    if ledger is None:
        amounts = view.conversation.property.facts.amounts
        ledger = derived[_LEDGER_KEY] = _Ledger(
            amounts, label_matcher(tuple(amounts), view.rules.amount_labels)
        )
    return ledger


_LEDGER_KEY = "amounts_match_ledger"


def _tool_values(view: TurnView) -> frozenset[int]:
    return tool_money_values(s.result for _, s in view.tool_steps if s.status == "success")
