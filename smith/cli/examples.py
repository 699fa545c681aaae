"""One example per command, shown at the foot of its `--help`. Kept in one table so that a command
added without an example is noticed (tests/smith/cli/test_cli_finish.py walks the whole tree)."""

from __future__ import annotations

import typer

EXAMPLES: dict[str, str] = {
    "serve": "SMITH_DATABASE_URL=postgres://smith@db/smith smith serve",
    "demo": "smith demo --workdir /tmp/smith-demo",
    "ingest": "smith ingest exports/2026-11/ late.jsonl",
    "grade": "smith grade exports/ --json | jq -c .headline",
    "preview": "smith preview exports/ --out preview.html --open",
    "outbox": "smith outbox --status failed",
    "manifest": "smith manifest --url https://smith.example.com > manifest.json",
    "tally": "smith tally --since 7d --property camellia",
    "digest": "smith digest --json > digest.json",
    "home": "smith home --user maria.lopez@camellia.example",
    "sweep": "smith sweep",
    "tickets": "smith tickets --since 30d",
    "regrade": "smith regrade --since 2026-11-01 --dry-run",
    "agreement": "smith agreement --since 30d --by check",
    "schema": "smith schema > conversation.schema.json",
    "db upgrade": "smith db upgrade",
    "db current": "smith db current",
    "users add": 'smith users add maria.lopez@camellia.example --name "María López"',
    "users import": "smith users import staff.csv",
    "users list": "smith users list --json",
    "users link": "smith users link U0123ABCD maria.lopez@camellia.example",
    "properties set": "smith properties set camellia --channel C0123ABCD --locale es",
    "properties list": "smith properties list",
    "fixtures check": "smith fixtures check",
    "fixtures refused": "smith fixtures refused --json",
    "rules disagreements": "smith rules disagreements --since 30d",
    "rules suggest": "smith rules suggest --since 30d",
    "rules try": "smith rules try proposed-rules.toml --since 30d",
}


def attach_examples(app: typer.Typer, prefix: str = "") -> None:
    """Sets each registered command's epilog to its example (`Example: smith …`)."""
    for info in app.registered_commands:
        name = info.name or (info.callback.__name__ if info.callback else "")
        example = EXAMPLES.get(f"{prefix}{name}")
        if example is not None:
            info.epilog = f"Example: {example}"
    for group in app.registered_groups:
        if group.typer_instance is not None and group.name:
            attach_examples(group.typer_instance, f"{prefix}{group.name} ")
