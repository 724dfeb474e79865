# tracebot: the two commands are `make run` and `make test`; both create .venv when needed.
PYTHON ?= python3
VENV   := .venv
# Python caches compiled modules (and pytest its rewritten test modules) under .venv, even where the
# environment sets PYTHONDONTWRITEBYTECODE: without the cache every process, each test worker and each
# `tracebot` a test starts compiles the whole project again (about 18 s of `make test`).
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
# NumPy's BLAS starts a thread per core at import (~60 ms of CPU in every test worker and every
# `tracebot` a test starts); nothing here does linear algebra. `tracebot` itself sets the same.
export OPENBLAS_NUM_THREADS ?= 1
BIN    := $(VENV)/bin
DB     ?= data/tracebot.db

.PHONY: run test lint typecheck compose-check pytest bench eval eval-raised eval-redact records explain-report seeds console clean help

help:
	@echo "make run    - install, load the shipped records into $(DB), run the bot (DISCORD_TOKEN set) or the console"
	@echo "make test   - install with test extras, run ruff, mypy and pytest"
	@echo "make bench  - run the benchmarks (figures for the closing notes)"
	@echo "make eval   - print the matching accuracy table"
	@echo "make eval-redact - redaction recall and false positives per kind on the scanner corpus, p99 on 16 KB pastes"
	@echo "make eval-raised - regenerate tests/data/raised/ (real tracebacks from transformers 5.24.0 and 4.57.6)"
	@echo "make records - mine the shipped record sets again from their wheels (scripts/releases.txt)"
	@echo "make explain-report - figures and sample replies of the generated explanations of mined records"

$(BIN)/python:
	@sh scripts/bootstrap-venv.sh "$(PYTHON)" "$(VENV)"

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/tracebot records import records/data --db $(DB)
	@if [ -n "$$DISCORD_TOKEN" ] || grep -qs '^DISCORD_TOKEN=.' .env; then \
		$(BIN)/tracebot run --db $(DB); \
	else \
		echo "DISCORD_TOKEN is not set: starting the offline console (see README to run the bot)"; \
		$(BIN)/tracebot console --db $(DB); \
	fi

console: $(VENV)/.installed-run
	$(BIN)/tracebot console --db $(DB)

test: $(VENV)/.installed-test lint typecheck compose-check pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

compose-check:
	sh scripts/check-compose.sh

# One worker more than there are cores: a quarter of a worker's time is spent waiting (on the bots,
# imports and commands the end-to-end tests start as processes, on SimCord and sleeps), which a third
# worker fills (103 s -> 94 s on 2 cores). One file per worker (module fixtures load once), the
# longest modules first (see tests/conftest.py), branch coverage with the floor in pyproject. Only
# the total is printed: the table would analyse every source file a second time (pytest-cov computes
# the total apart) while the workers wait; `.venv/bin/coverage report` prints it from .coverage.
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
pytest: $(VENV)/.installed-test
	$(BIN)/pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --cov --cov-report=

bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks

eval: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.evaluate

# Recall and false positives of redaction per kind (gitleaks fixtures: tuning; detect-secrets: independent).
eval-redact: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.eval_redact

# Install both transformers releases with a CPU torch in .venv-raised/ and record real tracebacks.
eval-raised: $(BIN)/python
	$(BIN)/python -m benchmarks.raised

records: $(VENV)/.installed-run
	sh scripts/mine_records.sh

# Generated explanations of the shipped mined records: counts, quality problems, 30 sample replies.
explain-report: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.explain_report

# Convert the seed records handed over in ../shared/seeds into the shipped JSON Lines file.
seeds: $(VENV)/.installed-run
	rm -f $(VENV)/seeds.db
	$(BIN)/tracebot records import ../shared/seeds --db $(VENV)/seeds.db --strict
	$(BIN)/tracebot records export --db $(VENV)/seeds.db --out records/data/seeds.jsonl

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache
