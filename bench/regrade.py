"""Benchmark: `smith regrade --dry-run` over a stored archive — time and peak memory, side by side.

Builds (once, cached under bench/.cache/) a SQLite archive of 10,000 realistic conversations
(bench/grade_corpus.py), graded and stored the way ingest stores them, then, each in a fresh child
process, re-grades under a changed rubric (every conversation is really re-graded) with `--dry-run`:
the first 1,000 conversations of the archive and all 10,000. It prints the time per conversation and
the peak of Python's allocations during the regrade (tracemalloc, in a second child of its own, since
tracing slows the run) for both, and their ratios: a regrade that streams costs ~10× the time for
10× the archive and about the same memory.

    .venv/bin/python bench/regrade.py [--conversations 10000] [--rebuild]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

from grade_corpus import build_corpus

from cerebrus import Rules
from gradecore.model.contract import parse_conversation
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.store import Store
from smith.calibration.regrade import regrade
from smith.ingest import Ingestor

CACHE = Path(__file__).resolve().parent / ".cache"
BASE = datetime(2030, 1, 1, tzinfo=UTC)  # settled one second apart from here, so windows pick prefixes


def build(path: Path, conversations: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    engine = create_db_engine(f"sqlite:///{path}")
    upgrade(engine)
    ingestor = Ingestor(Store(engine), post=False)
    documents, _ = build_corpus(turns=conversations * 3)
    for index, raw in enumerate(documents[:conversations]):
        document = json.loads(raw)
        document["settled_at"] = (BASE + timedelta(seconds=index)).isoformat()
        ingestor.ingest(parse_conversation(json.dumps(document).encode()))
        if index % 1000 == 999:
            print(f"  built {index + 1:,} of {conversations:,}", file=sys.stderr)
    engine.dispose()


def child(path: Path, count: int, traced: bool) -> None:
    """Runs in a fresh process: regrade the first `count` conversations; print seconds or peak MB."""
    engine = create_db_engine(f"sqlite:///{path}")
    store = Store(engine)
    changed = Rules.model_validate({"thresholds": {"token_budget": 59_999}})  # a new rubric version
    regrade(store, changed, BASE, BASE + timedelta(seconds=1), dry_run=True)  # warm: models, caches
    if traced:
        tracemalloc.start()
    started = time.perf_counter()
    report = regrade(store, changed, BASE, BASE + timedelta(seconds=count), dry_run=True)
    elapsed = time.perf_counter() - started
    peak_mb = tracemalloc.get_traced_memory()[1] / 2**20 if traced else 0.0
    assert report.regraded == count, report
    print(json.dumps({"seconds": elapsed, "peak_mb": peak_mb}))


def measure(path: Path, count: int) -> dict[str, float]:
    timed, traced = _run_child(path, count, traced=False), _run_child(path, count, traced=True)
    return {"seconds": timed["seconds"], "peak_mb": traced["peak_mb"]}


def _run_child(path: Path, count: int, *, traced: bool) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", str(path), str(count), "traced" if traced else "timed"],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(completed.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("DB", "COUNT", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), int(args.child[1]), args.child[2] == "traced")
        return
    path = CACHE / f"regrade-{args.conversations}.db"
    if args.rebuild or not path.exists():
        print(f"building a {args.conversations:,}-conversation archive at {path} …", file=sys.stderr)
        build(path, args.conversations)
    small = max(1, args.conversations // 10)
    few, all_ = measure(path, small), measure(path, args.conversations)
    for label, count, result in (
        (f"{small:,}", small, few),
        (f"{args.conversations:,}", args.conversations, all_),
    ):
        print(
            f"regrade --dry-run {label:>7} conversations: {result['seconds']:7.2f} s "
            f"({result['seconds'] / count * 1000:.2f} ms each) · peak allocations {result['peak_mb']:.1f} MB"
        )
    print(
        f"ratio (10× the archive): time ×{all_['seconds'] / few['seconds']:.1f} · "
        f"peak memory ×{all_['peak_mb'] / max(few['peak_mb'], 0.01):.2f} (streaming: ≈1; loading it all: ≈10)"
    )


if __name__ == "__main__":
    main()
