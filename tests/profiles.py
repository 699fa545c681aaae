"""Hypothesis profiles: `ci` (under CI=true) runs each property's own example count, `dev` (elsewhere)
a fifth of it, at least 20; HYPOTHESIS_PROFILE names one explicitly. Neither has a deadline: a shared
machine's pauses must not fail a property."""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = ("ci", "dev")
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
)
assert PROFILE in PROFILES, f"HYPOTHESIS_PROFILE={PROFILE!r}: use one of {PROFILES}"

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=20)


def examples(ci_count: int) -> int:
    """A property's example count: `ci_count` under the ci profile, a fifth of it (at least 20) under dev."""
    return ci_count if PROFILE == "ci" else max(20, ci_count // 5)
