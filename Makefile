# Two commands on a fresh machine: `make run` (the main job) and `make test`.
PY ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
EXTRAS ?= dev

.PHONY: install run test lint bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e ".[$(EXTRAS)]"

run: install
	$(BIN)/powergrid serve

test: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src/powergrid/rules
	$(BIN)/pytest

bench: install
	$(BIN)/python benchmarks/engine.py
