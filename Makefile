# Quick start: `make play` plays, `make test` runs the whole test suite.
# Both create a virtual environment in .venv on first use (needs Python 3.11+ as python3).
# `make play` (and `make serve`) install the base package only: what playing and serving need.
# `make test`, `make lint` and `make bench` add the `dev` extra (test tools, the AI and Ray extras);
# the tests run on every core (pytest-xdist) and end with the 20 slowest.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play serve test lint bench clean

$(BIN)/.installed-base: pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11+ is required") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(BIN)/.installed: $(BIN)/.installed-base
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

play: $(BIN)/.installed-base
	$(BIN)/italian-poker play

serve: $(BIN)/.installed-base
	$(BIN)/italian-poker serve

test: $(BIN)/.installed
	$(BIN)/python -m pytest -n auto --durations=20

lint: $(BIN)/.installed
	$(BIN)/python -m ruff check src tests benchmarks
	$(BIN)/python -m mypy --strict src

bench: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/bench_evaluation.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_server.py
	$(BIN)/python benchmarks/bench_advisor.py
	$(BIN)/python benchmarks/bench_ai.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
