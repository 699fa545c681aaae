"""Benchmark: the outbox relay's delivery rate next to Slack's own limit, measured in one run.

Queues N channels × M posts (interleaved, as grading queues them) on a SQLite store in a temporary
directory, then lets the relay (production settings: 1 message per second per channel, global cap,
batches of 100) deliver them through the real AsyncWebClient to the fake Slack Web API server, which
answers 429 to anything faster than one message per second per channel. Prints the achieved
messages/second, the allowed rate (N per second), their ratio (goal: at least 0.9), and checks on
Slack's side that nothing was lost and nothing arrived twice.

    .venv/bin/python -m bench.relay [--channels 8] [--posts 25]
    .venv/bin/python bench/relay.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.entities import SlackPost
from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import PENDING
from smith.outbox import Relay, RelayConfig
from smith.transports.live import LiveTransport, build_post_client

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))  # `python bench/relay.py` puts bench/, not the repo root, on the path

from tests.fakes.slack_api import FakeSlack  # noqa: E402  (needs the repo root on the path first)

GOAL_RATIO = 0.9


@dataclass(frozen=True)
class Outcome:
    posts: int
    seconds: float
    lost: int
    duplicated: int
    rate_limited: int

    def achieved(self) -> float:
        return self.posts / self.seconds


def _queue(store: Store, channels: list[str], per_channel: int) -> list[str]:
    keys: list[str] = []
    with store.unit() as unit:
        for index in range(per_channel):
            for channel in channels:  # round-robin: posts for many properties arrive interleaved
                key = f"bench:{channel}:{index}"
                unit.outbox.add(
                    SlackPost(
                        kind="conversation",
                        idempotency_key=key,
                        channel=channel,
                        payload={
                            "text": f"bench post {index} for {channel}",
                            "blocks": [
                                {"type": "section", "text": {"type": "mrkdwn", "text": f"post {key}"}}
                            ],
                            "metadata": {
                                "event_type": "smith_grade",
                                "event_payload": {"idempotency_key": key},
                            },
                        },
                        status=PENDING,
                    )
                )
                keys.append(key)
    return keys


async def _run(channels: int, per_channel: int, interval: float, workdir: Path) -> Outcome:
    engine = create_db_engine(f"sqlite:///{workdir / 'bench.db'}")
    upgrade(engine)
    store = Store(engine)
    names = [f"C0BENCH{i:02d}" for i in range(channels)]
    keys = _queue(store, names, per_channel)
    async with FakeSlack.running(channels=names, post_window_s=interval) as fake:
        client = build_post_client(fake.bot_token, base_url=fake.api_url)
        relay = Relay(store, LiveTransport(client), RelayConfig(channel_interval=interval))
        started = time.perf_counter()
        await relay.drain(within=per_channel * interval * 4 + 30)
        seconds = time.perf_counter() - started
        found = Counter(
            str(m.metadata["event_payload"]["idempotency_key"])
            for m in fake.posts_by_metadata("idempotency_key")
            if m.metadata is not None
        )
        rate_limited = len(fake.rate_limited)
    engine.dispose()
    lost = sum(1 for key in keys if found[key] == 0)
    duplicated = sum(count - 1 for count in found.values() if count > 1)
    return Outcome(len(keys), seconds, lost, duplicated, rate_limited)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--channels", type=int, default=8, help="channels posted to in parallel")
    parser.add_argument("--posts", type=int, default=25, help="posts per channel")
    parser.add_argument("--interval", type=float, default=1.0, help="Slack's seconds per message per channel")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="smith-bench-relay-") as workdir:
        outcome = asyncio.run(_run(args.channels, args.posts, args.interval, Path(workdir)))

    allowed = args.channels / args.interval
    ratio = outcome.achieved() / allowed
    verdict = "meets" if ratio >= GOAL_RATIO else "BELOW"
    print(
        f"relay: {args.channels} channels × {args.posts} posts = {outcome.posts} posts, "
        f"Slack limit 1 message per {args.interval:g} s per channel"
    )
    # The first message of each channel may go at once, so M posts need only M - 1 intervals.
    ideal = (args.posts - 1) * args.interval
    share = ideal / outcome.seconds
    print(f"  delivered in      {outcome.seconds:8.2f} s   (at best {ideal:.2f} s: {share:.2f} of it)")
    print(f"  achieved          {outcome.achieved():8.2f} messages/s")
    print(f"  allowed           {allowed:8.2f} messages/s")
    print(f"  ratio             {ratio:8.2f}   ({verdict} the goal of {GOAL_RATIO:g})")
    print(f"  lost {outcome.lost} · duplicated {outcome.duplicated} · 429s served {outcome.rate_limited}")
    return 0 if outcome.lost == outcome.duplicated == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
