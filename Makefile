# Two commands on a fresh machine: `make run` (the main job) and `make test`.
#   make run [PORT=8000] [HOST=127.0.0.1]   installs what playing needs (the `server` extra), serves
#   make test                               installs the `dev` extra, runs ruff, mypy and pytest
# Installing is a stamp file per extra in the venv: it reruns only when pyproject.toml changes.
PY ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: install run test lint bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# `dev` holds `server`: after `make test`, `make run` installs nothing more.
$(VENV)/.installed-server: pyproject.toml | $(BIN)/python
	@if [ ! $(VENV)/.installed-dev -nt pyproject.toml ]; then \
		echo "Installing powergrid[server] into $(VENV) (once; again only when pyproject.toml changes)"; \
		$(BIN)/pip install -q -e ".[server]"; \
	fi
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	@echo "Installing powergrid[dev] into $(VENV) (once; again only when pyproject.toml changes)"
	$(BIN)/pip install -q -e ".[dev]"
	@touch $@

install: $(VENV)/.installed-dev

run: $(VENV)/.installed-server
	$(BIN)/powergrid serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy src/powergrid/rules
	$(BIN)/pytest -n 2

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy src/powergrid/rules

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/engine.py
