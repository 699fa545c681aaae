"""Benchmark: ingest throughput on PostgreSQL beside validation-only throughput, in one run.

Over the same generated conversations (bench/grade_corpus.py, 1-5 turns each, spread over 20
properties that have a channel, posts on) it times, one after the other:
- validation alone: `parse_conversation` over the JSON bytes, in this process;
- HTTP ingest: `POST /v1/conversations` to a Smith server (`app.build` + `make_web_app`, as `smith
  serve` wires them, without the relay) in a subprocess on 127.0.0.1, at concurrency 1, 8 and 32;
- CLI ingest: one `smith ingest FILE.jsonl` process over a JSONL file (its start-up, timed with a
  one-document file, is shown and taken out).
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
from dataclasses import dataclass
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
    from gradecore.db import create_db_engine, upgrade
    from gradecore.store import Store

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


def _validation(documents: list[bytes], repeat: int = 3) -> Phase:
    from gradecore.contract import parse_conversation

    for document in documents[:WARMUP]:
        parse_conversation(document)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for document in documents:
            parse_conversation(document)
        best = min(best, time.perf_counter() - started)
    return Phase("validation only", len(documents), best)


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

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started, statuses


def _http(url: str, count: int, seed: int) -> list[Phase]:
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
        endpoint = f"http://127.0.0.1:{port}/v1/conversations"
        asyncio.run(_post_all(endpoint, _documents(WARMUP, "warm-http", seed), 8))
        phases = []
        for concurrency in CONCURRENCIES:
            documents = _documents(count, f"http-c{concurrency}", seed + concurrency)
            seconds, statuses = asyncio.run(_post_all(endpoint, documents, concurrency))
            if set(statuses) != {202}:
                raise SystemExit(f"HTTP ingest at concurrency {concurrency} answered {dict(statuses)}")
            phases.append(Phase(f"HTTP, concurrency {concurrency}", count, seconds))
        return phases
    finally:
        server.terminate()
        server.wait(timeout=30)


def _cli_run(url: str, documents: list[bytes], folder: Path, name: str) -> float:
    path = folder / f"{name}.jsonl"
    path.write_bytes(b"\n".join(documents) + b"\n")
    smith = Path(sys.executable).with_name("smith")
    started = time.perf_counter()
    subprocess.run(
        [str(smith), "ingest", str(path)], env=_environment(url), check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - started


def _cli(url: str, count: int, seed: int) -> tuple[Phase, float]:
    with tempfile.TemporaryDirectory() as folder:
        start_up = min(
            _cli_run(url, _documents(1, f"cli-one-{n}", seed), Path(folder), f"one{n}") for n in range(3)
        )
        seconds = _cli_run(url, _documents(count, "cli", seed + 100), Path(folder), "all")
    return Phase("CLI, one process", count, seconds - start_up), start_up


def _stored(url: str) -> tuple[int, int, int]:
    from gradecore.entities import ConversationRecord, MachineGrade, SlackPost

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
    validation = _validation(_documents(count, "validate", 11))
    http = _http(url, count, 11)
    cli, start_up = _cli(url, count, 11)
    conversations, grades, posts = _stored(url)
    print(f"corpus: {count:,} conversations per phase over {PROPERTIES} properties, PostgreSQL, posts on")
    print(f"stored: {conversations:,} conversations, {grades:,} grades, {posts:,} posts queued")
    for phase in (validation, *http, cli):
        each = 1000 / phase.per_second
        print(f"{phase.name:<24} {phase.per_second:>9,.0f} conversations/s  ({each:.2f} ms each)")
    print(f"(CLI start-up {start_up:.2f} s, measured with a one-document file, taken out above)")
    for phase in http:
        ratio = phase.per_second / validation.per_second
        verdict = "ok" if ratio >= GOAL_VS_VALIDATION else "BELOW GOAL"
        print(f"{phase.name} / validation only: {ratio:6.3f}  (goal >= {GOAL_VS_VALIDATION})  {verdict}")
    eight = next(phase for phase in http if phase.name.endswith(" 8"))
    ratio = eight.per_second / cli.per_second
    verdict = "ok" if ratio >= GOAL_VS_CLI else "BELOW GOAL"
    print(f"HTTP, concurrency 8 / CLI: {ratio:6.2f}  (goal >= {GOAL_VS_CLI})  {verdict}")


if __name__ == "__main__":
    main()
