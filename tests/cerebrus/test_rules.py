"""Rules: code defaults, overridden or extended by a TOML/YAML file; malformed files fail clearly."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cerebrus import Rules, RulesError, grade, load_rules
from tests.cerebrus.builders import ConversationBuilder, claude
from tests.cerebrus.helpers import run_check


def test_defaults_are_the_spec_tables() -> None:
    rules = Rules()
    assert rules.mandated_tools == {
        "tour_request": ("get_tour_slots",),
        "maintenance_request": ("create_work_order",),
    }
    assert rules.required_facts == {"tour_request": ("office_hours",), "rent_question": ("amounts",)}
    assert [(p.id, p.requires_fact, p.requires_tool) for p in rules.promises] == [
        ("arrival_instructions", "arrival_instructions", None),
        ("vendor_visit", None, "dispatch_vendor"),
        ("repair_by", None, "dispatch_vendor"),
    ]
    t = rules.thresholds
    assert (t.followup_sla, t.escalation_sla, t.burst_window) == (
        timedelta(hours=4),
        timedelta(hours=24),
        timedelta(minutes=10),
    )
    assert (t.max_iterations, t.token_budget) == (6, 60_000)
    assert rules.languages == ("en", "es")
    assert rules.calibrated_judged == frozenset()


def test_toml_overrides_and_extends(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(
        """
calibrated_judged = ["tone"]

[mandated_tools]
tour_request = ["get_tour_slots", "check_calendar"]
renewal = ["get_lease"]

[thresholds]
followup_sla = "2h"
token_budget = 80000

[[promises]]
id = "refund"
requires_tool = "issue_refund"
patterns = [
    { id = "refund.en", language = "en", pattern = "we {future} refund" },
    { id = "refund.es", language = "es", pattern = "te reembolsaremos" },
]
""",
        encoding="utf-8",
    )
    rules = load_rules(path)
    assert rules.mandated_tools["tour_request"] == ("get_tour_slots", "check_calendar")
    assert rules.mandated_tools["renewal"] == ("get_lease",)
    assert rules.mandated_tools["maintenance_request"] == ("create_work_order",)  # default kept
    assert rules.thresholds.followup_sla == timedelta(hours=2)
    assert rules.thresholds.escalation_sla == timedelta(hours=24)
    assert rules.thresholds.token_budget == 80_000
    assert [p.id for p in rules.promises] == ["arrival_instructions", "vendor_visit", "repair_by", "refund"]
    assert rules.calibrated_judged == frozenset({"tone"})
    conversation = (
        ConversationBuilder().inbound("Refund?").reply("Te reembolsaremos el depósito.", language="es")
    )
    result = run_check(conversation.build(), "no_ungrounded_policy_claim", rules)
    assert (result.evidence[0].quote, result.evidence[0].rule_entry) == ("Te reembolsaremos", "refund.es")


def test_yaml_disables_a_promise_by_id_and_replaces_a_slot(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(
        """
promises:
  - id: vendor_visit
    enabled: false
slots:
  trade: [window washer]
languages: [en, es, fr]
""",
        encoding="utf-8",
    )
    rules = load_rules(path)
    assert [(p.id, p.enabled) for p in rules.promises] == [
        ("arrival_instructions", True),
        ("vendor_visit", False),
        ("repair_by", True),
    ]
    assert [p.id for p in rules.promises[1].patterns][:2] == ["visit.trade_en", "visit.send_en"]  # kept
    assert rules.slots["trade"] == ("window washer",)
    assert rules.slots["future"][0] == "will"  # other slots kept
    assert rules.languages == ("en", "es", "fr")
    conversation = ConversationBuilder().inbound("Leak").reply("A technician will be there at 9.").build()
    assert run_check(conversation, "no_ungrounded_policy_claim", rules).outcome.value == "not_checked"


def test_a_rules_file_disables_one_pattern_by_id_and_adds_another(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(
        """
[[narration]]
id = "machinery.database"
enabled = false

[[narration]]
id = "narration.vector_store"
pattern = "(the | our) vector (store | index)"

[[narration]]
id = "narration.cant_retrieve_en"
pattern = "(i | we) {unable} (find | see) (it | that)"

[[promises]]
id = "vendor_visit"
patterns = [
    { id = "visit.trade_en", enabled = false },
    { id = "visit.crew_en", language = "en", pattern = "(the | our) crew {future} {visit}" },
]
""",
        encoding="utf-8",
    )
    rules = load_rules(path)
    draft = (
        "The database is fine, and our vector index too. Our crew will be there; a plumber will fix it. "
        "I can't find it, I can't look up more."
    )
    conversation = ConversationBuilder().inbound("Hi").reply(draft, steps=[claude(draft)]).build()
    narration = run_check(conversation, "no_internal_narration", rules)
    assert [(e.quote, e.rule_entry) for e in narration.evidence] == [
        ("our vector index", "narration.vector_store"),
        ("I can't find it", "narration.cant_retrieve_en"),  # replaced: "look up" no longer fires
    ]
    promise = run_check(conversation, "no_ungrounded_policy_claim", rules)
    assert [(e.quote, e.rule_entry) for e in promise.evidence] == [
        ("Our crew will be there", "visit.crew_en")
    ]
    # The defaults still see what the file switched off.
    assert [e.rule_entry for e in run_check(conversation, "no_internal_narration").evidence] == [
        "machinery.database",
        "narration.cant_retrieve_en",
    ]
    assert [e.rule_entry for e in run_check(conversation, "no_ungrounded_policy_claim").evidence] == [
        "visit.trade_en"
    ]
    assert rules.rubric_version != Rules().rubric_version


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("bad.toml", "[thresholds\nfollowup_sla = 1", "not valid TOML"),
        ("bad.yaml", "thresholds: [1, 2", "not valid YAML"),
        ("list.yaml", "- 1\n- 2", "the top level must be a table/mapping"),
        ("unknown.toml", "colour = 'red'", "colour: Extra inputs are not permitted"),
        ("sla.toml", "[thresholds]\nfollowup_sla = 'soon'", "thresholds.followup_sla"),
        ("neg.toml", "[thresholds]\nburst_window = '-5m'", "thresholds.burst_window"),
        ("iter.toml", "[thresholds]\nmax_iterations = 0", "thresholds.max_iterations"),
        ("lang.toml", "languages = ['en', 'xx']", "unknown ISO 639-1 language code(s): xx"),
        ("judged.toml", "calibrated_judged = ['empathy']", "not judged dimensions: empathy"),
        (
            "pattern.toml",
            "[[promises]]\nid = 'x'\nrequires_fact = 'a'\n"
            "patterns = [{ id = 'x.en', pattern = '(we | i will' }]",
            "pattern x.en: a group is not closed: missing ')'",
        ),
        (
            "slot.toml",
            "[[narration]]\nid = 'narration.mine'\npattern = \"our {gizmo}\\n  is down\"",
            "pattern narration.mine: unknown slot {gizmo} (define it under slots)",
        ),
        (
            "pattern_language.toml",
            "[[narration]]\nid = 'narration.mine'\nlanguage = 'xx'\npattern = 'x'",
            "unknown ISO 639-1 language code: xx",
        ),
        (
            "dup.toml",
            "[[narration]]\nid = 'ask.auxiliary_en'\npattern = 'x'",
            "pattern id 'ask.auxiliary_en' is used twice",
        ),
        (
            "both.toml",
            "[[promises]]\nid = 'x'\nrequires_fact = 'a'\nrequires_tool = 'b'\npatterns = []",
            "exactly one",
        ),
        ("rules.json", "{}", "expected a .toml, .yaml or .yml file"),
        # Files written for rubric v1 say so, instead of a schema error that does not say why.
        (
            "v1_lexicons.toml",
            "[lexicons]\ninternal_narration = ['the system']",
            "`lexicons` is how rubric v1 wrote it; v2 matches phrase patterns by id",
        ),
        (
            "v1_promise.yaml",
            "promises:\n  - id: vendor_visit\n    requires_fact: vendor_visit\n"
            "    patterns:\n      en: ['someone will come']",
            "promise 'vendor_visit' with `patterns` as a table of regular expressions is how rubric v1",
        ),
    ],
)
def test_a_malformed_rules_file_is_one_clear_line(
    tmp_path: Path, name: str, content: str, problem: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"rules file {path}: ")
    assert problem in message


def test_a_missing_rules_file_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read it"):
        load_rules(tmp_path / "absent.toml")


def test_an_empty_rules_file_means_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    assert load_rules(path) == Rules()


def test_rubric_version_is_stable_and_tracks_the_effective_rules() -> None:
    assert Rules().rubric_version == Rules().rubric_version
    assert len(Rules().rubric_version) == 12
    changed = Rules.model_validate({"thresholds": {"token_budget": 1}})
    assert changed.rubric_version != Rules().rubric_version
    conversation = ConversationBuilder().inbound("Hi").reply("Hello").build()
    assert grade(conversation, rules=changed).rubric_version == changed.rubric_version
    # Equal rules reached by different routes have one version.
    assert (
        Rules.model_validate({"thresholds": {"followup_sla": "240m"}}).rubric_version
        == Rules().rubric_version
    )
