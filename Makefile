# arbiter: `make test` and `make run` work on a fresh clone; the venv is built here.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: test unit integration e2e fuzz run bench mutation records screenshots clean

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

# schemathesis on every store (PostgreSQL too when ARBITER_TEST_POSTGRES_URL is set), fresh random cases:
# 500 examples per operation, a few minutes a store (`make test` runs 25 in memory and 50 on each store)
fuzz: $(STAMP)
	ARBITER_FUZZ_EXAMPLES=$${ARBITER_FUZZ_EXAMPLES:-500} HYPOTHESIS_PROFILE=dev $(BIN)/pytest \
		tests/integration/test_api_schema.py tests/integration/test_api_fuzz_stores.py -k every_operation

# the README's pictures: lobby, table, replay, audit and desk at 1280 and 390 px, into docs/screenshots/
screenshots: $(STAMP)
	ARBITER_SCREENSHOTS=docs/screenshots $(BIN)/pytest tests/e2e/test_screenshots.py

records: $(STAMP)
	../shared/records/check $(BIN)/arbiter

run: $(STAMP)
	$(BIN)/arbiter serve

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench.verify && $(BIN)/python -m bench.archive && $(BIN)/python -m bench.four_virtues_moves && $(BIN)/python -m bench.durable && $(BIN)/python -m bench.api && $(BIN)/python -m bench.floor && $(BIN)/python -m bench.streams && $(BIN)/python -m bench.simulate

# mutation testing (docs/mutation.md), not part of `make test`: mutmut mutates each game's rules package and runs
# that game's unit tests; prints killed/total per game and fails under 95%. GAME=small-battle for one game (all by
# default); one mutmut worker, MUTATION_ARGS for more (e.g. --max-children 2, --resume).
GAME ?=
mutation: $(STAMP)
	$(BIN)/pip install --quiet -e '.[mutation]'
	$(BIN)/python -m bench.mutation $(GAME) $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants build/mutation
