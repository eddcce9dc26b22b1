# One command runs the main job, one runs the tests. Both set everything up from a bare Python.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint check bench schema clean

$(STAMP): pyproject.toml setup.py phatlog/engine/_hot.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: verify every bundled sample game, replay one trick by trick, and show the conformance set's diagnostics
run: $(STAMP)
	$(BIN)/phatlog verify samples/games/*.json
	$(BIN)/phatlog replay --format text samples/games/phat-worked-6-2.json
	-$(BIN)/phatlog verify --quiet $(filter-out samples/invalid/expected%,$(wildcard samples/invalid/*))

## test: the whole test suite
test: $(STAMP)
	$(BIN)/pytest -q

## lint: ruff and mypy --strict
lint: $(STAMP)
	$(BIN)/ruff check phatlog tests bench
	$(BIN)/ruff format --check phatlog tests bench
	$(BIN)/mypy

check: test lint

## bench: the throughput benchmark (not a test)
bench: $(STAMP)
	$(BIN)/python bench/bench_verify.py

## schema: regenerate the published schema from the models (on purpose only)
schema: $(STAMP)
	$(BIN)/python -m phatlog.schema_tool

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

## fuzz: the long fuzz run (docs/fuzzing.md); FUZZ_INPUTS, FUZZ_SEED, FUZZ_JOBS and FUZZ_OUT override the defaults
.PHONY: fuzz
fuzz: $(STAMP)
	$(BIN)/python bench/fuzz.py --inputs $(or $(FUZZ_INPUTS),1000000) --seed $(or $(FUZZ_SEED),1) --jobs $(or $(FUZZ_JOBS),2) --out $(or $(FUZZ_OUT),fuzz-out)
