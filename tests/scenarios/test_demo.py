"""`smith demo` as a newcomer runs it: no Slack tokens, a fresh directory, the whole loop, and again
(a fresh database each time). How long it takes is the benches' business, not this test's."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

SMITH = Path(sys.executable).with_name("smith")


def run_demo(cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SLACK_", "SMITH_", "ANTHROPIC_"))
    }
    env |= {"COLUMNS": "200", "NO_COLOR": "1"}  # one post line per line, no colour codes
    return subprocess.run([str(SMITH), "demo"], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def check_output(out: str) -> None:
    # The flagged headlines, as staff would see them in Slack.
    for headline in (
        "BLOCK · unbacked promise",
        "BLOCK · access code to prospect",
        "REPAIR · amount mismatch",
        "HOLD · wrong language",
        "HOLD · unanswered question",
    ):
        assert headline in out, headline
    assert "dry run" in out
    # The simulated acts went through the real inbox and processor and were recorded.
    assert out.count("→ recorded 1 verdict(s)") == 2
    # The sweep wrote fixture drafts; the tally printed one line per property channel.
    assert re.search(r"1 grader fixture draft\(s\) written under smith-demo/fixtures/grader/", out)
    assert re.search(r"1 clara fixture draft\(s\) written under smith-demo/fixtures/clara/", out)
    day = r"\w{3} \d{1,2} \w{3}"
    assert re.search(rf"Lampliter · {day}: 1 graded · 0 pass · 1 below · 1 of 1 reacted", out)
    assert re.search(rf"Oakridge · {day}: 1 graded · 1 pass · 0 below", out)
    assert "6 conversations graded · 5 flagged" in out
    assert re.search(r"Every post as Slack shows it, on one page: \S+/smith-demo/preview\.html", out)


def test_smith_demo_runs_the_whole_loop_twice(tmp_path: Path) -> None:
    outputs = []
    for _ in range(2):
        finished = run_demo(tmp_path)
        assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
        check_output(finished.stdout)
        outputs.append(finished.stdout)

        workdir = tmp_path / "smith-demo"
        page = (workdir / "preview.html").read_text(encoding="utf-8")
        assert "BLOCK · unbacked promise" in page
        assert "Copy Block Kit JSON" in page
        drafts = sorted(
            p.relative_to(workdir / "fixtures").as_posix() for p in (workdir / "fixtures").rglob("*.*")
        )
        # A fresh database each run: the same verdict ids, the same two drafts, no leftovers.
        assert len(drafts) == 2, drafts
        assert drafts[0].startswith("clara/") and drafts[1].startswith("grader/")
        grader = json.loads((workdir / "fixtures" / drafts[1]).read_text())
        assert (grader["expected_level"], grader["machine_grade_at_time"]["level"]) == ("pass", "repair")
        assert (workdir / "demo.db").is_file() and any((workdir / "posts").iterdir())

    assert _without_timings(outputs[0]) == _without_timings(outputs[1])


def _without_timings(out: str) -> list[str]:
    """The two runs print the same lines; the channels' posts may interleave in another order, and
    Slack timestamps differ."""
    return sorted(re.sub(r"\d+\.\d{6}", "<ts>", out).splitlines())


def test_smith_demo_honours_the_rules_file_and_the_conversation_link(tmp_path: Path) -> None:
    # Issue 13: the demo reads SMITH_RULES_FILE and SMITH_CONVERSATION_URL_TEMPLATE as `serve` does.
    rules = tmp_path / "rules.yaml"
    rules.write_text("thresholds:\n  followup_sla: 30d\n", encoding="utf-8")  # a 2-day silence is fine
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SLACK_", "SMITH_", "ANTHROPIC_"))
    }
    env |= {
        "COLUMNS": "200",
        "NO_COLOR": "1",
        "SMITH_RULES_FILE": str(rules),
        "SMITH_CONVERSATION_URL_TEMPLATE": "https://clara.example/c/{conversation_id}",
    }
    finished = subprocess.run(
        [str(SMITH), "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    assert "HOLD · unanswered question" not in finished.stdout
    assert "6 conversations graded · 4 flagged" in finished.stdout
    assert "Open the conversation (https://clara.example/c/c0a80101-lampliter-0001)" in finished.stdout


def test_make_clean_removes_everything_the_demo_writes(tmp_path: Path) -> None:
    before = set(tmp_path.iterdir())
    finished = run_demo(tmp_path)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert set(tmp_path.iterdir()) != before  # the demo wrote its database and payloads
    makefile = Path(__file__).resolve().parents[2] / "Makefile"
    cleaned = subprocess.run(
        ["make", "-f", str(makefile), "clean"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert cleaned.returncode == 0, cleaned.stderr
    assert set(tmp_path.iterdir()) == before
