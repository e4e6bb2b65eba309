# Two entry points on a fresh machine: `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# A second environment with ipykernel 6, where the debugger uses the pump transport.
VENV6 := .venv-ipykernel6
STAMP6 := $(VENV6)/.installed
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
NBVAL := --nbval --nbval-sanitize-with notebooks/nbval_sanitize.cfg --nbval-cell-timeout 300
export XLA_FLAGS ?= --xla_force_host_platform_device_count=8
export JAX_PLATFORMS ?= cpu

# Seeds for the unit suite in random order: it must pass in any order.
RANDOM_ORDER_SEEDS ?= 1 2
.PHONY: demo test lint test-js test-python test-random-order test-ipykernel6 test-notebooks test-colab test-jax-matrix chromium bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

$(STAMP6): pyproject.toml
	$(PYTHON) -m venv $(VENV6)
	$(VENV6)/bin/pip install --quiet --upgrade pip
	$(VENV6)/bin/pip install --quiet -e . 'ipykernel>=6.29,<7' pytest pytest-timeout jupyter_client nbformat
	touch $(STAMP6)

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

demo: $(STAMP)
	$(BIN)/jupyter lab notebooks/quickstart.ipynb --ip=127.0.0.1 $(ROOT_FLAG) $(LAB_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test-js:
	node --test js/test/

test-python: $(STAMP) chromium
	$(BIN)/pytest tests

test-random-order: $(STAMP)
	for seed in $(RANDOM_ORDER_SEEDS); do \
	  $(BIN)/pytest -q -p random_order --random-order-seed=$$seed tests/unit || exit 1; \
	done

test-ipykernel6: $(STAMP6)
	$(VENV6)/bin/python -m pytest tests/kernel/test_transports.py tests/unit/test_transports.py tests/kernel/test_debugger_kernel.py tests/kernel/test_reload_kernel.py tests/kernel/test_busy_status.py tests/unit/test_busy_status.py

test-notebooks: $(STAMP)
	$(BIN)/pytest $(NBVAL) notebooks

# Colab's kernel pins (ipykernel 6.17.1, IPython 7.34.0, tornado 6.5.1) with the newest JAX.
test-colab:
	bash .ci/colab.sh

# The oldest supported JAX (with the oldest supported IPython and ipykernel) and the newest.
test-jax-matrix:
	bash .ci/jax-matrix.sh

# The unit suite's random orders (seeds 1 and 2) run in the JAX matrix; test-random-order runs
# both here.
test: lint test-js test-python test-ipykernel6 test-notebooks test-colab test-jax-matrix

bench: $(STAMP)
	$(BIN)/python -m bench
