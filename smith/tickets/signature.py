"""Root-cause signatures: what makes fifty *ours* failures one bug (docs/tickets.md).

A signature is computed from what the grade already knows — the failing check, its layer and the
specific cause its receipt names — never from the conversation's text, so the same missing secret at
two properties is one signature and two different tools are two. Variable parts of an error (ids,
numbers, timestamps, quoted values, URLs, e-mail addresses, and capitalised words after the first,
which is where a person's name would sit) are stripped before it becomes part of a signature: a
signature is shown in tickets outside Smith, so it must carry no personal data.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

CAUSE_LIMIT = 240

# Order matters: whole structures (URLs, e-mails, quoted values, timestamps, UUIDs) go before the
# generic "anything holding a digit" rule would cut them into pieces.
_VARIABLE_PARTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bhttps?://\S+", re.IGNORECASE), "<url>"),
    (re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"), "<email>"),
    (re.compile(r"\"[^\"]*\"|'[^'\s][^']*'|`[^`]*`|«[^»]*»|“[^”]*”"), "<value>"),
    (
        re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b"),
        "<time>",
    ),
    (re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"), "<time>"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"\b(?=[a-z_-]*\d)[0-9a-z_-]*[0-9a-f]{6,}[0-9a-z_-]*\b"), "<id>"),
    (re.compile(r"\b[\w-]*\d[\w-]*\b"), "<n>"),
)
_SPACES = re.compile(r"\s+")
_REPEATS = re.compile(r"(<\w+>)(?:[\s,;/]*\1)+")


# A capitalised word that does not start the message ("Resident Priya Natarajan not found"); all-caps
# identifiers such as TOUR_SLOTS_API_KEY are names of things, not people, and stay.
_PROPER_NOUN = re.compile(
    r"(?<=[\s(\[,;:])[A-ZÀ-Þ](?:[a-zß-ÿ]+(?:['’-][A-Za-zÀ-ÿ]+)*|['’][A-ZÀ-Þ][A-Za-zß-ÿ'’-]*)\b"
)


def normalise_error(text: str) -> str:
    """An error message with its variable parts replaced, lower-cased and whitespace-collapsed.

    `Timeout after 30s calling https://x/slots?id=8f3a…` and `Timeout after 12s calling https://y`
    both become `timeout after <n> calling <url>`; `Missing secret TOUR_SLOTS_API_KEY` keeps the
    secret's name, which is the cause; `Resident Priya Natarajan not found` becomes
    `resident <name> not found`.
    """
    lowered = _PROPER_NOUN.sub("<name>", text).lower()
    for pattern, placeholder in _VARIABLE_PARTS:
        lowered = pattern.sub(placeholder, lowered)
    collapsed = _REPEATS.sub(r"\1", _SPACES.sub(" ", lowered)).strip(" .:;,-")
    return collapsed[:CAUSE_LIMIT] or "<no message>"


@dataclass(frozen=True, slots=True)
class Signature:
    """One root cause: `key` is readable, `id` is its stable short hash (the tracker's marker)."""

    check: str
    layer: str
    cause: str

    @property
    def key(self) -> str:
        return f"{self.check} · {self.layer} · {self.cause}"

    @property
    def id(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:16]

    @property
    def title(self) -> str:
        return f"{self.check}: {self.cause}"[:200]


def signatures_of(dimensions: Iterable[Mapping[str, Any]]) -> list[Signature]:
    """Every distinct signature among a grade's failing *ours* dimensions, in receipt order."""
    found: dict[str, Signature] = {}
    for dimension in dimensions:
        if dimension.get("outcome") != "fail" or dimension.get("owner") != "ours":
            continue
        for signature in _dimension_signatures(dimension):
            found.setdefault(signature.id, signature)
    return list(found.values())


def _dimension_signatures(dimension: Mapping[str, Any]) -> list[Signature]:
    check, layer = str(dimension.get("check")), str(dimension.get("layer"))
    evidence = [e for e in dimension.get("evidence") or () if isinstance(e, Mapping)]
    causes = [cause for e in evidence if (cause := _cause(check, e)) is not None]
    if not causes:
        # A check whose receipts name no specific cause: its reason is the cause.
        reason = dimension.get("reason")
        slug = reason.get("slug") if isinstance(reason, Mapping) else None
        causes = [str(slug or "failed")]
    return [Signature(check, layer, cause) for cause in dict.fromkeys(causes)]


def _cause(check: str, evidence: Mapping[str, Any]) -> str | None:
    tool, fact, detail = evidence.get("tool_name"), evidence.get("fact_key"), evidence.get("detail")
    if tool:
        return f"tool {tool} → {normalise_error(str(detail or ''))}"
    if fact:
        return f"fact {fact}"
    if check == "not_truncated":
        return f"stop reason {_stop_reason(detail)}"
    if check == "token_budget" and evidence.get("step_index") is not None:
        return f"over budget at step {evidence['step_index']}"
    return None


def _stop_reason(detail: object) -> str:
    text = str(detail or "")
    return text.removeprefix("stop_reason ").strip() or "unknown"
