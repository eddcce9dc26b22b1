# One command runs the main job, one runs the tests. Both set everything up from a bare Python.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Two steps: the runtime dependencies (enough for `make run`), then the dev extras (tests, linters).
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint check bench schema clean

# The installer's own messages (pip's, setuptools' editable-install notices) go to $(VENV)/install.log,
# shown only when the installation fails.
INSTALL_LOG := $(VENV)/install.log

$(RUN_STAMP): pyproject.toml setup.py phatlog/_native/_trick.c phatlog/_native/_bytes.c phatlog/_native/_common.h phatlog/_native/_solve.c
	@echo "== Setting up $(VENV): phatlog and its runtime dependencies (the installer's messages: $(INSTALL_LOG))"
	@$(PYTHON) -m venv $(VENV)
	@($(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e .) > $(INSTALL_LOG) 2>&1 \
		|| (cat $(INSTALL_LOG); exit 1)
	@touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	@echo "== Adding the development tools to $(VENV) (the installer's messages: $(INSTALL_LOG))"
	@$(BIN)/pip install --quiet -e '.[dev]' >> $(INSTALL_LOG) 2>&1 || (cat $(INSTALL_LOG); exit 1)
	@touch $(DEV_STAMP)

## run: verify the sample games, replay one deal, then check the conformance set of faulty records
run: $(RUN_STAMP)
	@echo "== 1. Every sample game verifies clean (score sheets carry notes: --verbose prints them)"
	@echo "   (the samples replay some deals under several rules on purpose, so the check for a deal dealt"
	@echo "   twice, PL802, is left out: --duplicates records)"
	@echo "$$ phatlog verify --duplicates records samples/games/*.json"
	@$(BIN)/phatlog verify --duplicates records samples/games/*.json
	@echo
	@echo "== 2. One deal replayed trick by trick"
	@echo "$$ phatlog replay --format text --deal 1 samples/games/phat-worked-6-2.json"
	@$(BIN)/phatlog replay --format text --deal 1 samples/games/phat-worked-6-2.json
	@echo
	@echo "== 3. The conformance set: each faulty record gets exactly the diagnostics it must"
	@echo "$$ python samples/conformance.py"
	@$(BIN)/python samples/conformance.py

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
