# Stud: `make test` runs every test, `make quick` those that need no server, browser or cluster
# (the inner loop while changing code), `make bench` the benchmarks, `make lint` ruff and mypy.
# The first run creates a local virtual environment in .venv and installs what is needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# setup.py compiles the engine's hot modules, the RL encoder and the room's per-step modules with
# mypyc (the list is in stud/_compiled.py): a change to any reinstalls, or an editable install
# would run old code.
COMPILED := $(shell $(PYTHON) -c "import runpy; print(' '.join('src/' + m.replace('.', '/') + '.py' for m in runpy.run_path('src/stud/_compiled.py')['COMPILED_MODULES']))")

# Test workers: two per core. Many tests wait on a clock (a tournament's levels, a database
# stopped for 10 s, a lease to lapse) rather than the CPU, and a second worker per core runs
# meanwhile. `make test WORKERS=1` runs them one at a time.
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
# Python caches each module's compiled form (and pytest its rewritten tests) only if allowed:
# every server a test starts would otherwise compile the room's modules again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: test quick soak bench lint fmt clean serve

$(STAMP): pyproject.toml setup.py $(COMPILED)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q --durations=30

# The long sweeps at full length (their tests ask the `sized` fixture), before a release.
soak: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q --soak -m soak

# The markers come from the fixtures a test uses (tests/conftest.py); slow ones are marked by hand.
quick: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q -m "not server and not browser and not cluster and not slow"

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

serve: $(STAMP)
	$(BIN)/stud serve --host 127.0.0.1 --port $${PORT:-8000}

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy

fmt: $(STAMP)
	$(BIN)/ruff format src tests bench examples
	$(BIN)/ruff check --fix src tests bench examples

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
