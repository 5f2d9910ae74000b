# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: demo compare test test-slow mutation bench lint clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,microrts,dask,dqn,openspiel,pettingzoo]'
	$(PY) -m pip install -q --no-deps --ignore-requires-python gym-microrts==0.6.0
	$(VENV)/bin/stratsynth warmup
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/stratsynth demo

compare: $(STAMP)
	$(VENV)/bin/stratsynth run experiments/configs/cantstop_comparison.toml --jobs 2
	$(VENV)/bin/stratsynth report experiments/results/cantstop-30min

# every extra is installed here, so a skipped test fails the run (tests/conftest.py)
test: $(STAMP)
	STRATSYNTH_NO_SKIPS=1 $(PY) -m pytest -q -m "not slow"

test-slow: $(STAMP)
	STRATSYNTH_NO_SKIPS=1 $(PY) -m pytest -q -m slow

# mutation testing of the core modules against their own tests (hours; not in CI):
# `make mutation MODULES="gp/sa.py gp/uct.py"` for some; scores in runs/mutation/
mutation: $(STAMP)
	$(PY) -m pip install -q 'cosmic-ray>=8.3,<9'
	nice $(PY) -m tests.mutation $(MODULES)

bench: $(STAMP)
	$(VENV)/bin/stratsynth bench
	$(VENV)/bin/stratsynth bench --fitness
	$(PY) -m experiments.bench.cantstop_reference_kernel
	$(PY) -m experiments.bench.solver
	$(PY) -m experiments.bench.microrts
	$(PY) -m experiments.bench.expendibots
	$(PY) -m experiments.bench.tribes
	$(PY) -m experiments.bench.tribes_decisions

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
