# One command runs the main job, one runs the tests. Both set everything up from a bare Python.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Two steps: the runtime dependencies (enough for `make run`), then the dev extras (tests, linters).
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint check bench schema clean

$(RUN_STAMP): pyproject.toml setup.py phatlog/_native/_trick.c phatlog/_native/_bytes.c phatlog/_native/_common.h phatlog/_native/_solve.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

## run: verify the sample games, replay one deal, then check the conformance set of faulty records
run: $(RUN_STAMP)
	@echo "== 1. Every sample game verifies clean (score sheets carry notes: --verbose prints them)"
	$(BIN)/phatlog verify samples/games/*.json
	@echo
	@echo "== 2. One deal replayed trick by trick"
	$(BIN)/phatlog replay --format text --deal 1 samples/games/phat-worked-6-2.json
	@echo
	@echo "== 3. The conformance set: each faulty record gets exactly the diagnostics it must"
	$(BIN)/python samples/conformance.py

## test: the whole test suite, one worker per CPU (TEST_JOBS=1: in one process; CI=true: deeper property
## tests; HYPOTHESIS_PROFILE=deep: a new random run)
test: $(DEV_STAMP)
	$(BIN)/pytest -q -n $(or $(TEST_JOBS),auto)

## lint: ruff, mypy --strict, and the layers (lint-imports: the contracts in pyproject.toml)
lint: $(DEV_STAMP)
	$(BIN)/ruff check phatlog tests bench samples
	$(BIN)/ruff format --check phatlog tests bench samples
	$(BIN)/mypy
	$(BIN)/lint-imports

check: test lint

## bench: the throughput benchmark (not a test)
bench: $(RUN_STAMP)
	$(BIN)/python bench/bench_verify.py

## schema: regenerate the published schema from the models (on purpose only)
schema: $(RUN_STAMP)
	$(BIN)/python -m phatlog.record.schema_tool

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

## fuzz: the long fuzz run (docs/fuzzing.md); FUZZ_INPUTS, FUZZ_SEED, FUZZ_JOBS and FUZZ_OUT override the defaults
.PHONY: fuzz
fuzz: $(RUN_STAMP)
	$(BIN)/python bench/fuzz.py --inputs $(or $(FUZZ_INPUTS),1000000) --seed $(or $(FUZZ_SEED),1) --jobs $(or $(FUZZ_JOBS),2) --out $(or $(FUZZ_OUT),fuzz-out)
