"""The engine loop's look-ups give what a check's findings say: a shared finding's result is built
once and handed out again, a finding with receipts always gets its own result, and a turn whose
inbound and draft carry the same language tag reads like any other agreeing pair."""

from __future__ import annotations

import pytest

from cerebrus import CheckRegistry, grade
from cerebrus.findings import Finding, passed
from cerebrus.registry import check
from cerebrus.views import TurnView
from gradecore.model.vocabulary import Evidence, Layer, Level, Outcome, Scope
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


@check(layer=Layer.OUTPUT, scope=Scope.TURN, level=Level.REPAIR)
def mentions_rent(view: TurnView) -> Finding:
    """The draft mentions rent (a receipt naming the draft when it does)."""
    if "rent" in view.draft:
        return passed("rent", "The draft mentions rent.", Evidence(message_id=view.message.id, detail="rent"))
    return passed("no_rent", "The draft does not mention rent.")


def test_shared_results_are_built_once_and_receipts_are_never_taken_for_them() -> None:
    conversation = (
        ConversationBuilder()
        .inbound("Hi")
        .reply("Hello.")
        .inbound("And the rent?")
        .reply("Rent is due on the 1st: rent.")
        .inbound("Thanks")
        .reply("You are welcome.")
        .build()
    )
    registry = CheckRegistry([mentions_rent])
    first, again = grade(conversation, registry=registry), grade(conversation, registry=registry)
    plain, receipted, other = (turn.dimensions[0] for turn in first.turns)
    assert (plain.reason.slug, plain.evidence) == ("no_rent", ())
    assert other is plain  # one shared finding, one result, handed out again
    assert again.turns[0].dimensions[0] is plain
    assert receipted.reason.slug == "rent"
    assert [(e.message_id, e.detail) for e in receipted.evidence] == [("m4", "rent")]
    assert again.turns[1].dimensions[0] == receipted


@pytest.mark.parametrize(("tag", "language"), [("es-MX", "es"), ("en", "en"), ("EN-us", "en")])
def test_the_same_tag_on_both_sides_reads_as_its_primary_language(tag: str, language: str) -> None:
    same = ConversationBuilder().inbound("Hola", language=tag).reply("Hola", language=tag).build()
    result = run_check(same, "reply_language_matches")
    assert result.outcome is Outcome.PASS
    assert result.reason.sentence == f"Written to in {language}, answered in {language}."
