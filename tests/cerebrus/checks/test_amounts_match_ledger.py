"""The amounts_match_ledger check (docs/grading.md): backed amounts, the wrong item, exact spans."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cerebrus import Rules
from gradecore.model.vocabulary import DimensionResult, Level, NotCheckedWhy, Outcome, Owner
from tests.cerebrus.builders import ConversationBuilder, claude, tool
from tests.cerebrus.helpers import quotes, run_check
from tests.profiles import examples

# The ledger holds rent_2br 1850 and application_fee 45 (builders.DEFAULT_FACTS).


@pytest.mark.parametrize(
    ("draft", "language", "quote"),
    [
        ("The 2 bedroom is $1,950 per month.", "en", "$1,950"),
        ("The 2 bedroom is $1950.00 per month.", "en", "$1950.00"),
        ("The 2 bedroom is 1,950 dollars per month.", "en", "1,950 dollars"),
        ("El de 2 habitaciones cuesta 1.950 dólares al mes.", "es", "1.950 dólares"),
        ("The 2 bedroom is USD 1950 per month.", "en", "USD 1950"),
        ("El depósito es de US$ 2.000,50.", "es", "US$ 2.000,50"),
    ],
)
def test_fails_on_an_amount_not_on_file_with_the_exact_span(draft: str, language: str, quote: str) -> None:
    conversation = (
        ConversationBuilder().inbound("Rent?").reply(draft, intent="rent_question", language=language)
    )
    result = run_check(conversation.build(), "amounts_match_ledger")
    assert result.outcome is Outcome.FAIL
    assert (result.level, result.owner) == (Level.REPAIR, Owner.CLARA)
    assert quotes(result) == [quote]
    assert result.evidence[0].fact_key == "amounts"


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        ("The 2 bedroom is $1,850 per month and the fee is $45.", "en"),
        ("It is $1850.00 a month.", "en"),
        ("Son 1.850 dólares al mes y 45 dólares de solicitud.", "es"),
        ("USD 1850, fee $45.00.", "en"),
    ],
)
def test_passes_when_every_amount_is_in_the_ledger(draft: str, language: str) -> None:
    conversation = ConversationBuilder().inbound("Rent?").reply(draft, language=language).build()
    assert run_check(conversation, "amounts_match_ledger").outcome is Outcome.PASS


def test_an_amount_from_a_successful_tool_result_is_backed() -> None:
    steps = [claude(stop_reason="tool_use"), tool("get_pricing", result={"parking": "$75.00"}), claude("x")]
    conversation = (
        ConversationBuilder().inbound("Parking?").reply("Parking is $75 a month.", steps=steps).build()
    )
    assert run_check(conversation, "amounts_match_ledger").outcome is Outcome.PASS


def test_an_amount_from_a_failed_tool_is_not_backed() -> None:
    steps = [
        claude(stop_reason="tool_use"),
        tool("get_pricing", status="error", error="parking 75"),
        claude("x"),
    ]
    conversation = (
        ConversationBuilder().inbound("Parking?").reply("Parking is $75 a month.", steps=steps).build()
    )
    result = run_check(conversation, "amounts_match_ledger")
    assert quotes(result) == ["$75"]


def test_reports_only_the_unbacked_amounts() -> None:
    draft = "Rent is $1,850, parking $80 and the fee 45 dollars."
    result = run_check(ConversationBuilder().inbound("?").reply(draft).build(), "amounts_match_ledger")
    assert quotes(result) == ["$80"]


@pytest.mark.parametrize(
    "draft", ["Tours run 9 to 11 AM on the 2nd floor.", "Las visitas son de 9 a 11 en el piso 2."]
)
def test_not_checked_when_the_draft_states_no_money(draft: str) -> None:
    result = run_check(ConversationBuilder().inbound("?").reply(draft).build(), "amounts_match_ledger")
    assert (result.outcome, result.not_checked_why) == (Outcome.NOT_CHECKED, NotCheckedWhy.NOT_APPLICABLE)


# --- v2: backed amounts, the wrong-item rule and its labels ------------------------------------------

LEDGER = {
    "rent_1br": 1425,
    "rent_2br": 1575,
    "application_fee": 50,
    "security_deposit": 500,
    "pet_deposit": 250,
    "pet_rent": 35,
}


def _grade(
    draft: str,
    *,
    language: str | None = "en",
    steps: list[dict[str, Any]] | None = None,
    rules: Rules | None = None,
    ledger: dict[str, float] = LEDGER,
) -> DimensionResult:
    builder = ConversationBuilder(facts={"amounts": ledger}).inbound("How much?", language=language)
    conversation = builder.reply(draft, language=language, steps=steps, intent="rent_question").build()
    return run_check(conversation, "amounts_match_ledger", rules)


def _with_tool(draft: str, result: Any, status: str = "success") -> list[dict[str, Any]]:
    error = "failed" if status == "error" else None
    return [
        claude(stop_reason="tool_use"),
        tool("get_quote", result=result, status=status, error=error),
        claude(draft),
    ]


@pytest.mark.parametrize(
    ("draft", "language", "quote", "label"),
    [
        ("Our 2-bedroom homes start at $1,425 per month.", "en", "$1,425", "2-bedroom"),
        ("A two bedroom is $1,425.00 a month, and it has a balcony.", "en", "$1,425.00", "two bedroom"),
        (
            "Los departamentos de 2 recámaras cuestan 1.425 dólares al mes.",
            "es",
            "1.425 dólares",
            "2 recámaras",
        ),
        ("El de dos habitaciones sale en $1.425,00 mensuales.", "es", "$1.425,00", "dos habitaciones"),
        ("You can have a $1,425 Two-Bedroom today.", "en", "$1,425", "Two-Bedroom"),
    ],
)
def test_a_2_bedroom_quoted_at_the_1_bedrooms_price_is_the_wrong_item(
    draft: str, language: str, quote: str, label: str
) -> None:
    """Issue 9: it equals *some* ledger value, which v1 took as backed. Issue 21: the receipt names
    the label the amount was paired with, quoted as written, and its key."""
    side = "after" if draft.index(label) > draft.index(quote) else "before"
    result = _grade(draft, language=language)
    assert result.outcome is Outcome.FAIL
    assert result.reason.title == "amount for the wrong item"
    (evidence,) = result.evidence
    assert (evidence.quote, evidence.rule_entry) == (quote, "amounts.wrong_item:rent_2br")
    assert evidence.detail == (
        f'1425 is paired with "{label}" (rent_2br, the label {side} it), '
        "but it is rent_1br's amount, not rent_2br's (1575)"
    )


def test_an_amount_is_not_backed_by_square_footage_in_a_tool_result() -> None:
    """Issue 9: "$1,050/month" passed because a tool result held 1050 square feet."""
    draft = "That unit is $1,050/month."
    result = _grade(draft, steps=_with_tool(draft, {"unit": "1050", "sqft": 1050, "floor": 3}))
    assert result.outcome is Outcome.FAIL
    assert [(e.quote, e.rule_entry) for e in result.evidence] == [("$1,050", "amounts.unbacked")]


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        ("Move-in: $1,575 + $500 = $2,075 due at signing.", "en"),
        ("Your move-in total is $2,075.00 (first month plus the security deposit).", "en"),
        ("Para mudarse: 1.575 dólares + 500 dólares = 2.075 dólares.", "es"),
        ("El total de mudanza es $2.125,00.", "es"),  # three items: 1575 + 500 + 50
    ],
)
def test_a_move_in_total_of_two_or_three_ledger_items_is_backed(draft: str, language: str) -> None:
    """Issue 9: a correct move-in total was flagged."""
    assert _grade(draft, language=language).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("draft", "quote"),
    [
        ("Your total is $2,160.", "$2,160"),  # four items: 1575 + 500 + 50 + 35
        ("Two months of the 2 bedroom come to $3,150.", "$3,150"),  # one item twice is not two items
    ],
)
def test_sums_are_of_two_or_three_distinct_items(draft: str, quote: str) -> None:
    assert quotes(_grade(draft)) == [quote]


def test_the_longest_label_wins() -> None:
    # "pet deposit" ends in "deposit", a label of security_deposit (500); the longer label pairs.
    assert _grade("There is a one-time pet deposit of $250.").outcome is Outcome.PASS
    result = _grade("There is a one-time pet deposit of $500.")
    assert [e.rule_entry for e in result.evidence] == ["amounts.wrong_item:pet_deposit"]


@pytest.mark.parametrize(
    "draft",
    [
        "Rent is $1,575, the application fee is $50.",  # $1,575 has no label before it
        "It's a $50 application fee.",  # the label after it pairs it with its own item (v3)
        "Monthly rent is $1,425 for that one.",  # bare "rent" names no item
        "La renta es de 1.425 dólares.",  # nor does "renta"
        "The 2 bedroom is $1,575 and $1,425 gets you a 1 bedroom.",  # an amount stands between
        "The 2 bedroom is $1,575. $1,425 is the 1-bedroom price.",  # another sentence
        "The 12 bedroom mansion costs $1,425.",  # "2 bedroom" only as whole tokens
    ],
)
def test_pairing_needs_the_nearest_label_before_the_amount(draft: str) -> None:
    language = "es" if "renta" in draft else "en"
    assert _grade(draft, language=language).outcome is Outcome.PASS


def test_a_labelled_amount_equal_to_no_item_is_backed_by_a_tool() -> None:
    draft = "This 2-bedroom would be $1,712 per month."
    assert _grade(draft, steps=_with_tool(draft, {"quote": {"monthly_rent": 1712}})).outcome is Outcome.PASS
    assert quotes(_grade(draft)) == ["$1,712"]


def test_a_tool_quoting_the_very_amount_backs_a_labelled_one() -> None:
    draft = "Unit 204, a 2-bedroom, is $1,425 this month."
    steps = _with_tool(draft, {"unit": "204", "special": {"price": 1425}})
    assert _grade(draft, steps=steps).outcome is Outcome.PASS


def test_labels_can_be_overridden_in_the_rules() -> None:
    rules = Rules.model_validate({"amount_labels": {"rent_2br": ["two-bed", "dos recámaras"]}})
    result = _grade("The two-bed is $1,425.", rules=rules)
    assert [e.rule_entry for e in result.evidence] == ["amounts.wrong_item:rent_2br"]
    # The override replaces the derived labels.
    assert _grade("The 2-bedroom is $1,425.", rules=rules).outcome is Outcome.PASS


@pytest.mark.parametrize(
    "result",
    [
        {"charges": [{"label": "prorated rent", "amount": 918.5}]},
        {"renters_insurance": {"min_liability_amount": 918.5}},
        {"note": "Prorated: $918.50 for December"},
        {"lease": {"Balance_Due": "918.50"}},
    ],
)
def test_money_values_in_a_tool_result_back_an_amount(result: Any) -> None:
    draft = "Your prorated rent is $918.50."
    assert _grade(draft, steps=_with_tool(draft, result)).outcome is Outcome.PASS


@pytest.mark.parametrize(
    "result",
    [
        {"unit_number": 918, "sqft": 918, "floor": 9},
        {"available": "2026-09-18", "count": 918},
    ],
)
def test_square_footage_unit_numbers_dates_and_counts_back_nothing(result: Any) -> None:
    draft = "That one is $918."
    assert quotes(_grade(draft, steps=_with_tool(draft, result))) == ["$918"]


@pytest.mark.parametrize(
    ("draft", "language"),
    [
        ("El de 2 recámaras cuesta 1.950 dólares.", "es"),
        ("El de 2 recámaras cuesta $1.950,00 al mes.", "es-MX"),
        ("El departamento de 2 habitaciones cuesta 1,950 dólares al mes.", "es"),  # en grouping in Spanish
        ("The 2 bedroom is $1,950.00 a month.", "en"),
    ],
)
def test_en_and_es_formatting_read_alike(draft: str, language: str) -> None:
    assert _grade(draft, language=language, ledger={"rent_2br": 1950}).outcome is Outcome.PASS


def test_an_untagged_draft_is_read_the_same_way() -> None:
    ledger = {"rent_2br": 1950}
    draft = "Hola, el departamento de dos recámaras cuesta 1.950 dólares al mes."
    assert _grade(draft, language=None, ledger=ledger).outcome is Outcome.PASS


def _written(cents_value: int, style: str) -> str:
    """An amount the way a draft writes it, in one of the usual en and es styles."""
    en = f"{cents_value / 100:,.2f}"
    es = en.replace(",", "_").replace(".", ",").replace("_", ".")
    whole_en, whole_es = en[:-3], es[:-3]
    return {
        "en": f"${en}",
        "en whole": f"${whole_en}" if cents_value % 100 == 0 else f"${en}",
        "en words": f"{en} dollars",
        "es": f"${es}",
        "es words": f"{whole_es if cents_value % 100 == 0 else es} dólares",
        "usd": f"US${en}",
    }[style]


@settings(max_examples=examples(150))
@given(
    st.integers(min_value=1, max_value=9_999_999),
    st.sampled_from(["en", "en whole", "en words", "es", "es words", "usd"]),
)
def test_a_ledger_value_is_backed_however_it_is_written(cents_value: int, style: str) -> None:
    ledger = {"rent_2br": cents_value / 100}
    language = "es" if style.startswith("es") else "en"
    draft = (
        f"Son {_written(cents_value, style)} al mes."
        if language == "es"
        else f"It is {_written(cents_value, style)}."
    )
    assert _grade(draft, language=language, ledger=ledger).outcome is Outcome.PASS
    # One cent off is on file nowhere: the ledger has one item, so no sums either.
    off = _written(cents_value + 1, style)
    assert _grade(f"It is {off}.", language=language, ledger=ledger).outcome is Outcome.FAIL


# --- v3 (issue 21): an amount binds to the label beside it -------------------------------------------

MOVE_IN_LEDGER = {
    "rent_1br": 1425,
    "rent_2br": 1780,
    "application_fee": 45,
    "admin_fee": 150,
    "security_deposit": 250,
    "pet_rent": 35,
}


@pytest.mark.parametrize(
    "draft",
    [
        # The issue's own example (docs/amounts.md): each amount pairs with the label after it (v2
        # flagged $150 and $45).
        "The $250 security deposit and the $150 admin fee, plus a $45 application fee.",
        "You'd pay a $45 application fee, a $150 admin fee and a $250 security deposit.",
        "That's $35 monthly pet rent, a $150 one-time admin fee and a $250 refundable security deposit.",
        "It's $150 for the admin fee and $45 for the application fee.",
        "$45/application fee, $150/admin fee.",  # "/" stands beside
        "Rent is $1,780, the application fee is $45.",  # $1,780 pairs with nothing; $45 with the fee
        "The admin fee ($150) and the application fee ($45) are due at signing.",
        "2-bedroom homes start at $1,780 per month.",
    ],
)
def test_an_amount_pairs_with_the_label_right_after_it_first(draft: str) -> None:
    assert _grade(draft, ledger=MOVE_IN_LEDGER).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("draft", "language", "quote", "label"),
    [
        ("You'd pay a $45 application fee and a $45 admin fee.", "en", "$45", "admin fee"),
        ("That's a $150 application fee.", "en", "$150", "application fee"),
        ("Son $150 de cuota de solicitud.", "es", "$150", "cuota de solicitud"),
        ("It's $150 per month for the application fee.", "en", "$150", "application fee"),
    ],
)
def test_the_label_right_after_an_amount_can_make_it_the_wrong_item(
    draft: str, language: str, quote: str, label: str
) -> None:
    result = _grade(draft, language=language, ledger=MOVE_IN_LEDGER)
    assert result.outcome is Outcome.FAIL
    assert result.reason.title == "amount for the wrong item"
    (evidence,) = result.evidence
    assert evidence.quote == quote
    assert evidence.rule_entry is not None and evidence.rule_entry.startswith("amounts.wrong_item:")
    assert f'paired with "{label}"' in (evidence.detail or "")
    assert "the label after it" in (evidence.detail or "")


@pytest.mark.parametrize(
    "draft",
    [
        "A $250 security deposit and $45.",  # the label before $45 is taken: $45 is not paired
        "The $250 security deposit and $150 are due at signing.",  # corpus case 43
        "The application fee is $45, $150 for the admin fee.",
    ],
)
def test_a_label_already_paired_pairs_with_no_other_amount(draft: str) -> None:
    assert _grade(draft, ledger=MOVE_IN_LEDGER).outcome is Outcome.PASS


def test_a_label_before_that_no_amount_took_still_pairs() -> None:
    # "admin fee" is not taken ($250 pairs with the deposit after it), so $45 pairs with it.
    result = _grade("The $250 security deposit, admin fee is $45.", ledger=MOVE_IN_LEDGER)
    assert [e.rule_entry for e in result.evidence] == ["amounts.wrong_item:admin_fee"]
    assert "the label before it" in (result.evidence[0].detail or "")


@pytest.mark.parametrize(
    "draft",
    [
        "It's $150, application fee included.",  # a comma ends "right after"
        "It's $150 (application fee waived) today.",  # so does a bracket
        "It's $150\napplication fee waived.",  # and a line break
        "It's $150 and the application fee is waived.",  # any other word too
    ],
)
def test_only_fillers_and_spaces_stand_between_an_amount_and_the_label_after_it(draft: str) -> None:
    assert _grade(draft, ledger=MOVE_IN_LEDGER).outcome is Outcome.PASS


def test_a_label_after_outranks_the_label_before() -> None:
    # "2-bedroom" is nearest before $150, but "admin fee" right after binds first.
    assert _grade("For the 2-bedroom it's a $150 admin fee.", ledger=MOVE_IN_LEDGER).outcome is Outcome.PASS
    result = _grade("For the admin fee it's a $1,425 2-bedroom.", ledger=MOVE_IN_LEDGER)
    assert [e.rule_entry for e in result.evidence] == ["amounts.wrong_item:rent_2br"]
