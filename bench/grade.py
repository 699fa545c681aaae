"""Benchmark: grading throughput next to validation throughput, measured side by side in one run.

Generates a realistic corpus in memory (bench/grade_corpus.py: system prompts of a few KB, drafts of a
few hundred chars, 3 or 5 trace steps per turn, some Spanish, a few messages without a language
field), then times
`parse_conversation` alone and `parse_conversation` + `cerebrus.grade` over the same JSON bytes, and
prints turns/second for both and their ratio (goal: grading keeps at least half the throughput,
i.e. grading costs no more than parsing).

Both sides are timed in the same process over the same bytes, after a warm-up, chunk by chunk in
alternating order, best of several passes each. The default clock is this process's CPU time, so a
neighbour stealing the CPU on a shared machine does not show up on either side (`--clock wall` for
elapsed time).

    .venv/bin/python bench/grade.py [--turns 10000] [--repeat 5] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from grade_corpus import build_corpus

import cerebrus
from cerebrus.text.language import detect
from gradecore.model.contract import parse_conversation

GOAL_RATIO = 0.5


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"cpu": time.process_time, "wall": time.perf_counter}


def _measure(documents: list[bytes], repeat: int, clock: Clock, chunk: int = 50) -> list[tuple[float, float]]:
    """(validation seconds, validation + grading seconds) over the whole corpus, for each pass.

    The two sides are interleaved chunk by chunk, so both see the same machine state (a busy neighbour
    slows both alike instead of skewing the ratio), and they swap order every pass, so neither always
    finds the chunk's bytes freshly touched by the other.
    """
    passes: list[tuple[float, float]] = []
    for number in range(repeat):
        validate = full = 0.0
        for start in range(0, len(documents), chunk):
            part = documents[start : start + chunk]
            for side in (0, 1) if number % 2 == 0 else (1, 0):
                began = clock()
                if side == 0:
                    for document in part:
                        parse_conversation(document)
                    validate += clock() - began
                else:
                    for document in part:
                        cerebrus.grade(parse_conversation(document))
                    full += clock() - began
        passes.append((validate, full))
    return passes


def _warm_up(documents: list[bytes]) -> None:
    """Untimed: first-use costs (compiled rules, caches, the language identifier's models)."""
    for document in documents[:200]:
        cerebrus.grade(parse_conversation(document))
    detect("Warming up the language models before timing anything.", cerebrus.Rules().languages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=10_000, help="turns in the generated corpus")
    parser.add_argument("--repeat", type=int, default=5, help="passes per measurement; the best counts")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time (robust on a shared machine); wall: elapsed time",
    )
    args = parser.parse_args()
    documents, turns = build_corpus(args.turns)
    size = sum(len(d) for d in documents)
    print(f"corpus: {len(documents):,} conversations, {turns:,} turns, {size / 1e6:.1f} MB of JSON")
    _warm_up(documents)
    passes = _measure(documents, args.repeat, CLOCKS[args.clock])
    validate = min(v for v, _ in passes)
    full = min(f for _, f in passes)
    validate_rate, full_rate = turns / validate, turns / full
    ratio = full_rate / validate_rate
    print(f"validation alone:     {validate_rate:>10,.0f} turns/s  ({1e6 / validate_rate:.0f} us/turn)")
    print(f"validation + grading: {full_rate:>10,.0f} turns/s  ({1e6 / full_rate:.0f} us/turn)")
    verdict = "ok" if ratio >= GOAL_RATIO else "BELOW GOAL"
    print(f"ratio:                {ratio:>10.2f}  (goal >= {GOAL_RATIO})  {verdict}")
    per_pass = sorted(v / f for v, f in passes)
    print(
        f"per-pass ratios:      {', '.join(f'{r:.2f}' for r in per_pass)}"
        f"  (median {statistics.median(per_pass):.2f}, {args.clock} clock, best of {args.repeat})"
    )


if __name__ == "__main__":
    main()
