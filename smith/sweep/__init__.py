"""The pure parts of the nightly D8 sweep (docs/jobs.md): anonymize, scan for leaks, build fixtures.

The sweep job reads verdicts and writes files; everything here is pure and deterministic.
"""

from smith.sweep.anonymize import AnonymizationError, AnonymizedConversation, UnknownTurn, anonymize
from smith.sweep.fixture_format import (
    FORMAT_V1,
    FixtureFile,
    FixtureFormatError,
    FixtureKind,
    build_fixture,
    fixture_bytes,
    fixture_file,
    fixture_hash,
    fixture_relpath,
    load_fixture,
)
from smith.sweep.leaks import Leak, LeakKind, LeakWatchlist, describe_leaks, find_leaks

__all__ = [
    "FORMAT_V1",
    "AnonymizationError",
    "AnonymizedConversation",
    "FixtureFile",
    "FixtureFormatError",
    "FixtureKind",
    "Leak",
    "LeakKind",
    "LeakWatchlist",
    "UnknownTurn",
    "anonymize",
    "build_fixture",
    "describe_leaks",
    "find_leaks",
    "fixture_bytes",
    "fixture_file",
    "fixture_hash",
    "fixture_relpath",
    "load_fixture",
]
