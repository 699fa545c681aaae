"""The `smith` command line. Every user mistake is one clear line on stderr and a non-zero exit."""

from __future__ import annotations

import sys

from smith.cli import context
from smith.cli.app import app
from smith.cli.errors import run_guarded

__all__ = ["app", "main"]


def main() -> None:
    context.freeze_heap_once_started()
    sys.exit(run_guarded(app))
