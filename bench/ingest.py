"""Benchmark: ingest throughput on PostgreSQL beside validation-only throughput, in one run.

Over the same generated conversations (bench/grade_corpus.py, 1-5 turns each, spread over 20
properties that have a channel, posts on) it times, one after the other:
- validation alone: `parse_conversation` over the JSON bytes, in this process;
- HTTP ingest: `POST /v1/conversations` to a Smith server (`app.build` + `make_web_app`, as `smith
  serve` wires them, without the relay) in a subprocess on 127.0.0.1, at concurrency 1, 8 and 32;
- CLI ingest: one `smith ingest FILE.jsonl` process over a JSONL file, timed from its first stored
  document to its last (start-up left out).
Validation is timed again right before and after each ingest phase, and each phase is set against
the mean of the two, so a busy neighbour on a shared machine weighs on both sides of its ratio.
Each phase ingests new conversations (fresh ids), so every request grades, stores and queues posts.
It prints conversations/second for each and the ratios the goals are stated in: HTTP ingest at least
0.1× validation-only throughput, and HTTP at concurrency 8 at least 2× one CLI process.

    .venv/bin/python bench/ingest.py [--conversations 1000] [--postgres-url URL]

Uses its own database (smith_bench_ingest, dropped and created afresh) on the given server.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from aiohttp import ClientSession, TCPConnector, web
from grade_corpus import build_corpus
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

DATABASE = "smith_bench_ingest"
TOKEN = "bench-ingest-token"
PROPERTIES = 20
CONCURRENCIES = (1, 8, 32)
WARMUP = 64
GOAL_VS_VALIDATION = 0.1
GOAL_VS_CLI = 2.0
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Phase:
    name: str
    conversations: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.conversations / self.seconds


def _documents(count: int, prefix: str, seed: int) -> list[bytes]:
    """`count` corpus conversations with ids unique to `prefix`, spread over the bench properties."""
    raw, _ = build_corpus(count * 6, seed=seed)
    documents = []
    for index, body in enumerate(raw[:count]):
        document = json.loads(body)
        document["conversation_id"] = f"{prefix}-{index}"
        number = index % PROPERTIES
        document["property"] |= {"id": f"bench-{number}", "name": f"Bench {number}"}
        documents.append(json.dumps(document).encode())
    assert len(documents) == count, "the corpus holds fewer conversations than asked"
    return documents


def _fresh_database(server_url: str) -> str:
    """Drop and create the bench database; its URL."""
    admin = create_engine(make_url(server_url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"))
        connection.execute(text(f"CREATE DATABASE {DATABASE}"))
    admin.dispose()
    return make_url(server_url).set(database=DATABASE).render_as_string(hide_password=False)


def _prepare(url: str) -> None:
    from gradecore.persistence.db import create_db_engine, upgrade
    from gradecore.persistence.store import Store

    engine = create_db_engine(url)
    upgrade(engine)
    with Store(engine).unit() as unit:
        for number in range(PROPERTIES):
            unit.properties.set(
                f"bench-{number}",
                name=f"Bench {number}",
                timezone="America/New_York",
                channel_id=f"C0B{number:04d}",
            )
    engine.dispose()


def _validation(documents: list[bytes]) -> Phase:
    """One pass of `parse_conversation` over `documents`, in this process."""
    from gradecore.model.contract import parse_conversation

    started = time.perf_counter()
    for document in documents:
        parse_conversation(document)
    return Phase("validation only", len(documents), time.perf_counter() - started)


def _environment(url: str) -> dict[str, str]:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SMITH_", "SLACK_"))
    }
    environment.pop("ANTHROPIC_API_KEY", None)
    return environment | {
        "SMITH_DATABASE_URL": url,
        "SMITH_INGEST_TOKEN": TOKEN,
        "SMITH_POST_MODE": "dry_run",
        "SMITH_LOG_LEVEL": "WARNING",
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _post_all(url: str, documents: list[bytes], concurrency: int) -> tuple[float, Counter[int]]:
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for document in documents:
        queue.put_nowait(document)
    statuses: Counter[int] = Counter()
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    async with ClientSession(connector=TCPConnector(limit=concurrency)) as session:

        async def worker() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                async with session.post(url, data=body, headers=headers) as response:
                    await response.read()
                statuses[response.status] += 1
                if response.status == 503:  # as the platform does: send it again
                    queue.put_nowait(body)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started, statuses


@contextmanager
def _server(url: str) -> Iterator[str]:
    """A Smith server in a subprocess on 127.0.0.1; its ingest endpoint, once it answers."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port)],
        env=_environment(url),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            raise SystemExit("the bench server did not start")
        yield f"http://127.0.0.1:{port}/v1/conversations"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _http(endpoint: str, documents: list[bytes], concurrency: int) -> Phase:
    seconds, statuses = asyncio.run(_post_all(endpoint, documents, concurrency))
    if set(statuses) - {202, 503}:
        raise SystemExit(f"HTTP ingest at concurrency {concurrency} answered {dict(statuses)}")
    if statuses[503]:
        print(f"(concurrency {concurrency}: {statuses[503]} answers 503, each sent again)")
    return Phase(f"HTTP, concurrency {concurrency}", len(documents), seconds)


def _cli(url: str, documents: list[bytes], folder: Path) -> Phase:
    """One `smith ingest FILE.jsonl` process. It prints a line as it stores each document: timed from
    the first line to the last, its start-up (imports, connecting) stays out of the figure."""
    path = folder / "batch.jsonl"
    path.write_bytes(b"\n".join(documents) + b"\n")
    smith = Path(sys.executable).with_name("smith")
    command = [str(smith), "ingest", str(path)]
    with subprocess.Popen(command, env=_environment(url), stdout=subprocess.PIPE) as process:
        assert process.stdout is not None
        stamps = [time.perf_counter() for _ in process.stdout]
    if process.returncode != 0 or len(stamps) != len(documents):
        raise SystemExit(f"smith ingest failed ({process.returncode}) after {len(stamps)} documents")
    return Phase("CLI, one process", len(documents) - 1, stamps[-1] - stamps[0])


def _stored(url: str) -> tuple[int, int, int]:
    from gradecore.persistence.entities import ConversationRecord, MachineGrade, SlackPost

    engine = create_engine(url)
    with engine.connect() as connection:
        counts = tuple(
            int(connection.execute(select(func.count()).select_from(table)).scalar_one())
            for table in (ConversationRecord.__table__, MachineGrade.__table__, SlackPost.__table__)  # type: ignore[attr-defined]
        )
    engine.dispose()
    return counts  # type: ignore[return-value]


def _serve(port: int) -> None:
    """The server side: Smith's ingest endpoint as `smith serve` wires it, without relay or jobs."""
    import app as smith_app
    from smith.settings import Settings

    smith = smith_app.build(Settings())

    async def run() -> None:
        runner = web.AppRunner(smith_app.make_web_app(smith), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        gc.collect()
        gc.freeze()  # as `smith serve` does once started
        print("ready", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--conversations", type=int, default=1000, help="conversations per phase")
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get(
            "SMITH_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        ),
        help="a PostgreSQL server to create the bench database on",
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        _serve(args.serve)
        return
    url = _fresh_database(args.postgres_url)
    _prepare(url)
    count = args.conversations
    corpus = _documents(count, "validate", 11)
    _validation(corpus[:WARMUP])
    # Validation is timed right before and after each ingest phase, and each phase is set against the
    # mean of the two: a neighbour that slows the machine for a while weighs on both sides of a ratio.
    results: list[tuple[Phase, float]] = []
    with _server(url) as endpoint, tempfile.TemporaryDirectory() as folder:
        _http(endpoint, _documents(WARMUP, "warm-http", 7), 8)
        runs: list[tuple[str, Callable[[list[bytes]], Phase]]] = [
            *((f"http-c{c}", partial(_http, endpoint, concurrency=c)) for c in CONCURRENCIES),
            ("cli", partial(_cli, url, folder=Path(folder))),
        ]
        for seed, (prefix, run) in enumerate(runs, start=20):
            documents = _documents(count, prefix, seed)
            before = _validation(corpus)
            phase = run(documents)
            after = _validation(corpus)
            results.append((phase, (before.per_second + after.per_second) / 2))
    conversations, grades, posts = _stored(url)
    print(f"corpus: {count:,} conversations per phase over {PROPERTIES} properties, PostgreSQL, posts on")
    print(f"stored: {conversations:,} conversations, {grades:,} grades, {posts:,} posts queued")
    for phase, validation in results:
        rate, each = phase.per_second, 1000 / phase.per_second
        print(
            f"{phase.name:<22} {rate:>7,.0f} conversations/s ({each:6.2f} ms each)"
            f"   validation only beside it {validation:>6,.0f}/s   ratio {rate / validation:.3f}"
        )
    for phase, validation in results:
        if phase.name.startswith("HTTP"):
            ratio = phase.per_second / validation
            verdict = "ok" if ratio >= GOAL_VS_VALIDATION else "BELOW GOAL"
            print(f"{phase.name} / validation only: {ratio:6.3f}  (goal >= {GOAL_VS_VALIDATION})  {verdict}")
    by_name = {phase.name: phase for phase, _ in results}
    ratio = by_name["HTTP, concurrency 8"].per_second / by_name["CLI, one process"].per_second
    verdict = "ok" if ratio >= GOAL_VS_CLI else "BELOW GOAL"
    print(f"HTTP, concurrency 8 / CLI: {ratio:6.2f}  (goal >= {GOAL_VS_CLI})  {verdict}")


if __name__ == "__main__":
    main()
