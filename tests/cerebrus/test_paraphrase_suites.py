"""The generated paraphrase suites (bench/paraphrases.py, issues 27 and 28): every construction of
visit promises and failure narration is caught, and none of the non-examples built from the same words
(offers, conditions, non-trade subjects, the reader's own device, fixed outages) is flagged."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from cerebrus import Rules

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def paraphrases() -> ModuleType:
    # bench/ holds scripts, not a package: its modules import each other by plain name.
    sys.path.insert(0, str(BENCH))
    try:
        import paraphrases as module
    finally:
        sys.path.remove(str(BENCH))
    return module


@pytest.mark.parametrize("check", ["promises", "narration"])
def test_every_construction_is_caught_and_no_non_example_is_flagged(
    paraphrases: ModuleType, check: str
) -> None:
    suite = paraphrases.promise_suite() if check == "promises" else paraphrases.narration_suite()
    tallies = paraphrases.measure(suite, check, Rules())
    for construction, tally in tallies.items():
        assert tally.missed == [], f"{check}/{construction}: missed"
        assert tally.false_flags == [], f"{check}/{construction}: flagged"
        assert tally.recall == 1.0
    whole = paraphrases.total(tallies)
    # Built as a half-and-half suite: non-examples are a large share, so precision means something.
    assert whole.tn >= 0.4 * (whole.tp + whole.tn)
    languages = {p.language for p in suite if p.positive} & {p.language for p in suite if not p.positive}
    assert languages == {"en", "es"}


def test_the_v2_cases_keep_their_labels(paraphrases: ModuleType) -> None:
    v2 = [p for p in paraphrases.promise_suite() if p.construction == "v2"]
    assert {p.text: paraphrases.fires(p, "promises", Rules()) for p in v2} == {
        "Someone will be there to meet you.": False,
        "I'll have someone look into the late fee.": False,
        "The plumber will come by.": True,
        "We'll send a technician out.": True,
        "A maintenance tech will be there by 3 PM.": True,
    }


def test_the_suite_would_notice_a_missing_pattern(paraphrases: ModuleType) -> None:
    # With the progressive forms disabled, the suite reports their sentences as missed.
    rules = Rules.model_validate(
        {
            **Rules().model_dump(),
            "promises": [
                {**promise, "patterns": [p for p in promise["patterns"] if "on_the_way" not in p["id"]]}
                for promise in Rules().model_dump()["promises"]
            ],
        }
    )
    tallies = paraphrases.measure(paraphrases.promise_suite(), "promises", rules)
    assert tallies["progressive"].recall is not None and tallies["progressive"].recall < 0.5
