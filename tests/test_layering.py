"""The layers import in one direction only (docs/architecture.md):

    smith_cli (the `smith` console script) → app → {scheduler, handlers} → smith → {blocks, cerebrus}
    → gradecore

A module may import from the layers below its own, never from its own sibling or above. Every import
counts: at the top of a module, inside a function (a "lazy" import), under `if TYPE_CHECKING:`, and
`importlib.import_module("…")` with a literal name. When a lower layer needs something above it, the
thing is in the wrong room: move it down rather than import up.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What each layer may import, besides itself (the standard library and third parties are not layers).
ALLOWED: dict[str, frozenset[str]] = {
    "smith_cli": frozenset({"app", "scheduler", "handlers", "smith", "blocks", "cerebrus", "gradecore"}),
    "app": frozenset({"scheduler", "handlers", "smith", "blocks", "cerebrus", "gradecore"}),
    "scheduler": frozenset({"smith", "blocks", "cerebrus", "gradecore"}),
    "handlers": frozenset({"smith", "blocks", "cerebrus", "gradecore"}),
    "smith": frozenset({"blocks", "cerebrus", "gradecore"}),
    "blocks": frozenset({"gradecore"}),
    "cerebrus": frozenset({"gradecore"}),
    "gradecore": frozenset(),
}
LAYERS = frozenset(ALLOWED)


@dataclass(frozen=True)
class UpwardImport:
    path: Path
    line: int
    layer: str
    imported: str

    def explain(self, root: Path) -> str:
        below = ALLOWED[self.layer]
        rule = f"may import only {', '.join(sorted(below))}" if below else "may import nothing of the project"
        return (
            f"{self.path.relative_to(root)}:{self.line}: imports {self.imported!r}, but {self.layer} {rule} "
            "(docs/architecture.md)"
        )


def layer_modules(root: Path) -> Iterator[tuple[str, Path]]:
    """Every module of every layer under `root`, with its layer."""
    for layer in sorted(LAYERS):
        module = root / f"{layer}.py"
        if module.is_file():
            yield layer, module
        package = root / layer
        if package.is_dir():
            for path in sorted(package.rglob("*.py")):
                yield layer, path


def _package_of(path: Path, root: Path) -> list[str]:
    """`smith/listening/modal.py` → ["smith", "listening"]: what a relative import starts from."""
    return list(path.relative_to(root).parent.parts)


def imported_names(tree: ast.AST, path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in `tree`, wherever it stands in the module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.lineno, node.module or ""
            else:
                package = _package_of(path, root)
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                yield node.lineno, ".".join([*base, *([node.module] if node.module else [])])
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield node.lineno, first.value


def _is_dynamic_import(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def upward_imports(root: Path) -> list[UpwardImport]:
    found = []
    for layer, path in layer_modules(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in imported_names(tree, path, root):
            target = name.split(".")[0]
            if target in LAYERS and target != layer and target not in ALLOWED[layer]:
                found.append(UpwardImport(path, line, layer, name))
    return found


# --- the project itself ------------------------------------------------------------------------------


def test_every_layer_is_checked() -> None:
    layers = {layer for layer, _ in layer_modules(ROOT)}
    assert layers == LAYERS, f"a layer has no module here: {sorted(LAYERS - layers)}"
    assert len(list(layer_modules(ROOT))) > 200  # the whole tree, not a corner of it


# The rooms of `smith/` (docs/architecture.md, the map of rooms): a module that belongs to one concept
# lives in that concept's package; the root holds only what every room shares.
SMITH_ROOT_MODULES = frozenset(
    {"__init__.py", "settings.py", "wiring.py", "ingest.py", "judging.py", "logs.py", "metrics.py"}
)
SMITH_ROOMS = frozenset(
    {
        "anonymizer",
        "calibration",
        "cli",
        "regression_fixtures",
        "leaks",
        "listening",
        "outbox",
        "preview",
        "reports",
        "sweep",
        "tickets",
        "transports",
        "web",
    }
)


def test_the_root_of_smith_is_a_handful_of_modules_beside_its_rooms() -> None:
    smith = ROOT / "smith"
    assert {path.name for path in smith.glob("*.py")} == SMITH_ROOT_MODULES
    packages = {path.parent.name for path in smith.glob("*/__init__.py")}
    assert packages == SMITH_ROOMS


# gradecore's two rooms: the model is pure, and the grading engine reads only the model. The one crossing
# from the model's side into the ORM is the correction modal's builder (it lists principles and grades).
MODEL_SIDE_CROSSINGS = frozenset({"blocks/correction.py"})


def test_the_model_and_the_engine_do_not_reach_into_persistence() -> None:
    crossings = set()
    for layer, path in layer_modules(ROOT):
        relative = path.relative_to(ROOT).as_posix()
        if layer not in ("cerebrus", "blocks") and not relative.startswith("gradecore/model/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if any(name.startswith("gradecore.persistence") for _, name in imported_names(tree, path, ROOT)):
            crossings.add(relative)
    assert crossings == MODEL_SIDE_CROSSINGS


def test_no_module_imports_upward() -> None:
    broken = upward_imports(ROOT)
    assert not broken, "imports against the direction of the layers:\n" + "\n".join(
        upward.explain(ROOT) for upward in broken
    )


# --- the checker catches what it must ----------------------------------------------------------------


def _write(root: Path, relative: str, source: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small project laid out like this one, importing only downward."""
    _write(
        tmp_path, "app.py", "import scheduler\nfrom handlers import listen\nfrom smith.wiring import build\n"
    )
    _write(tmp_path, "scheduler.py", "from smith import tally\nfrom blocks import texts\n")
    _write(tmp_path, "handlers/__init__.py", "from smith.listening import modal\n")
    _write(tmp_path, "smith/__init__.py", "")
    _write(
        tmp_path,
        "smith/listening/modal.py",
        "from blocks.correction import CALLBACK_ID\nfrom . import events\n",
    )
    _write(
        tmp_path,
        "blocks/texts.py",
        "from gradecore.model.vocabulary import Level\nfrom blocks import locales\n",
    )
    _write(tmp_path, "cerebrus/engine.py", "import gradecore.model.contract\n")
    _write(tmp_path, "gradecore/model/contract.py", "import json\n")
    return tmp_path


def test_a_tree_that_imports_downward_passes(tree: Path) -> None:
    assert upward_imports(tree) == []


@pytest.mark.parametrize(
    ("relative", "source", "line", "imported", "rule"),
    [
        pytest.param(
            "blocks/common.py",
            "import json\nfrom smith import texts\n",
            2,
            "smith",
            "blocks may import only gradecore",
            id="blocks-up-to-smith",
        ),
        pytest.param(
            "smith/cli/run.py",
            "def serve() -> None:\n    import app as wiring\n    wiring.serve()\n",
            2,
            "app",
            "smith may import only blocks, cerebrus, gradecore",
            id="lazy-import-in-a-function",
        ),
        pytest.param(
            "smith/slack_app.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from handlers import Services\n",
            3,
            "handlers",
            "smith may import only",
            id="type-checking-import",
        ),
        pytest.param(
            "handlers/odd.py",
            "import importlib\nloop = importlib.import_module('scheduler')\n",
            2,
            "scheduler",
            "handlers may import only blocks, cerebrus, gradecore, smith",
            id="sibling-by-import-module",
        ),
        pytest.param(
            "cerebrus/judge/lane.py",
            "from blocks.texts import LOCALE\n",
            1,
            "blocks.texts",
            "cerebrus may import only gradecore",
            id="sibling-blocks-from-cerebrus",
        ),
        pytest.param(
            "gradecore/persistence/store/outbox.py",
            "from ....smith.outbox import policy\n",
            1,
            "smith.outbox",
            "gradecore may import nothing of the project",
            id="relative-import-climbing-out",
        ),
    ],
)
def test_an_upward_import_is_named_with_its_file_line_and_rule(
    tree: Path, relative: str, source: str, line: int, imported: str, rule: str
) -> None:
    _write(tree, relative, source)

    (upward,) = upward_imports(tree)

    message = upward.explain(tree)
    assert message.startswith(f"{relative}:{line}: imports {imported!r}, but "), message
    assert rule in message, message
