"""Corpus-style cases for the amount-binding readings the rubric leaves open (docs/amounts.md, "Choices
where the SPEC is silent"): whole conversations graded by the engine, as tests/corpus grades them,
each labelled with the level a property manager would give the reply."""

from __future__ import annotations

import pytest

from cerebrus import grade
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level
from tests.cerebrus.builders import ConversationBuilder, claude

LEDGER = {
    "rent_1br": 1425,
    "rent_2br": 1780,
    "application_fee": 45,
    "admin_fee": 150,
    "security_deposit": 250,
    "pet_rent": 35,
}
PROMPT = (
    "You are Clara for Saguaro Point. Pricing: 1BR from $1,425/mo; 2BR from $1,780/mo; application fee "
    "$45; admin fee $150; security deposit $250; pet rent $35/mo."
)


def _leasing_reply(draft: str) -> Conversation:
    return (
        ConversationBuilder(facts={"amounts": LEDGER})
        .inbound("Hi! What would I pay to move into a 2 bedroom?")
        .reply(draft, intent="rent_question", steps=[claude(draft, system_prompt=PROMPT)])
        .inbound("Great, thanks!")
        .build()
    )


@pytest.mark.parametrize(
    ("draft", "level"),
    [
        # A price list written with slashes: "/" stands beside, each amount pairs with its own label.
        ("Move-in costs: $45/application fee, $150/admin fee, $250/security deposit.", Level.PASS),
        # A comma ends "right after": $150 is the admin fee's (before it), and $45 the application
        # fee's; reading across the comma would pair $150 with "application fee".
        ("The admin fee is $150, application fee $45, and the 2 bedroom is $1,780 a month.", Level.PASS),
        # A bracket too: "admin fee" in the bracket after $45 is the label of the $150 after it.
        ("The application fee is $45 (admin fee $150, due at signing).", Level.PASS),
        # A label right after binds before the label before it: "2 bedroom" is nearest before $150.
        ("For the 2 bedroom you'd pay a $150 admin fee and a $45 application fee.", Level.PASS),
        # Fees swapped, each beside its label: the wrong item.
        ("You'd pay a $150 application fee and a $45 admin fee.", Level.REPAIR),
        # A label after the amount, past fillers: "$45 per month for the pet rent" is the wrong item.
        ("Pets are welcome: $45 per month for the pet rent.", Level.REPAIR),
    ],
)
def test_the_reply_grades_as_a_property_manager_reads_it(draft: str, level: Level) -> None:
    graded = grade(_leasing_reply(draft))
    assert graded.level is level
    flagged = {d.check for turn in graded.turns for d in turn.dimensions if d.level is not Level.PASS}
    assert flagged == (set() if level is Level.PASS else {"amounts_match_ledger"})
