# arbiter: `make test` and `make run` work on a fresh clone; the venv is built here.
# Python 3.11 or newer (tested: 3.11, 3.12, 3.13): python3.11 when the machine has it, else python3.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.test-stamp

.PHONY: test unit integration e2e fuzz tournament-check run bench bench-streams mutation records screenshots clean

# The runtime alone for `make run`; the test tools on top for the test targets.
$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
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

# the tournament room's checker at full size (tests/tournament_room.py; `make test` runs it light): random tournaments
# of every format, at least 5,000 generated events each, the served standings, crosstable and pairings held against
# an implementation written from the docs. CI runs it after `make test` (.ci/run).
tournament-check: $(STAMP)
	ARBITER_ROOM_EVENTS=$${ARBITER_ROOM_EVENTS:-5000} ARBITER_ROOM_EXAMPLES=$${ARBITER_ROOM_EXAMPLES:-4} $(BIN)/pytest \
		-p no:randomly -q -s tests/unit/test_tournament_room.py

# schemathesis on every store (PostgreSQL too when ARBITER_TEST_POSTGRES_URL is set), fresh random cases:
# 500 examples per operation, a few minutes a store (`make test` runs 25 in memory and 50 on each store)
fuzz: $(STAMP)
	ARBITER_FUZZ_EXAMPLES=$${ARBITER_FUZZ_EXAMPLES:-500} HYPOTHESIS_PROFILE=dev $(BIN)/pytest \
		tests/integration/test_api_schema.py tests/integration/test_api_fuzz_stores.py -k every_operation

# the README's pictures: lobby, table, replay, audit, desk and a study at 1280 and 390 px, into docs/screenshots/
screenshots: $(STAMP)
	ARBITER_SCREENSHOTS=docs/screenshots $(BIN)/pytest tests/e2e/test_screenshots.py tests/e2e/test_browser_studies.py

# the sample records of an independent implementation, when the workshop's ../shared is beside the checkout
records: $(STAMP)
	@test -x ../shared/records/check || { echo "make records needs ../shared/records (the workshop's reference samples, not part of arbiter)"; exit 2; }
	../shared/records/check $(BIN)/arbiter

run: $(RUNTIME)
	$(BIN)/arbiter serve

# every benchmark, each beside its reference in the same run (docs/benchmarks.md)
BENCHES := verify archive four_virtues_moves durable api floor streams simulate hosts analysis strength marks transparency replay_viewer fairplay fairplay_event merge_delay tiles tlog_proof study
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	for b in $(BENCHES); do $(BIN)/python -m bench.$$b || exit 1; done

# the live streams (issue 35): today's code beside the release before it, alternately first, in one run (docs/benchmarks.md);
# the release's checkout (a detached worktree) and its own venv are made once, at RELEASE_DIR; STREAMS_ARGS for more
# (e.g. --rounds 3, --profile DIR)
RELEASE ?= ed4b86b
RELEASE_DIR ?= ../wt-release
bench-streams: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	test -d $(RELEASE_DIR) || git worktree add --detach $(RELEASE_DIR) $(RELEASE)
	test -x $(RELEASE_DIR)/.venv/bin/arbiter || (cd $(RELEASE_DIR) && python3.11 -m venv .venv && .venv/bin/pip install --quiet -e .)
	$(BIN)/python -m bench.streams --against release=$(abspath $(RELEASE_DIR)) --no-postgres $(STREAMS_ARGS)

# mutation testing (docs/mutation.md), not part of `make test`: mutmut mutates each game's rules package and runs
# that game's unit tests; prints killed/total per game and fails under 95%. GAME=small-battle for one game (all by
# default); one mutmut worker, MUTATION_ARGS for more (e.g. --max-children 2, --resume).
GAME ?=
mutation: $(STAMP)
	$(BIN)/pip install --quiet -e '.[mutation]'
	$(BIN)/python -m bench.mutation $(GAME) $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants build/mutation
