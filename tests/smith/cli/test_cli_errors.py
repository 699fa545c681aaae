"""Only declared user errors are one-line mistakes; any other exception is told as a bug in smith."""

from __future__ import annotations

import pytest
import typer

from gradecore.model.contract import UnknownTimezone
from smith.cli.errors import EX_SOFTWARE, UserError, run_guarded


def _app(raised: BaseException) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def fail() -> None:
        raise raised

    @app.command()
    def other() -> None:  # a second command, so typer keeps `fail` as a subcommand
        pass

    return app


def _run(app: typer.Typer, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.argv", ["smith", "fail"])
    return run_guarded(app)


@pytest.mark.parametrize(
    "raised", [UserError("no such file: x.json"), UnknownTimezone("Mars/Olympus")], ids=["user", "timezone"]
)
def test_a_declared_user_error_is_one_line_and_exit_code_1(
    raised: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(_app(raised), monkeypatch)
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"smith: {raised}\n"


def test_a_value_error_from_a_bug_is_an_internal_error_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(_app(ValueError("invalid literal for int() with base 10: 'x'")), monkeypatch)
    err = capsys.readouterr().err
    assert code == EX_SOFTWARE
    assert "Traceback (most recent call last)" in err
    assert err.rstrip().endswith("smith: internal error: this is a bug in smith, not in how it was called")
