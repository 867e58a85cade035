# Hearth: `make demo` and `make test` set everything up on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test bench stress clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip wheel
	$(BIN)/python -m pip install -e '.[test]'
	$(BIN)/hearth prepare
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/hearth demo

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/latency.py --json bench-latency.json

stress: $(STAMP)
	$(BIN)/python benchmarks/stress.py --json bench-stress.json
	$(BIN)/python benchmarks/scale.py --json bench-scale.json

clean:
	rm -rf $(VENV) build *.egg-info
