# The two commands of the README's quickstart:
#   make quickstart   create .venv, install clsd-mteb, evaluate the embedded default model on the release
#   make test         create .venv if needed, install, run the whole test suite (what CI runs)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RELEASE := ../shared/data/clsd-release

.PHONY: setup quickstart test benchmark

$(VENV)/.installed: pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

setup: $(VENV)/.installed

quickstart: setup
	$(BIN)/clsd evaluate --data-dir $(RELEASE)

test: setup
	$(BIN)/python -m pytest

benchmark: setup
	$(BIN)/python benchmarks/eval_overhead.py
	$(BIN)/python benchmarks/generation_throughput.py
