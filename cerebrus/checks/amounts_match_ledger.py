"""Turn check: every money amount Clara wrote is one the ledger or a tool actually gave her, and an
amount said of a named item is that item's (see docs/amounts.md)."""

from __future__ import annotations

from cerebrus.amount_labels import label_matcher, paired_label, sentence_starts
from cerebrus.amounts import DECIMAL_MARKS, MoneyMention, any_equal, money_in
from cerebrus.backing import cents, ledger_sums, tool_money_values
from cerebrus.findings import Finding, failed, not_applicable, passed
from cerebrus.language import language_of, primary
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
    mentions = _mentions(view)
    if not mentions:
        return NO_AMOUNT
    amounts = view.conversation.property.facts.amounts
    ledger = view.parent.ledger
    tool_values: frozenset[int] | None = None
    unbacked: list[MoneyMention] = []
    wrong: list[tuple[MoneyMention, str, str]] = []
    pairing: _Pairing | None = None
    for position, mention in enumerate(mentions):
        if any_equal(mention.value, ledger):
            # Equal to some item: fine unless the sentence names another item whose value it is not.
            if len(set(ledger)) < 2:
                continue
            if pairing is None:
                pairing = _Pairing(view, mentions)
            paired = pairing.keys_for(position)
            if not paired or any(cents(amounts[key]) == cents(mention.value) for key in paired):
                continue
            if tool_values is None:
                tool_values = _tool_values(view)
            if cents(mention.value) in tool_values:
                continue  # a tool quoted this very amount (a specific unit's price), so it is backed
            owner = next(key for key, value in amounts.items() if cents(value) == cents(mention.value))
            wrong.append((mention, paired[0], owner))
            continue
        if cents(mention.value) in _sums(view):
            continue
        if tool_values is None:
            tool_values = _tool_values(view)
        if cents(mention.value) not in tool_values:
            unbacked.append(mention)
    if not (unbacked or wrong):
        return MATCHED
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


def _mentions(view: TurnView) -> list[MoneyMention]:
    """The draft's money amounts, read with the decimal mark of the draft's language: its tag, else
    (only when a number reads differently in en and es) the detected language."""
    tag = view.message.language
    if tag:
        return money_in(view.folded, DECIMAL_MARKS.get(primary(tag)))
    mentions = money_in(view.folded)
    if any(mention.language_sensitive for mention in mentions):
        rules = view.rules
        language, _ = language_of(view.message, rules.languages, rules.thresholds.language_confidence)
        if language is not None:
            return money_in(view.folded, DECIMAL_MARKS.get(language))
    return mentions


def _sums(view: TurnView) -> frozenset[int]:
    """The ledger's two- and three-item sums, worked out once per conversation."""
    derived = view.parent.derived
    memo_key = ("ledger_sums", ())
    sums: frozenset[int] | None = derived.get(memo_key)
    if sums is None:
        sums = ledger_sums(view.conversation.property.facts.amounts)
        derived[memo_key] = sums
    return sums


def _tool_values(view: TurnView) -> frozenset[int]:
    return tool_money_values(s.result for _, s in view.tool_steps if s.status == "success")


class _Pairing:
    """The ledger item each amount of one draft is said of (found once per draft, when needed)."""

    def __init__(self, view: TurnView, mentions: list[MoneyMention]) -> None:
        amounts = view.conversation.property.facts.amounts
        matcher = label_matcher(tuple(amounts), view.rules.amount_labels)
        folded = view.folded.folded
        self._keys_of = matcher.keys_of
        self._labels = matcher.labels_in(folded)
        self._starts = sentence_starts(folded) if self._labels else [0]
        self._mentions = mentions

    def keys_for(self, position: int) -> tuple[str, ...]:
        if not self._labels:
            return ()
        mention = self._mentions[position]
        previous_end = self._mentions[position - 1].end if position else 0
        label = paired_label(self._labels, self._starts, mention.start, previous_end)
        return self._keys_of[label] if label is not None else ()
