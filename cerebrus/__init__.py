"""Cerebrus: the grading engine. `cerebrus.grade(conversation) -> ConversationGrade`, no Slack needed.

Deterministic checks live one per module in `cerebrus.checks`; the rules they read come from code
defaults, optionally overridden by a rules file (`load_rules`).
"""

from __future__ import annotations

from cerebrus.engine import grade
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS
from cerebrus.registry import CheckRegistry, CheckSpec, check, default_registry
from cerebrus.rules import Rules, RulesError, load_rules
from cerebrus.version import ENGINE_VERSION


def check_ids() -> tuple[str, ...]:
    """The ids of the shipped deterministic checks, in registry order."""
    return default_registry().ids


CHECK_IDS: tuple[str, ...] = check_ids()
"""The shipped deterministic check ids; `JUDGED_DIMENSIONS` lists the judged ones (tone, pacing)."""


__all__ = [
    "CHECK_IDS",
    "ENGINE_VERSION",
    "JUDGED_DIMENSIONS",
    "CheckRegistry",
    "CheckSpec",
    "Rules",
    "RulesError",
    "check",
    "check_ids",
    "default_registry",
    "grade",
    "load_rules",
]
