"""The check registry: each deterministic check is one module under cerebrus/checks/ holding one
function named like the module, declared with `@check(...)`.

The decorator does not register anything globally: it turns the function into a `CheckSpec`.
`default_registry()` builds a fresh `CheckRegistry` from the shipped modules, and the engine takes a
registry object, so tests can grade with any set of checks without undoing import side effects.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeGuard, TypeVar, overload

from cerebrus.assemble import LAYER_RANK
from cerebrus.construct import new_dimension, with_receipts
from cerebrus.findings import Finding
from cerebrus.views import ConversationView, TurnView
from gradecore.model.vocabulary import (
    DimensionResult,
    Kind,
    Layer,
    Level,
    NotCheckedWhy,
    Outcome,
    Owner,
    Scope,
    default_owner,
)

V = TypeVar("V", ConversationView, TurnView)


class CheckDeclarationError(ValueError):
    """A check declared inconsistently (bad name, missing docstring, duplicate id)."""


@dataclass(frozen=True)
class CheckSpec(Generic[V]):
    """One check: its identity, the level a failure carries, and the function that decides."""

    id: str
    layer: Layer
    owner: Owner
    scope: Scope
    kind: Kind
    level: Level
    doc: str
    function: Callable[[V], Finding] = field(repr=False)

    # Results without evidence repeat across turns (every "no amount in the draft"). Findings without
    # evidence are shared objects (cerebrus.findings), so each one's DimensionResult is built once and
    # found again by the finding's identity: no hashing of reasons or enums per turn. Every finding
    # keyed here is held in `held` for good (nothing is ever removed), so while its id is a key no
    # other object can have that id: a hit needs no check that it is the same finding, and a finding
    # with receipts (never keyed) cannot hit. Bounded: a reason sentence may vary. The engine reads
    # it directly (see `result`).
    shared: dict[int, DimensionResult] = field(default_factory=dict, compare=False, repr=False)
    held: list[Finding] = field(default_factory=list, compare=False, repr=False)

    # Results with receipts are built per finding; what they share (the check's identity, and the level
    # and why of an outcome) is validated once, in a template per (outcome, why) found by their
    # identities (enum members, never reused). See `construct.with_receipts`.
    templates: dict[tuple[int, int], DimensionResult] = field(default_factory=dict, compare=False, repr=False)

    def run(self, view: V) -> DimensionResult:
        return self.result(self.function(view))

    def result(self, finding: Finding) -> DimensionResult:
        """This check's DimensionResult for one of its findings: the one already built when the
        finding is a shared one (the engine inlines that look-up in its loop)."""
        hit = self.shared.get(id(finding))
        if hit is not None:
            return hit
        if finding.evidence:
            return self.receipted(finding)
        if finding.outcome is Outcome.FAIL:
            raise CheckDeclarationError(f"check {self.id} failed without evidence")
        result = self._result(finding)
        if len(self.shared) < _SHARED_LIMIT:
            self.held.append(finding)
            self.shared[id(finding)] = result
        return result

    def receipted(self, finding: Finding) -> DimensionResult:
        """The result of a finding with receipts (`result` for one, which the engine calls directly):
        its template with the finding's reason and receipts."""
        outcome, why = finding.outcome, finding.why
        if type(outcome) is not Outcome or (why is not None and type(why) is not NotCheckedWhy):
            return self._result(finding)  # not enum members, which live as long as their enum
        key = (id(outcome), id(why))
        template = self.templates.get(key)
        if template is None:
            template = self._result(finding)
            if len(self.templates) < _SHARED_LIMIT:
                self.templates[key] = template
            return template
        result = with_receipts(template, finding.reason, finding.evidence)
        return result if result is not None else self._result(finding)

    def _result(self, finding: Finding) -> DimensionResult:
        # Validated construction (cerebrus.construct): a check's typo cannot slip into a grade.
        return new_dimension(
            {
                "check": self.id,
                "layer": self.layer,
                "owner": self.owner,
                "kind": self.kind,
                "scope": self.scope,
                "outcome": finding.outcome,
                "level": self.level if finding.outcome is Outcome.FAIL else Level.PASS,
                "reason": finding.reason,
                "evidence": finding.evidence,
                "not_checked_why": finding.why,
                "score": None,
                "colours_verdict": True,
            }
        )


_SHARED_LIMIT = 256


ConversationCheck = CheckSpec[ConversationView]
TurnCheck = CheckSpec[TurnView]


@overload
def check(
    *, layer: Layer, scope: Literal[Scope.TURN], level: Level, owner: Owner | None = None
) -> Callable[[Callable[[TurnView], Finding]], TurnCheck]: ...


@overload
def check(
    *, layer: Layer, scope: Literal[Scope.CONVERSATION], level: Level, owner: Owner | None = None
) -> Callable[[Callable[[ConversationView], Finding]], ConversationCheck]: ...


def check(
    *, layer: Layer, scope: Scope, level: Level, owner: Owner | None = None
) -> Callable[[Callable[[V], Finding]], CheckSpec[V]]:
    """Declare a deterministic check; its id is the function's name, its doc the function's docstring."""

    def declare(function: Callable[[V], Finding]) -> CheckSpec[V]:
        doc = (function.__doc__ or "").strip()
        if not doc:
            raise CheckDeclarationError(f"check {function.__name__} has no docstring")
        return CheckSpec(
            id=function.__name__,
            layer=layer,
            owner=owner if owner is not None else default_owner(layer),
            scope=scope,
            kind=Kind.DETERMINISTIC,
            level=level,
            doc=doc,
            function=function,
        )

    return declare


_Split = tuple[tuple[ConversationCheck, ...], tuple[TurnCheck, ...], tuple[str, ...]]
"""Conversation checks, turn checks, and all ids, in registry order."""

TurnStep = tuple[TurnCheck, Callable[[TurnView], Finding], Callable[[int], DimensionResult | None]]
"""A turn check as the engine's hot loop runs it: the spec, its function, and the look-up of its
shared results by finding identity (bound once, not looked up per turn)."""


class CheckRegistry:
    """An ordered set of checks, keyed by id. Owned by whoever built it; never a global."""

    def __init__(self, checks: Iterable[ConversationCheck | TurnCheck] = ()) -> None:
        self._checks: dict[str, ConversationCheck | TurnCheck] = {}
        # The engine asks for these once per conversation; rebuilt only when a check is registered.
        self._split: tuple[tuple[ConversationCheck, ...], tuple[TurnCheck, ...], tuple[str, ...]] | None = (
            None
        )
        self._turn_plan: tuple[TurnStep, ...] | None = None
        for spec in checks:
            self.register(spec)

    def register(self, spec: ConversationCheck | TurnCheck) -> None:
        if spec.id in self._checks:
            raise CheckDeclarationError(f"duplicate check id {spec.id!r}")
        self._checks[spec.id] = spec
        self._split = None
        self._turn_plan = None

    def without(self, *ids: str) -> CheckRegistry:
        """A new registry lacking the named checks."""
        return CheckRegistry(spec for spec in self if spec.id not in ids)

    def __iter__(self) -> Iterator[ConversationCheck | TurnCheck]:
        return iter(self._checks.values())

    def __len__(self) -> int:
        return len(self._checks)

    def __contains__(self, check_id: object) -> bool:
        return check_id in self._checks

    def get(self, check_id: str) -> ConversationCheck | TurnCheck:
        return self._checks[check_id]

    @property
    def ids(self) -> tuple[str, ...]:
        return self._by_scope()[2]

    def conversation_checks(self) -> tuple[ConversationCheck, ...]:
        return self._by_scope()[0]

    def turn_checks(self) -> tuple[TurnCheck, ...]:
        return self._by_scope()[1]

    def turn_plan(self) -> tuple[TurnStep, ...]:
        """The turn checks, in order, as the engine runs them for every turn."""
        if self._turn_plan is None:
            self._turn_plan = tuple((spec, spec.function, spec.shared.get) for spec in self.turn_checks())
        return self._turn_plan

    def _by_scope(self) -> _Split:
        if self._split is None:
            specs = self._checks.values()
            self._split = (
                tuple(s for s in specs if _is_conversation(s)),
                tuple(s for s in specs if _is_turn(s)),
                tuple(self._checks),
            )
        return self._split


def _is_conversation(spec: ConversationCheck | TurnCheck) -> TypeGuard[ConversationCheck]:
    return spec.scope is Scope.CONVERSATION


def _is_turn(spec: ConversationCheck | TurnCheck) -> TypeGuard[TurnCheck]:
    return spec.scope is Scope.TURN


def shipped_checks() -> list[ConversationCheck | TurnCheck]:
    """Every check module under cerebrus/checks/, in module-name order: the attribute named like the
    module must be a CheckSpec (so adding a check is adding one file)."""
    from cerebrus import checks as package

    found: list[ConversationCheck | TurnCheck] = []
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        spec = getattr(module, module_info.name, None)
        if not isinstance(spec, CheckSpec):
            raise CheckDeclarationError(
                f"cerebrus/checks/{module_info.name}.py must declare @check function {module_info.name}"
            )
        found.append(spec)
    # The stated order (conversation scope first, then layer order, then id) so results read the
    # same way the headline tie-break ranks them.
    return sorted(found, key=lambda s: (s.scope is not Scope.CONVERSATION, LAYER_RANK[s.layer], s.id))


def default_registry() -> CheckRegistry:
    """A fresh registry holding every shipped deterministic check."""
    return CheckRegistry(shipped_checks())
