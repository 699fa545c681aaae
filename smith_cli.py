"""The `smith` console script: the top of the import graph (docs/architecture.md).

It attaches `serve` — the one command that runs the wired application in `app` — to the command tree
of `smith/cli`, and imports `app` only when `serve` runs: every other command, `--help` and
`--version` pay for none of the server's imports (docs/operations.md, command start-up).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from smith.cli import commands, run_guarded
from smith.cli.context import collect_after_startup
from smith.cli.examples import attach_examples


def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (default: SMITH_HOST, else 127.0.0.1)")
    ] = None,
    port: Annotated[
        int | None, typer.Option(min=0, max=65535, help="Port to listen on (default: SMITH_PORT, else 3000)")
    ] = None,
) -> None:
    """Run the HTTP server (ingest, health, Slack events) with the outbox relay."""
    from app import serve_command

    serve_command(host=host, port=port)


def main() -> None:
    commands.command("serve")(serve)
    attach_examples(commands)
    collect_after_startup()
    sys.exit(run_guarded(commands))


if __name__ == "__main__":
    main()
