# Two commands for a fresh machine: `make play` and `make test`.
# Everything else they need (the virtual environment, the package, numba's cache) is built on the way.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup play test bench clean

# The stamp is remade whenever pyproject.toml changes, so a new dependency is installed without ceremony.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Set-up alone: install, then compile every numba kernel once so that no GUI ever waits for the compiler.
setup: $(STAMP)
	$(BIN)/shuai warmup

play: setup
	$(BIN)/shuai play

test: setup
	$(BIN)/python -m pytest -n 2 -q tests

bench: setup
	$(BIN)/python scripts/bench_perft.py

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
