"""The effective rules: code defaults (cerebrus.defaults), optionally overridden by a rules file.

`load_rules(path)` reads TOML or YAML. Mappings merge key by key (the file wins per key, new keys
extend), promises merge by id, everything else replaces. A malformed file raises `RulesError` with one
line naming the file and the problem, so a bad deployment fails at start-up, not mid-grading.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from datetime import timedelta
from functools import cached_property
from typing import Annotated, Any, TypeGuard

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from cerebrus import defaults
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS
from cerebrus.text import default_phrases
from cerebrus.text.exclusions import Exclusion
from cerebrus.text.phrase_rules import CompiledText, PhrasePattern, PromiseRule
from cerebrus.text.phrases import PatternError
from cerebrus.version import ENGINE_VERSION
from gradecore.errors import SmithError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class RulesError(SmithError, ValueError):
    """A rules file that cannot be used; the message is one line naming the file and the problem."""


def _duration(value: object) -> object:
    # Rules files say "4h" or "10m"; plain numbers are seconds; ISO 8601 ("PT4H") passes through.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return timedelta(seconds=value)
    if isinstance(value, str) and (match := _DURATION.match(value)):
        return timedelta(seconds=float(match.group(1)) * _UNIT_SECONDS[match.group(2)])
    return value


Duration = Annotated[timedelta, BeforeValidator(_duration)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Thresholds(_Frozen):
    followup_sla: Duration = timedelta(hours=4)
    escalation_sla: Duration = timedelta(hours=24)
    burst_window: Duration = timedelta(minutes=10)
    max_iterations: int = Field(default=6, ge=1)
    token_budget: int = Field(default=60_000, ge=1)
    # --- reply_language_matches: a detected language below this confidence is "language unclear" ---
    language_confidence: float = Field(default=defaults.LANGUAGE_CONFIDENCE, gt=0, le=1)

    @field_validator("followup_sla", "escalation_sla", "burst_window")
    @classmethod
    def _positive(cls, value: timedelta) -> timedelta:
        if value <= timedelta(0):
            raise ValueError("must be a positive duration")
        return value


class CompiledRules:
    """Patterns built once per Rules object (grading reuses them for every turn)."""

    def __init__(self, rules: Rules) -> None:
        self.text = CompiledText(
            rules.slots,
            rules.narration,
            rules.promises,
            rules.interrogatives,
            rules.maintenance_intents,
            rules.exclusions,
        )


class Rules(_Frozen):
    """Everything a check may be tuned by; its canonical JSON is part of the rubric version."""

    mandated_tools: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: {k: tuple(v) for k, v in defaults.MANDATED_TOOLS.items()}
    )
    required_facts: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: {k: tuple(v) for k, v in defaults.REQUIRED_FACTS.items()}
    )
    promises: tuple[PromiseRule, ...] = Field(
        default_factory=lambda: tuple(PromiseRule.model_validate(p) for p in default_phrases.PROMISES)
    )
    narration: tuple[PhrasePattern, ...] = Field(
        default_factory=lambda: tuple(PhrasePattern.model_validate(p) for p in default_phrases.NARRATION)
    )
    interrogatives: tuple[PhrasePattern, ...] = Field(
        default_factory=lambda: tuple(PhrasePattern.model_validate(p) for p in default_phrases.INTERROGATIVES)
    )
    # What takes a narration or promise match back ("if the app isn't working for you"; an offer).
    exclusions: tuple[Exclusion, ...] = Field(
        default_factory=lambda: tuple(Exclusion.model_validate(e) for e in default_phrases.EXCLUSIONS)
    )
    slots: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: {k: tuple(v) for k, v in default_phrases.SLOTS.items()}
    )
    maintenance_intents: tuple[str, ...] = tuple(default_phrases.MAINTENANCE_INTENTS)
    thresholds: Thresholds = Field(default_factory=Thresholds)
    languages: tuple[str, ...] = Field(default=tuple(defaults.LANGUAGES), min_length=1)
    calibrated_judged: frozenset[str] = frozenset()
    # --- amounts_match_ledger: labels naming a ledger item, by facts.amounts key (replace the labels
    # derived from the key; see cerebrus.amounts.labels) ---
    amount_labels: dict[str, tuple[Annotated[str, Field(min_length=1)], ...]] = Field(default_factory=dict)

    @field_validator("languages")
    @classmethod
    def _known_languages(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        from cerebrus.text.language import supported

        unknown = [code for code in value if not supported(code)]
        if unknown:
            raise ValueError(f"unknown ISO 639-1 language code(s): {', '.join(unknown)}")
        return tuple(dict.fromkeys(code.lower() for code in value))

    @field_validator("calibrated_judged")
    @classmethod
    def _judged_ids(cls, value: frozenset[str]) -> frozenset[str]:
        unknown = sorted(value - set(JUDGED_DIMENSIONS))
        if unknown:
            raise ValueError(f"not judged dimensions: {', '.join(unknown)} (known: tone, pacing)")
        return value

    @model_validator(mode="after")
    def _unique_promises(self) -> Rules:
        ids = [promise.id for promise in self.promises]
        if len(ids) != len(set(ids)):
            raise ValueError("promise ids must be unique")
        return self

    @model_validator(mode="after")
    def _compile_once(self) -> Rules:
        # Compiled here, once: a malformed pattern fails when the rules are loaded, not mid-grading,
        # and the compiled patterns are cached on this object for every draft graded under it.
        self.__dict__["compiled"] = CompiledRules(self)
        return self

    @cached_property
    def compiled(self) -> CompiledRules:
        return CompiledRules(self)

    @cached_property
    def rubric_version(self) -> str:
        """First 12 hex chars of sha256(engine version + canonical JSON of these rules)."""
        body = self.model_dump(mode="json")
        body["calibrated_judged"] = sorted(self.calibrated_judged)
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(f"{ENGINE_VERSION}\n{canonical}".encode()).hexdigest()[:12]


def merge_rules(base: Rules, overrides: dict[str, Any]) -> Rules:
    """Rules with `overrides` (the shape of a rules file) merged over `base`."""
    merged = _merge(base.model_dump(mode="python"), overrides)
    return Rules.model_validate(merged)


def _merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in overrides.items():
        current = result.get(key)
        if (
            _by_id(current)
            and isinstance(value, list)
            and all(isinstance(v, dict) and "id" in v for v in value)
        ):
            # Lists of entries with ids (promises, patterns) merge by id: an entry naming an existing
            # id changes only the keys it gives (`enabled: false` disables), a new id is added.
            by_id = {entry["id"]: entry for entry in current}
            for entry in value:
                known = by_id.get(entry["id"])
                by_id[entry["id"]] = _merge(known, entry) if known is not None else entry
            result[key] = list(by_id.values())
        elif isinstance(value, dict) and isinstance(current, dict):
            result[key] = _merge(current, value)
        else:
            result[key] = value
    return result


def _by_id(current: object) -> TypeGuard[list[dict[str, Any]] | tuple[dict[str, Any], ...]]:
    return isinstance(current, list | tuple) and all(isinstance(e, dict) and "id" in e for e in current)


def _rubric_v1_shape(data: dict[str, Any]) -> str | None:
    """What marks a rules file written for rubric v1, if anything does: its `lexicons` table, or a
    promise whose `patterns` are regular expressions by language (a table, not a list of entries).
    Without this, such a file would stop the start with a schema error that does not say why."""
    if "lexicons" in data:
        return "`lexicons`"
    promises = data.get("promises")
    for promise in promises if isinstance(promises, list) else ():
        if isinstance(promise, dict) and isinstance(promise.get("patterns"), dict):
            return f"promise {promise.get('id', '?')!r} with `patterns` as a table of regular expressions"
    return None


MAX_NESTING = 32  # tables and lists within each other; the rules' own shape needs five


def _depth(data: object) -> int:
    """How deeply tables and lists nest in `data`, walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_NESTING:
                return depth
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


def load_rules(path: str | os.PathLike[str], base: Rules | None = None) -> Rules:
    """The default rules (or `base`) overridden/extended by a TOML or YAML rules file."""
    where = os.fspath(path)
    suffix = os.path.splitext(where)[1].lower()
    try:
        with open(where, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise RulesError(f"rules file {where}: cannot read it ({exc.strerror or exc})") from None
    try:
        if suffix == ".toml":
            data: object = tomllib.loads(raw.decode("utf-8"))
        elif suffix in (".yaml", ".yml"):
            data = yaml.safe_load(raw.decode("utf-8"))
        else:
            raise RulesError(f"rules file {where}: expected a .toml, .yaml or .yml file")
    except (tomllib.TOMLDecodeError, yaml.YAMLError, UnicodeDecodeError) as exc:
        problem = " ".join(str(exc).split())
        raise RulesError(f"rules file {where}: not valid {suffix.lstrip('.').upper()}: {problem}") from None
    except RecursionError:
        raise RulesError(f"rules file {where}: nested more than {MAX_NESTING} levels deep") from None
    if _depth(data) > MAX_NESTING:
        raise RulesError(f"rules file {where}: nested more than {MAX_NESTING} levels deep")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesError(f"rules file {where}: the top level must be a table/mapping")
    written_for_v1 = _rubric_v1_shape(data)
    if written_for_v1 is not None:
        raise RulesError(
            f"rules file {where}: {written_for_v1} is how rubric v1 wrote it; v2 matches phrase patterns "
            "by id (`narration`, `interrogatives`, a promise's `patterns`): rewrite the file as "
            "docs/text-matching.md shows"
        )
    try:
        return merge_rules(base or Rules(), data)
    except PatternError as exc:  # a pattern (its id named), or the rules' bounds
        raise RulesError(f"rules file {where}: {' '.join(str(exc).split())}") from None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        cause = first.get("ctx", {}).get("error")
        if isinstance(cause, PatternError):
            raise RulesError(f"rules file {where}: {' '.join(str(cause).split())}") from None
        location = ".".join(str(part) for part in first["loc"]) or "(top level)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        message = " ".join(first["msg"].split())
        raise RulesError(f"rules file {where}: {location}: {message}{more}") from None
