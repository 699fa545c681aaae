"""Building, serializing, naming and loading fixture files (`smith.fixture/v1`, docs/fixtures.md).

The sweep builds a fixture from an anonymized document and the verdict, serializes it to stable
bytes (so its content hash means something), scans those bytes for leaks, and writes them under
`<SMITH_FIXTURES_DIR>/<kind>/`. Engineers read `ours` failures as one ticket per root cause
(`smith.tickets`), not one file per act.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import JsonValue, ValidationError

from gradecore.errors import SmithError
from gradecore.vocabulary import Level
from smith.sweep.fixture_model import FORMAT_V1, FixtureKind, FixtureV1

__all__ = [
    "FORMAT_V1",
    "FixtureFile",
    "FixtureFormatError",
    "FixtureKind",
    "build_fixture",
    "fixture_bytes",
    "fixture_file",
    "fixture_hash",
    "fixture_relpath",
    "item_stem",
    "load_fixture",
]

_UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]")
# An id is written as it is only when that cannot be mistaken for another pair: safe characters, no
# "--" (the separator), no dash at either end, short, and not the word standing for "no turn".
_PLAIN_ID = re.compile(r"[A-Za-z0-9._](?:[A-Za-z0-9._]|-(?!-))*(?<!-)")
PLAIN_ID_MAX = 64
READABLE_PREFIX = 40
NO_TURN = "conversation"


class FixtureFormatError(SmithError, ValueError):
    """A fixture that is not a valid `smith.fixture/v1` document; the message names file and field."""


def build_fixture(
    kind: FixtureKind,
    anonymized_document: dict[str, Any],
    expected_level: str,
    reason: str | None,
    machine_grade_at_time: dict[str, JsonValue],
    grader_user_id: int,
    principles: list[str],
    verdict_id: int,
    created_at: datetime,
    *,
    turn_id: str | None = None,
) -> dict[str, Any]:
    """A validated fixture as plain JSON data.

    Every argument must already be anonymized (use `AnonymizedConversation.scrub_text`/`scrub_json`
    on the reason and the machine grade). A naive `created_at` is taken as UTC (SQLite drops zones).
    """
    if expected_level not in {level.value for level in Level}:
        raise FixtureFormatError(
            f"cannot build fixture for verdict {verdict_id}: expected_level {expected_level!r} is not a level"
        )
    when = created_at if created_at.tzinfo is not None else created_at.replace(tzinfo=UTC)
    try:
        model = FixtureV1(
            format=FORMAT_V1,
            kind=kind,
            verdict_id=verdict_id,
            created_at=when,
            conversation_id=str(anonymized_document.get("conversation_id", "")),
            turn_id=turn_id,
            expected_level=Level(expected_level),
            reason=reason,
            machine_grade_at_time=machine_grade_at_time,
            grader_user_id=grader_user_id,
            principles=list(principles),
            input=anonymized_document,
        )
    except ValidationError as exc:
        raise FixtureFormatError(
            f"cannot build fixture for verdict {verdict_id}: {_first_error(exc)}"
        ) from None
    return model.model_dump(mode="json")


def fixture_bytes(fixture: dict[str, Any]) -> bytes:
    """Stable serialization: sorted keys, indent 2, UTF-8 (accents kept, so the leak scan sees them)."""
    return (json.dumps(fixture, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def fixture_hash(fixture: dict[str, Any]) -> str:
    """The sha256 hex digest of `fixture_bytes` (the Fixture ledger's content hash)."""
    return hashlib.sha256(fixture_bytes(fixture)).hexdigest()


def fixture_relpath(fixture: dict[str, Any]) -> PurePosixPath:
    """`<kind>/<item stem>--v<verdict_id>.json`; see `item_stem` for the stem."""
    item = item_stem(str(fixture["conversation_id"]), fixture.get("turn_id"))
    stem = f"{item}--v{int(fixture['verdict_id'])}"
    return PurePosixPath(str(fixture["kind"]), f"{stem}.json")


def item_stem(conversation_id: str, turn_id: str | None) -> str:
    """A bounded, stable file-name stem that no other (conversation, turn) pair shares.

    Short ids of safe characters are kept as they are (`conv-1--t1`, `conv-1--conversation` for the
    whole conversation). Any other pair gets readable truncated prefixes and a hash of the exact pair
    after a `+`, a character plain stems never hold: `col…--turn…+3f9a…`.
    """
    if _is_plain(conversation_id) and turn_id is not None and turn_id != NO_TURN and _is_plain(turn_id):
        return f"{conversation_id}--{turn_id}"
    if turn_id is None and _is_plain(conversation_id):
        return f"{conversation_id}--{NO_TURN}"
    exact = json.dumps([conversation_id, turn_id], ensure_ascii=False).encode("utf-8")
    digest = hashlib.sha256(exact).hexdigest()[:16]
    turn_part = NO_TURN if turn_id is None else _readable(turn_id)
    return f"{_readable(conversation_id)}--{turn_part}+{digest}"


def _is_plain(part: str) -> bool:
    return len(part) <= PLAIN_ID_MAX and _PLAIN_ID.fullmatch(part) is not None


def _readable(part: str) -> str:
    # Only a hint for a person reading the directory; the hash carries the identity.
    return _UNSAFE_IN_FILE_NAME.sub("_", part)[:READABLE_PREFIX] or "_"


@dataclass(frozen=True, slots=True)
class FixtureFile:
    """Exactly what the sweep writes: scan `payload` for leaks, then write it at `relpath`."""

    relpath: PurePosixPath
    payload: bytes
    content_hash: str  # sha256 of the payload (the Fixture ledger's content hash)


def fixture_file(fixture: dict[str, Any]) -> FixtureFile:
    """The file for a fixture: its stable JSON, whatever its kind."""
    payload = fixture_bytes(fixture)
    return FixtureFile(fixture_relpath(fixture), payload, hashlib.sha256(payload).hexdigest())


def load_fixture(path: Path | str) -> dict[str, Any]:
    """Read and validate a fixture JSON file; FixtureFormatError names the file and the bad field."""
    where = Path(path)
    try:
        data = json.loads(where.read_bytes())
    except OSError as exc:
        raise FixtureFormatError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise FixtureFormatError(f"{where}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FixtureFormatError(f"{where}: a fixture must be a JSON object")
    declared = data.get("format")
    if declared != FORMAT_V1:
        raise FixtureFormatError(
            f"{where}: format is {declared!r}; this version of Smith reads {FORMAT_V1!r}"
        )
    try:
        return FixtureV1.model_validate(data).model_dump(mode="json")
    except ValidationError as exc:
        raise FixtureFormatError(f"{where}: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    location = ".".join(str(part) for part in first["loc"]) or "$"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{location}: {first['msg']}{more}"
