# Two entry points on a fresh machine: `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
NBVAL := --nbval --nbval-sanitize-with notebooks/nbval_sanitize.cfg --nbval-cell-timeout 300
export XLA_FLAGS ?= --xla_force_host_platform_device_count=8
export JAX_PLATFORMS ?= cpu

# Seeds for the unit suite in random order: it must pass in any order.
RANDOM_ORDER_SEEDS ?= 1 2
.PHONY: demo test lint test-js test-python test-random-order test-notebooks test-colab test-jax-matrix chromium bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

demo: $(STAMP)
	$(BIN)/jupyter lab notebooks/quickstart.ipynb --ip=127.0.0.1 $(ROOT_FLAG) $(LAB_ARGS)

# The view builders whose JSON is declared as TypedDicts (each */schema.py): mypy checks that
# each builds what its TypedDict declares (the schema modules are checked through them).
TYPED_VIEWS := jaxdbg_widgets/debugger/view/build.py jaxdbg_widgets/debugger/view/cluster.py \
	jaxdbg_widgets/memory/view.py jaxdbg_widgets/memory/peak_view.py jaxdbg_widgets/comms/view.py \
	jaxdbg_widgets/compiles/view.py jaxdbg_widgets/pictures/view.py jaxdbg_widgets/nans/view.py \
	jaxdbg_widgets/sharding/view.py jaxdbg_widgets/multiprocess/desk.py \
	jaxdbg_widgets/notebook/printlog_widget.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(TYPED_VIEWS)

# The JS side: tsc checks the widgets' JSDoc types (dev dependencies from package.json, no
# run-time ones), then node runs the unit tests.
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json
	npm install --no-audit --no-fund --no-package-lock
	touch $(NODE_STAMP)

test-js: $(NODE_STAMP)
	npx --no-install tsc -p jsconfig.json
	node --test js/test/

# The unit tests are independent of one another (they pass in any order): they run on every
# core. The kernel, transparency and browser tests drive kernels and pages that want the machine.
test-python: $(STAMP) chromium
	$(BIN)/pytest -n auto tests/unit
	$(BIN)/pytest tests --ignore=tests/unit

test-random-order: $(STAMP)
	for seed in $(RANDOM_ORDER_SEEDS); do \
	  $(BIN)/pytest -q -n auto -p random_order --random-order-seed=$$seed tests/unit || exit 1; \
	done

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
test: lint test-js test-python test-notebooks test-colab test-jax-matrix

bench: $(STAMP)
	$(BIN)/python -m bench
