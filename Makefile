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
	# the end-of-turn model (Smart Turn v3.2, BSD-2-Clause) is a file in pipecat-ai's wheel; Hearth reads
	# that file only (models/bundled.py), so the framework's own dependencies are not installed
	$(BIN)/python -m pip install --no-deps 'pipecat-ai==1.14.0'
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
