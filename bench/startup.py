"""Benchmark: how long `smith` takes to start, beside a bare Python and a bare `import typer`, in one run.

Each command runs as a fresh process, as a person or cron runs it; the rounds are interleaved (every
command once, then every command again…), so a busy neighbour slows all of them alike and the ratios
stay meaningful. Prints, per command, min and median wall time, and both as ratios to `python -c pass`
and to `python -c "import typer"` (the floor a typer CLI cannot go under), against the goals:
`--version` and `--help` under 0.3 s, a database command under 0.6 s. It also prints the median CPU
time (user + system) of each process: on a machine whose other work keeps the cores busy, wall time
includes the waits for a core, CPU time does not, so it is the nearer guess of a quiet machine's wall
time.

The listings read through SQLAlchemy Core; `smith agreement` stands for the commands that open the
store (the ORM and its entity classes). `smith ingest` of one document (already stored, so each run
grades it and finds it unchanged) and `smith rules suggest` stand for the commands that grade and
calibrate: with the judge lane off neither imports the Anthropic SDK. The database commands read a
SQLite database in a temporary directory, migrated and holding a few users, properties and queued
posts, created before the timing starts.

    .venv/bin/python -m bench.startup [--rounds 15]

The environment is passed through unchanged (PYTHONDONTWRITEBYTECODE included: with it set, modules
without compiled bytecode are compiled again on every start; `make .venv/.installed` compiles them).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
_PYTHON = sys.executable
_SMITH = str(Path(_PYTHON).with_name("smith"))
_GOALS = {"fast": 0.3, "database": 0.6}
_DOCUMENT = _ROOT / "smith" / "demo_data" / "lampliter-unbacked-promise.json"


@dataclass(frozen=True)
class Command:
    name: str
    argv: list[str]
    goal: str | None  # a key of _GOALS, or None for the references


COMMANDS = [
    Command("python -c pass", [_PYTHON, "-c", "pass"], None),
    Command('python -c "import typer"', [_PYTHON, "-c", "import typer"], None),
    Command("smith --version", [_SMITH, "--version"], "fast"),
    Command("smith --help", [_SMITH, "--help"], "fast"),
    Command("smith users list", [_SMITH, "users", "list"], "database"),
    Command("smith outbox", [_SMITH, "outbox"], "database"),
    Command("smith properties list", [_SMITH, "properties", "list"], "database"),
    # Reads through the store (the ORM and the entity classes), as every command that writes does.
    Command("smith agreement", [_SMITH, "agreement"], "database"),
    # Commands that grade or calibrate: with the judge lane off they must not import its SDK (issue 24).
    Command("smith ingest (1 document)", [_SMITH, "ingest", str(_DOCUMENT)], None),
    Command("smith rules suggest", [_SMITH, "rules", "suggest"], None),
]


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # user + system time of the child process


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> Timing:
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return Timing(seconds, _children_cpu() - cpu_before)


def _prepare(env: dict[str, str], cwd: Path) -> None:
    """A migrated database with a little of everything the listing commands read."""
    steps = [
        ["db", "upgrade"],
        ["properties", "set", "lampliter", "--name", "Lampliter", "--timezone", "America/Chicago"],
        ["users", "add", "maria@example.test", "--name", "María Pérez"],
        ["users", "add", "sam@example.test", "--name", "Sam Lee", "--role", "admin"],
        ["ingest", str(_DOCUMENT)],
    ]
    for step in steps:
        _run([_SMITH, *step], env, cwd)


def _bytecode_note() -> str:
    compiled = any((_ROOT / "__pycache__").glob("smith_cli.*.pyc"))
    writes = "not written" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "written on first import"
    return f"project bytecode: {'compiled' if compiled else 'absent'}, {writes}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=15, help="timed runs of each command")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="smith-startup-") as tmp:
        cwd = Path(tmp)
        env = {
            **os.environ,
            "SMITH_DATABASE_URL": f"sqlite:///{cwd / 'smith.db'}",
            "SMITH_POST_MODE": "dry_run",
        }
        env.pop("SMITH_RULES_FILE", None)
        env.pop("ANTHROPIC_API_KEY", None)  # the judge lane off, as the commands are measured
        _prepare(env, cwd)
        for command in COMMANDS:  # one untimed run each: the page cache is warm for all alike
            _run(command.argv, env, cwd)
        times: dict[str, list[Timing]] = {command.name: [] for command in COMMANDS}
        for _ in range(args.rounds):
            for command in COMMANDS:
                times[command.name].append(_run(command.argv, env, cwd))

    bare = statistics.median(run.wall for run in times[COMMANDS[0].name])
    typer_floor = statistics.median(run.wall for run in times[COMMANDS[1].name])
    print(f"{args.rounds} interleaved rounds · {_bytecode_note()} · load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'command':<28}{'min':>8}{'median':>9}{'× pass':>9}{'× typer':>9}{'CPU':>9}"
        "   goal: wall median · CPU median"
    )
    for command in COMMANDS:
        runs = times[command.name]
        median = statistics.median(run.wall for run in runs)
        cpu = statistics.median(run.cpu for run in runs)
        goal = ""
        if command.goal is not None:
            limit = _GOALS[command.goal]
            goal = f"< {limit:.1f} s: {_verdict(median < limit)} · {_verdict(cpu < limit)}"
        print(
            f"{command.name:<28}{min(run.wall for run in runs):7.3f}s{median:8.3f}s{median / bare:8.1f}×"
            f"{median / typer_floor:8.1f}×{cpu:8.3f}s   {goal}"
        )


def _verdict(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
