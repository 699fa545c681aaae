"""Issue 22, point 5: a rules file cannot stall ingest. A pattern past a documented size, too many
patterns, or a file nested too deeply is refused with one line (and, from the command line, a
non-zero exit), never a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cerebrus.phrase_syntax import MAX_ELEMENTS, MAX_GAPS, MAX_PATTERN_CHARS, MAX_REACH
from cerebrus.rules import MAX_NESTING, RulesError, load_rules
from cerebrus.text_rules import MAX_PATTERNS
from tests.smith.cli.in_process import run_in_process

DEMO = Path(__file__).resolve().parents[2] / "smith" / "demo_data" / "lampliter-unbacked-promise.json"


def _narration(*patterns: str) -> str:
    return "".join(
        f'[[narration]]\nid = "narration.issue22_{index}"\npattern = "{pattern}"\n\n'
        for index, pattern in enumerate(patterns)
    )


def _refusal(tmp_path: Path, text: str, name: str = "rules.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(RulesError) as refused:
        load_rules(path)
    assert time.monotonic() - started < 60  # refused, not matched: no machine is this slow at it
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"rules file {path}")
    return message


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        ("alpha " + " ".join(f"[0-1] w{i}" for i in range(400)), "at most"),  # the 400 gaps
        ("alpha " + " ".join(f"[0-1] w{i}" for i in range(MAX_GAPS + 1)), "gaps"),
        (" ".join(f"w{i}" for i in range(MAX_ELEMENTS + 1)), "elements"),
        # 25 elements, 6 gaps, but one match could cover 6×8 + 19 = 67 tokens
        ("alpha " + " ".join(f"[0-8] w{i} x{i} y{i}" for i in range(MAX_GAPS)), "cover"),
        ("w" * (MAX_PATTERN_CHARS + 1), "characters"),
    ],
)
def test_a_pattern_past_a_documented_size_is_refused_in_one_line(
    tmp_path: Path, pattern: str, said: str
) -> None:
    assert MAX_REACH < 6 * 8 + 19 and 1 + 4 * MAX_GAPS <= MAX_ELEMENTS
    message = _refusal(tmp_path, _narration(pattern))
    assert said in message


def test_a_pattern_within_the_bounds_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(_narration("alpha " + " ".join(f"[0-2] w{i}" for i in range(MAX_GAPS))), encoding="utf-8")
    load_rules(path)


def test_too_many_patterns_are_refused(tmp_path: Path) -> None:
    message = _refusal(tmp_path, _narration(*(f"unusual phrase number{i}" for i in range(MAX_PATTERNS + 1))))
    assert f"at most {MAX_PATTERNS}" in message


@pytest.mark.parametrize("name", ["rules.toml", "rules.yaml"])
def test_a_file_nested_fifty_thousand_deep_is_one_line(tmp_path: Path, name: str) -> None:
    deep = 50_000
    text = f"x = {'[' * deep}{']' * deep}\n" if name.endswith(".toml") else "x: " + "[" * deep + "]" * deep
    assert "nested more than" in _refusal(tmp_path, text, name)


def test_a_file_nested_a_little_too_deep_is_refused_too(tmp_path: Path) -> None:
    depth = MAX_NESTING + 1
    message = _refusal(tmp_path, f"x = {'[' * depth}{']' * depth}\n")
    assert f"nested more than {MAX_NESTING}" in message


def test_the_command_line_says_it_in_one_line_and_exits_non_zero(tmp_path: Path) -> None:
    rules = tmp_path / "deep.toml"
    rules.write_text(f"x = {'[' * 50_000}{']' * 50_000}\n", encoding="utf-8")
    result = run_in_process(tmp_path, "grade", str(DEMO), env={"SMITH_RULES_FILE": str(rules)})
    assert "nested more than" in result.one_error_line()
