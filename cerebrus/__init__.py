"""Cerebrus: the grading engine. `cerebrus.grade(conversation) -> ConversationGrade`, no Slack needed.

Deterministic checks live one per module in `cerebrus.checks`; the rules they read come from code
defaults, optionally overridden by a rules file (`load_rules`).

The names below load on first use: importing a light part of the package (`cerebrus.version`,
`cerebrus.rules`) does not build the engine, so `smith --version` stays quick (docs/operations.md,
command start-up).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cerebrus.engine import grade
    from cerebrus.judged_dimensions import JUDGED_DIMENSIONS
    from cerebrus.registry import CheckRegistry, CheckSpec, check, default_registry
    from cerebrus.rules import Rules, RulesError, load_rules
    from cerebrus.version import ENGINE_VERSION

    CHECK_IDS: tuple[str, ...]
    """The shipped deterministic check ids; `JUDGED_DIMENSIONS` lists the judged ones (tone, pacing)."""

# Which submodule defines each public name.
_HOMES = {
    "grade": "cerebrus.engine",
    "CheckRegistry": "cerebrus.registry",
    "CheckSpec": "cerebrus.registry",
    "check": "cerebrus.registry",
    "default_registry": "cerebrus.registry",
    "JUDGED_DIMENSIONS": "cerebrus.judged_dimensions",
    "Rules": "cerebrus.rules",
    "RulesError": "cerebrus.rules",
    "load_rules": "cerebrus.rules",
    "ENGINE_VERSION": "cerebrus.version",
}


def check_ids() -> tuple[str, ...]:
    """The ids of the shipped deterministic checks, in registry order."""
    from cerebrus.registry import default_registry

    return default_registry().ids


def __getattr__(name: str) -> object:
    if name == "CHECK_IDS":
        value: object = check_ids()
    elif name in _HOMES:
        value = getattr(import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'cerebrus' has no attribute {name!r}")
    globals()[name] = value  # looked up once
    return value


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
