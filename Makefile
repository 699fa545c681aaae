# Two entry points: `make demo` (the main job) and `make test` (the whole suite); `make help` lists all.
# Each creates the virtualenv it needs, so both work on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PROJECT_CODE := gradecore cerebrus smith blocks handlers app.py scheduler.py smith_cli.py
# What `smith demo` and the default settings write in the working directory.
DEMO_OUTPUT := smith-demo smith.db fixtures_out preview.html

.DEFAULT_GOAL := help
.PHONY: help demo test lint typecheck pytest coverage lock lock-upgrade clean distclean

help: ## List the targets
	@grep -E '^[a-z.-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# The lock files pin every package, with hashes, for every platform (uv's universal resolution):
# requirements/runtime.txt for running Smith, requirements/dev.txt adds the tools and test libraries.
# Installs take the locked set only (--require-hashes), then the project itself without dependencies.
LOCKS := requirements/runtime.txt requirements/dev.txt
RUNTIME_STAMP := $(VENV)/.runtime-installed
# uv writes the lock files; it is pinned and lives in its own virtualenv, apart from what it resolves.
UV_VERSION := 0.13.9
UV := .venv-lock/bin/uv
LOCK_FLAGS := --universal --python-version 3.11 --generate-hashes --custom-compile-command 'make lock'

# An editable install leaves the project's own modules uncompiled; where bytecode is not written
# (PYTHONDONTWRITEBYTECODE, a read-only checkout) every `smith` run would compile them again.
define install_locked
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r $(1)
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/python -m compileall -q $(PROJECT_CODE)
endef

# The whole locked set: what `make test` and development need.
$(STAMP): pyproject.toml $(LOCKS)
	$(call install_locked,requirements/dev.txt)
	touch $(STAMP) $(RUNTIME_STAMP)

# The runtime set only: what `make demo` (and the container) need.
$(RUNTIME_STAMP): pyproject.toml requirements/runtime.txt
	$(call install_locked,requirements/runtime.txt)
	touch $(RUNTIME_STAMP)

$(UV):
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet uv==$(UV_VERSION)

lock: $(UV) ## Rewrite the lock files after a change to pyproject.toml (keeps the pins that still fit)
	$(UV) pip compile --quiet pyproject.toml $(LOCK_FLAGS) -o requirements/runtime.txt
	$(UV) pip compile --quiet pyproject.toml --extra dev $(LOCK_FLAGS) -o requirements/dev.txt

lock-upgrade: $(UV) ## Move every pin in the lock files to the newest release that fits pyproject.toml
	$(UV) pip compile --quiet --upgrade pyproject.toml $(LOCK_FLAGS) -o requirements/runtime.txt
	$(UV) pip compile --quiet --upgrade pyproject.toml --extra dev $(LOCK_FLAGS) -o requirements/dev.txt

demo: $(RUNTIME_STAMP) ## Grade the bundled examples and show the posts (SQLite, dry run, nothing sent)
	$(BIN)/smith demo

lint: $(STAMP) ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP) ## mypy (strict)
	$(BIN)/mypy

# Two pytest-xdist workers per core (at most 8): much of the suite waits (databases, fake Slack servers
# at Slack's pace, subprocesses), so a second worker per core keeps the cores busy; the workers share
# nothing (tests/conftest.py gives each its database). On two cores: 4 min 20 s, against 5 min with one
# worker per core and 14 min 30 s in one process (2026-12-06).
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(8, 2 * (os.cpu_count() or 1)))")

pytest: $(STAMP) ## The test suite, two workers per core (PYTEST_WORKERS=0 for one process)
	$(BIN)/pytest -n $(PYTEST_WORKERS)

coverage: $(STAMP) ## The test suite, measuring which lines of the project it runs
	$(BIN)/pytest -n $(PYTEST_WORKERS) --cov --cov-report=term

test: lint typecheck pytest ## lint, typecheck and the test suite

clean: ## Remove everything the demo and a default run write (database, payloads, fixtures, caches)
	rm -rf $(DEMO_OUTPUT) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage .coverage.*

distclean: clean ## clean, and remove the virtualenv too
	rm -rf $(VENV) .venv-lock
