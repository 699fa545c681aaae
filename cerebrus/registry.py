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
from cerebrus.findings import Finding
from cerebrus.views import ConversationView, TurnView
from gradecore.model.vocabulary import (
    DimensionResult,
    Kind,
    Layer,
    Level,
    Outcome,
    Owner,
    Reason,
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

    # Findings without receipts repeat from turn to turn ("no amount in the draft"), and their results
    # are all the same: kept by finding (a value), a repeated one costs a hash instead of a validated
    # model. Bounded, since a reason sentence may carry a value (an intent name).
    _plain_results: dict[Finding, DimensionResult] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def run(self, view: V) -> DimensionResult:
        return self.result(self.function(view))

    def result(self, finding: Finding) -> DimensionResult:
        """This check's DimensionResult for one of its findings."""
        if finding.evidence:
            return self._validated(finding)
        if finding.outcome is Outcome.FAIL:
            raise CheckDeclarationError(f"check {self.id} failed without evidence")
        known = self._plain_results.get(finding)
        if known is None:
            known = self._validated(finding)
            if len(self._plain_results) < _PLAIN_RESULTS_KEPT:
                self._plain_results[finding] = known
        return known

    def _validated(self, finding: Finding) -> DimensionResult:
        # Validated: a check's typo cannot slip into a grade.
        return DimensionResult(
            check=self.id,
            layer=self.layer,
            owner=self.owner,
            kind=self.kind,
            scope=self.scope,
            outcome=finding.outcome,
            level=self.level if finding.outcome is Outcome.FAIL else Level.PASS,
            reason=Reason(slug=finding.slug, sentence=finding.sentence),
            evidence=finding.evidence,
            not_checked_why=finding.why,
            score=None,
            colours_verdict=True,
        )


_PLAIN_RESULTS_KEPT = 1024


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


class CheckRegistry:
    """An ordered set of checks, keyed by id. Owned by whoever built it; never a global."""

    def __init__(self, checks: Iterable[ConversationCheck | TurnCheck] = ()) -> None:
        self._checks: dict[str, ConversationCheck | TurnCheck] = {}
        # The engine asks for these once per conversation; rebuilt only when a check is registered.
        self._split: tuple[tuple[ConversationCheck, ...], tuple[TurnCheck, ...], tuple[str, ...]] | None = (
            None
        )
        for spec in checks:
            self.register(spec)

    def register(self, spec: ConversationCheck | TurnCheck) -> None:
        if spec.id in self._checks:
            raise CheckDeclarationError(f"duplicate check id {spec.id!r}")
        self._checks[spec.id] = spec
        self._split = None

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
