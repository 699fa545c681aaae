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
.PHONY: help demo test lint typecheck pytest clean distclean

help: ## List the targets
	@grep -E '^[a-z.]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
# An editable install leaves the project's own modules uncompiled; where bytecode is not written
# (PYTHONDONTWRITEBYTECODE, a read-only checkout) every `smith` run would compile them again.
	$(BIN)/python -m compileall -q $(PROJECT_CODE)
	touch $(STAMP)

demo: $(STAMP) ## Grade the bundled examples and show the posts (SQLite, dry run, nothing sent)
	$(BIN)/smith demo

lint: $(STAMP) ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP) ## mypy (strict)
	$(BIN)/mypy

pytest: $(STAMP) ## The test suite
	$(BIN)/pytest

test: lint typecheck pytest ## lint, typecheck and the test suite

clean: ## Remove everything the demo and a default run write (database, payloads, fixtures, caches)
	rm -rf $(DEMO_OUTPUT) .pytest_cache .mypy_cache .ruff_cache .hypothesis

distclean: clean ## clean, and remove the virtualenv too
	rm -rf $(VENV)
