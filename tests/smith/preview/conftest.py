"""Lets a fixture know, at teardown, whether its test failed (pytest does not raise into fixtures): the
browser test keeps a screenshot of a failing page."""

from __future__ import annotations

from collections.abc import Generator

import pytest

FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report
