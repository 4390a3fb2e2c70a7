# arbiter: `make test` and `make run` work on a fresh clone; the venv is built here.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: test unit integration e2e run bench records clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/pytest tests

unit: $(STAMP)
	$(BIN)/pytest tests/unit

integration: $(STAMP)
	$(BIN)/pytest tests/integration

e2e: $(STAMP)
	$(BIN)/pytest tests/e2e

records: $(STAMP)
	../shared/records/check $(BIN)/arbiter

run: $(STAMP)
	$(BIN)/arbiter serve

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench.verify && $(BIN)/python -m bench.four_virtues_moves && $(BIN)/python -m bench.durable && $(BIN)/python -m bench.api && $(BIN)/python -m bench.simulate

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
