"""The `smith` command line. Every user mistake is one clear line on stderr and a non-zero exit.

The console script is `smith_cli.main`: this tree, plus `serve`, the one command that runs the wired app.
"""

from __future__ import annotations

from smith.cli.commands import commands
from smith.cli.errors import run_guarded

__all__ = ["commands", "run_guarded"]
