"""The judge lane: one Messages API call per turn scoring `tone` and `pacing` (docs/grading.md).

The lane never raises for an API problem. A timeout, 5xx, 429, lost connection or unusable answer
becomes `not_checked` (`judge_error`) for that turn and is counted by cause; grading goes on.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any

from cerebrus.judge.config import JudgeConfig
from cerebrus.judge.prompt import (
    TOOL_NAME,
    score_tool,
    system_blocks,
    tool_choice,
    user_message,
)
from cerebrus.judge.results import not_checked, parse_score, redacted, scored_result
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS
from gradecore.model.access_codes import code_matcher
from gradecore.model.contract import Conversation, Turn
from gradecore.model.grades import JudgeUsage
from gradecore.model.vocabulary import DimensionResult, NotCheckedWhy

if TYPE_CHECKING:
    import anthropic
    from anthropic.types import Message


def _sdk() -> ModuleType:
    """The anthropic SDK, imported on first use: it takes seconds to import, and most commands never judge."""
    return importlib.import_module("anthropic")


logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class JudgeResult:
    """What the lane concluded about one conversation.

    `judged` maps turn id → its tone and pacing results (empty when the lane is off); `failures` counts
    failed calls by cause (`timeout`, `server_error`, `rate_limited`, `connection`, `rejected`,
    `malformed`, `refused`, `unexpected`); `voided` counts scores discarded for want of a receipt.
    """

    judged: dict[str, tuple[DimensionResult, ...]] = field(default_factory=dict)
    usage: dict[str, JudgeUsage] = field(default_factory=dict)
    calls: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    voided: int = 0


@dataclass(frozen=True)
class _TurnOutcome:
    results: tuple[DimensionResult, ...]
    usage: JudgeUsage
    cause: str | None = None
    voided: int = 0


def failure_cause(error: BaseException) -> str:
    """A short, stable name for why a call failed (counted; never shown to property staff)."""
    sdk = _sdk()
    # APITimeoutError is a subclass of APIConnectionError, so it is tested first.
    if isinstance(error, sdk.APITimeoutError):
        return "timeout"
    if isinstance(error, sdk.APIConnectionError):
        return "connection"
    if isinstance(error, sdk.RateLimitError):
        return "rate_limited"
    if isinstance(error, sdk.APIStatusError):
        return "server_error" if error.status_code >= 500 else "rejected"
    if isinstance(error, sdk.APIResponseValidationError):
        return "malformed"
    return "unexpected"


# More tokens than any one Messages API call can use (the largest context windows are around a million
# tokens): a count past this, negative, or not an integer is a broken answer, not a bill.
MAX_TOKENS_PER_CALL = 10_000_000


def _plausible_tokens(count: object) -> bool:
    return isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_TOKENS_PER_CALL


def _tool_input(message: Message) -> dict[str, object] | None:
    for block in message.content:
        if block.type == "tool_use" and block.name == TOOL_NAME:
            return dict(block.input)
    return None


class JudgeLane:
    """Scores Clara's turns with Claude, at most `max_concurrency` calls in flight per lane."""

    def __init__(self, config: JudgeConfig, calibrated: AbstractSet[str] = frozenset()) -> None:
        self.config = config
        self.calibrated = frozenset(calibrated)
        self.calls = 0
        self.failures: Counter[str] = Counter()
        self._semaphore = asyncio.Semaphore(config.max_concurrency)
        self._send_temperature = config.temperature is not None
        self._client: anthropic.AsyncAnthropic | None = None
        if config.enabled:
            self._client = _sdk().AsyncAnthropic(
                api_key=config.api_key,
                base_url=config.base_url,
                timeout=config.timeout_seconds,
                max_retries=config.max_retries,
            )

    @property
    def enabled(self) -> bool:
        return self._client is not None

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def __aenter__(self) -> JudgeLane:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def judge_conversation(
        self, conversation: Conversation, calibrated: AbstractSet[str] | None = None
    ) -> JudgeResult:
        """Judge every turn concurrently (bounded); an empty result when the lane is off."""
        if self._client is None or not conversation.turns:
            return JudgeResult()
        colouring = self.calibrated if calibrated is None else frozenset(calibrated)
        outcomes = await asyncio.gather(
            *(self._judge_turn(conversation, turn, colouring) for turn in conversation.turns)
        )
        causes = Counter(outcome.cause for outcome in outcomes if outcome.cause is not None)
        self.calls += len(outcomes)
        self.failures.update(causes)
        return JudgeResult(
            judged={
                turn.id: outcome.results for turn, outcome in zip(conversation.turns, outcomes, strict=True)
            },
            usage={
                turn.id: outcome.usage for turn, outcome in zip(conversation.turns, outcomes, strict=True)
            },
            calls=len(outcomes),
            failures=dict(causes),
            voided=sum(outcome.voided for outcome in outcomes),
        )

    async def _judge_turn(
        self, conversation: Conversation, turn: Turn, calibrated: frozenset[str]
    ) -> _TurnOutcome:
        try:
            async with self._semaphore:
                message = await self._create(conversation, turn)
        except Exception as error:  # every API failure degrades; cancellation still propagates
            cause = failure_cause(error)
            logger.warning("judge call failed for turn %s: %s (%s)", turn.id, cause, type(error).__name__)
            return self._errored(turn, cause, calibrated, JudgeUsage(calls=1, failures=1))
        usage = self._usage(message)
        tool_input = _tool_input(message)
        if tool_input is None:
            cause = "refused" if message.stop_reason == "refusal" else "malformed"
            return self._errored(turn, cause, calibrated, usage.model_copy(update={"failures": 1}))
        draft = conversation.message(turn.message_id).text
        results: list[DimensionResult] = []
        for check in JUDGED_DIMENSIONS:
            judged = parse_score(tool_input.get(check))
            if judged is None:
                results.append(
                    not_checked(
                        check, NotCheckedWhy.JUDGE_ERROR, turn=turn, calibrated=calibrated, detail="malformed"
                    )
                )
            else:
                results.append(scored_result(check, judged, draft=draft, turn=turn, calibrated=calibrated))
        codes = code_matcher(conversation.property.facts.access_codes)
        results = [redacted(result, codes) for result in results]
        malformed = any(result.not_checked_why is NotCheckedWhy.JUDGE_ERROR for result in results)
        voided = sum(result.not_checked_why is NotCheckedWhy.NO_RECEIPT for result in results)
        if malformed:
            usage = usage.model_copy(update={"failures": 1})
        return _TurnOutcome(tuple(results), usage, "malformed" if malformed else None, voided)

    async def _create(self, conversation: Conversation, turn: Turn) -> Message:
        try:
            return await self._send(conversation, turn, with_temperature=self._send_temperature)
        except _sdk().BadRequestError as error:
            if not (self._send_temperature and "temperature" in str(error.message).lower()):
                raise
        # Newer models and API versions reject sampling parameters outright. That is a contract fact,
        # not a transient fault: resend this one request without it, and never send it again.
        self._send_temperature = False
        logger.warning("the judge model rejected `temperature`; sending requests without it from now on")
        return await self._send(conversation, turn, with_temperature=False)

    async def _send(self, conversation: Conversation, turn: Turn, *, with_temperature: bool) -> Message:
        assert self._client is not None
        # The SDK ≥1 has no `temperature` argument; the API still takes it in the body for models that do.
        extra_body: dict[str, Any] | None = None
        if with_temperature and self.config.temperature is not None:
            extra_body = {"temperature": self.config.temperature}
        return await self._client.messages.create(
            model=self.config.model,
            max_tokens=self.config.max_tokens,
            system=system_blocks(),
            tools=[score_tool()],
            tool_choice=tool_choice(),
            messages=[{"role": "user", "content": user_message(conversation, turn)}],
            extra_body=extra_body,
        )

    def _usage(self, message: Message) -> JudgeUsage:
        usage = message.usage
        counts = (
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_input_tokens or 0,
            usage.cache_creation_input_tokens or 0,
        )
        if not all(_plausible_tokens(count) for count in counts):
            # The answer is still used; only numbers that cannot be true are not recorded as spent.
            logger.warning("the judge API reported implausible token usage; not recorded: %r", counts)
            return JudgeUsage(calls=1)
        cache_read = usage.cache_read_input_tokens or 0
        cache_write = usage.cache_creation_input_tokens or 0
        return JudgeUsage(
            # Cache writes are uncached input (billed at a premium); cache reads are counted apart.
            input_tokens=usage.input_tokens + cache_write,
            output_tokens=usage.output_tokens,
            cache_read_tokens=cache_read,
            cost_usd=self.config.cost_usd(usage.input_tokens, usage.output_tokens, cache_read, cache_write),
            calls=1,
        )

    def _errored(self, turn: Turn, cause: str, calibrated: frozenset[str], usage: JudgeUsage) -> _TurnOutcome:
        results = tuple(
            not_checked(check, NotCheckedWhy.JUDGE_ERROR, turn=turn, calibrated=calibrated, detail=cause)
            for check in JUDGED_DIMENSIONS
        )
        return _TurnOutcome(results, usage, cause)
