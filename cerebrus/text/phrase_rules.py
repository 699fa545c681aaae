"""The text checks' rules as data (phrase patterns with stable ids, promises, slot vocabularies) and
their compiled form, built once per rules object and shared by every draft graded under it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cerebrus.text.exclusions import Exclusion
from cerebrus.text.language_codes import LanguageCode
from cerebrus.text.phrase_syntax import compile_phrase
from cerebrus.text.phrases import PatternError, Phrase, PhraseSet

MAX_PATTERNS = 1000  # in all the text checks together (docs/text-matching.md, "Bounds")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PhrasePattern(_Frozen):
    """One phrase pattern; its id is what a receipt names when it fires."""

    id: str = Field(min_length=1)
    pattern: str = Field(min_length=1)
    # ISO 639-1 code of the texts it applies to; None: every language.
    language: LanguageCode | None = None
    enabled: bool = True
    # Promises only: the pattern counts only when the turn's intent is one of maintenance_intents.
    maintenance_only: bool = False


class PromiseRule(_Frozen):
    """A promise the draft may make, and what must be on file for it to be honest."""

    id: str = Field(min_length=1)
    patterns: tuple[PhrasePattern, ...]
    requires_fact: str | None = None
    requires_tool: str | None = None
    enabled: bool = True

    @model_validator(mode="after")
    def _one_precondition(self) -> PromiseRule:
        if (self.requires_fact is None) == (self.requires_tool is None):
            raise ValueError(f"promise {self.id!r} needs exactly one of requires_fact or requires_tool")
        _unique(pattern.id for pattern in self.patterns)
        return self


def _unique(ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for pattern_id in ids:
        if pattern_id in seen:
            raise ValueError(f"pattern id {pattern_id!r} is used twice")
        seen.add(pattern_id)


class RulePatternError(PatternError):
    """A malformed pattern in the rules: names the pattern id and the problem, in one line."""

    def __init__(self, pattern_id: str, problem: str) -> None:
        super().__init__(f"pattern {pattern_id}: {problem}")
        self.pattern_id = pattern_id


class PromiseEntry(NamedTuple):
    """A promise pattern as the promise check reads it at each match: plain values (no model attribute
    reads per match), and the receipt's detail for a backed and an unbacked match, written once."""

    pattern_id: str
    language: str | None
    requires_fact: str | None
    requires_tool: str | None
    backed_detail: str
    unbacked_detail: str

    @classmethod
    def of(cls, promise: PromiseRule, pattern: PhrasePattern) -> PromiseEntry:
        if promise.requires_fact is not None:
            missing = f"no {promise.requires_fact} on file"
        else:
            missing = f"no successful {promise.requires_tool} call in this turn or before"
        backed = f"promise {promise.id}"
        return cls(
            pattern.id,
            pattern.language,
            promise.requires_fact,
            promise.requires_tool,
            backed,
            f"{backed}: {missing}",
        )


class CompiledText:
    """The text checks' patterns, compiled once: narration, promises and interrogatives."""

    def __init__(
        self,
        slots: Mapping[str, Sequence[str]],
        narration: Sequence[PhrasePattern],
        promises: Sequence[PromiseRule],
        interrogatives: Sequence[PhrasePattern],
        maintenance_intents: Iterable[str],
        exclusions: Sequence[Exclusion] = (),
    ) -> None:
        every = [*narration, *interrogatives, *(q for r in promises for q in r.patterns)]
        if len(every) > MAX_PATTERNS:
            # Each pattern costs a set look-up per draft, and one occurrence of its key a try.
            raise PatternError(f"{len(every)} patterns in the rules; at most {MAX_PATTERNS}")
        _unique([*(p.id for p in every), *(exclusion.id for exclusion in exclusions)])
        self.narration: PhraseSet[PhrasePattern] = PhraseSet(_compiled(narration, slots))
        compiled_exclusions = _compiled(exclusions, slots)
        # What takes a match back (cerebrus.text.exclusions), per check: scanned only when that check matched.
        self.narration_exclusions: PhraseSet[Exclusion] = PhraseSet(
            (p, e) for p, e in compiled_exclusions if e.applies_to == "narration"
        )
        self.promise_exclusions: PhraseSet[Exclusion] = PhraseSet(
            (p, e) for p, e in compiled_exclusions if e.applies_to == "promises"
        )
        self.interrogatives: PhraseSet[PhrasePattern] = PhraseSet(_compiled(interrogatives, slots))
        compiled = [
            (phrase, pattern.maintenance_only, PromiseEntry.of(promise, pattern))
            for promise in promises
            if promise.enabled
            for phrase, pattern in _compiled(promise.patterns, slots)
        ]
        # Two sets, so a turn outside the maintenance intents never even tries their patterns.
        self.promises: PhraseSet[PromiseEntry] = PhraseSet((p, e) for p, only, e in compiled if not only)
        self.maintenance_promises: PhraseSet[PromiseEntry] = PhraseSet(
            (p, e) for p, only, e in compiled if only
        )
        self.maintenance_intents = frozenset(maintenance_intents)


P = TypeVar("P", PhrasePattern, Exclusion)


def _compiled(patterns: Sequence[P], slots: Mapping[str, Sequence[str]]) -> list[tuple[Phrase, P]]:
    compiled: list[tuple[Phrase, P]] = []
    for pattern in patterns:
        # A disabled pattern is still compiled: a typo in it should not wait until it is enabled.
        try:
            phrase = compile_phrase(pattern.pattern, slots)
        except PatternError as exc:
            raise RulePatternError(pattern.id, str(exc)) from None
        if pattern.enabled:
            compiled.append((phrase, pattern))
    return compiled


def applies(pattern: PhrasePattern, language: str | None) -> bool:
    """A language-specific pattern applies to a text in its language, or of unknown language."""
    return language_applies(pattern.language, language)


def language_applies(pattern_language: str | None, language: str | None) -> bool:
    """`applies`, given the pattern's language."""
    return pattern_language is None or language is None or pattern_language == language
