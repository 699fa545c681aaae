"""Issue 24, point 5: with the judge lane off (no ANTHROPIC_API_KEY), commands that grade or calibrate
never import the Anthropic SDK (it took about half of a one-document `smith ingest`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.smith.cli.runner import database_url

ROOT = Path(__file__).resolve().parents[3]
DOCUMENT = ROOT / "smith" / "demo_data" / "lampliter-unbacked-promise.json"
# Runs one command in this process, as the console script does, then says which SDK modules it loaded.
_PROBE = """
import sys
from smith_cli import main
sys.argv = ["smith", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print(sorted({name.split('.')[0] for name in sys.modules if name.split('.')[0] in ('anthropic', 'httpx')}))
"""


def _loaded_sdks(workdir: Path, *args: str, judge_key: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SMITH_", "SLACK_", "ANTHROPIC_"))}
    env.update(SMITH_DATABASE_URL=database_url(workdir), SMITH_POST_MODE="dry_run")
    if judge_key is not None:
        env["ANTHROPIC_API_KEY"] = judge_key
        env["ANTHROPIC_BASE_URL"] = "http://127.0.0.1:9"  # never reached: nothing is judged here
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], cwd=workdir, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode().strip().splitlines()[-1]


@pytest.mark.parametrize(
    "args", [("ingest", str(DOCUMENT)), ("rules", "suggest")], ids=["ingest", "rules-suggest"]
)
def test_the_judge_sdk_is_not_imported_while_the_judge_is_off(workdir: Path, args: tuple[str, ...]) -> None:
    assert _loaded_sdks(workdir, *args) == "[]"


def test_the_probe_sees_the_sdk_when_the_judge_is_on(workdir: Path) -> None:
    # The same probe with the judge lane on loads it: the test above would notice it coming back.
    assert "anthropic" in _loaded_sdks(workdir, "ingest", str(DOCUMENT), judge_key="sk-ant-test")
