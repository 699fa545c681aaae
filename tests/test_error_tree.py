"""One error tree (gradecore/errors.py): every exception class of the project derives from `SmithError`,
except the few that mean Smith's own code is wrong, which the command line tells as bugs."""

from __future__ import annotations

import importlib
import pkgutil

from gradecore.errors import EX_CONFIG, SmithError

_LAYERS = ("gradecore", "cerebrus", "blocks", "smith", "handlers")
_MODULES = ("app", "scheduler", "smith_cli")
# A fault in Smith's code, never in what a person did: told with its traceback (exit 70).
_BUGS = {"CheckDeclarationError", "PostLimitError", "AnonymizationError", "UnknownTurn"}


def _project_exceptions() -> set[type[BaseException]]:
    for name in _MODULES:
        importlib.import_module(name)
    for layer in _LAYERS:
        package = importlib.import_module(layer)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{layer}."):
            if ".migrations" not in module.name:
                importlib.import_module(module.name)
    found: set[type[BaseException]] = set()
    pending: list[type[BaseException]] = [Exception]
    while pending:
        for subclass in pending.pop().__subclasses__():
            pending.append(subclass)
            if subclass.__module__.split(".")[0] in (*_LAYERS, *_MODULES):
                found.add(subclass)
    return found


def test_every_error_of_the_project_is_a_smith_error_or_a_declared_bug() -> None:
    outside = {cls.__name__ for cls in _project_exceptions() if not issubclass(cls, SmithError)}
    assert outside == _BUGS


def test_an_error_carries_the_exit_code_the_command_line_ends_with() -> None:
    from smith.cli.output import Interrupted
    from smith.settings import ConfigurationError
    from smith.tickets import TrackerSettingsError

    assert SmithError.exit_code == 1
    assert ConfigurationError.exit_code == TrackerSettingsError.exit_code == EX_CONFIG == 78
    assert Interrupted.exit_code == 130
