"""How the judge lane is configured: one immutable value object built by app.py from settings."""

from __future__ import annotations

from dataclasses import dataclass, field

# Anthropic bills prompt-cache reads at a tenth of the input price and cache writes at 1.25×.
_CACHE_READ_FACTOR = 0.1
_CACHE_WRITE_FACTOR = 1.25


@dataclass(frozen=True)
class JudgeConfig:
    """Settings of the judge lane. The lane is off when `api_key` is None (or empty).

    `temperature` is sent on the wire through `extra_body` because anthropic SDK ≥1 dropped it from
    `messages.create()`. Set it to None for models that reject sampling parameters; if the API rejects
    it anyway, the lane stops sending it (see `JudgeLane`).
    """

    api_key: str | None = field(default=None, repr=False)
    # claude-sonnet-4-5 reaches end-of-life on 2026-11-30; 4.6 is the newest Sonnet that still takes
    # a temperature (later models reject sampling parameters).
    model: str = "claude-sonnet-4-6"
    base_url: str | None = None
    timeout_seconds: float = 30.0
    max_concurrency: int = 4
    # We degrade to not_checked instead of retrying: a judge outage must never slow grading down.
    max_retries: int = 0
    max_tokens: int = 1024
    temperature: float | None = 0.0
    price_input_per_mtok: float = 3.0
    price_output_per_mtok: float = 15.0

    def __post_init__(self) -> None:
        if self.max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if self.timeout_seconds <= 0:
            raise ValueError("timeout_seconds must be positive")
        if self.max_retries < 0:
            raise ValueError("max_retries cannot be negative")

    @property
    def enabled(self) -> bool:
        return bool(self.api_key)

    def cost_usd(
        self,
        input_tokens: int,
        output_tokens: int,
        cache_read_tokens: int = 0,
        cache_write_tokens: int = 0,
    ) -> float:
        """An estimate of what one call cost, from the configured per-million-token prices."""
        input_equivalent = (
            input_tokens + cache_read_tokens * _CACHE_READ_FACTOR + cache_write_tokens * _CACHE_WRITE_FACTOR
        )
        total = input_equivalent * self.price_input_per_mtok + output_tokens * self.price_output_per_mtok
        return round(total / 1_000_000, 8)
