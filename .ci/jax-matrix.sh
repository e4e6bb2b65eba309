#!/usr/bin/env bash
# The JAX matrix: build each environment from nothing, then run in it what its JAX can change.
#   .venv-jax-oldest  Python 3.11, JAX 0.7.0 with Colab's ipykernel/IPython (.ci/jax-constraints-oldest.txt):
#                     the unit tests in random order (seed 1), the kernel tests, nbval over the notebooks
#   .venv-jax-newest  Python 3.12, the newest JAX pip resolves: the unit tests in random order
#                     (seed 2), the job debugger's kernel tests and nbval; its other kernel tests
#                     run in .ci/colab.sh (the same JAX under Colab's kernel) and in the main
#                     environment (the same ipykernel)
# Usage: .ci/jax-matrix.sh [oldest|newest]...   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."

export XLA_FLAGS="${XLA_FLAGS:---xla_force_host_platform_device_count=8}"
export JAX_PLATFORMS="${JAX_PLATFORMS:-cpu}"
TOOLS=(pytest pytest-timeout pytest-random-order pytest-xdist hypothesis nbval jupyter_client
  nbformat nbclient ipyparallel flax optax equinox)
NBVAL=(--nbval --nbval-sanitize-with notebooks/nbval_sanitize.cfg --nbval-cell-timeout 300)

first_python() {
  for candidate in "$@"; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "" 2>/dev/null; then
      command -v "$candidate"
      return
    fi
  done
  echo "none of $* runs here" >&2
  return 1
}

build() {
  local venv=$1 python=$2
  shift 2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
  "$venv/bin/pip" install --quiet "$@" -e . "${TOOLS[@]}"
  "$venv/bin/python" -c "import jax, IPython, ipykernel; print('$venv: jax', jax.__version__, \
'IPython', IPython.__version__, 'ipykernel', ipykernel.__version__)"
}

FAILED=()

unit() {
  local venv=$1 seed=$2
  "$venv/bin/python" -m pytest -q -n auto -p random_order --random-order-seed="$seed" tests/unit \
    --deselect tests/unit/test_wheel.py || FAILED+=("$venv: unit")
}

kernel() {
  local venv=$1
  # The job-debugger tests start ipyparallel engines: the main environment runs them.
  "$venv/bin/python" -m pytest -q tests/kernel --ignore=tests/kernel/test_multiprocess_kernel.py ||
    FAILED+=("$venv: kernel")
}

notebooks() {
  local venv=$1
  shift
  "$venv/bin/python" -m pytest -q "${NBVAL[@]}" notebooks "$@" || FAILED+=("$venv: notebooks")
}

for target in "${@:-oldest newest}"; do
  for name in $target; do
    case "$name" in
      oldest)
        build .venv-jax-oldest "$(first_python /root/.pyenv/versions/3.11.7/bin/python python3.11)" \
          -c .ci/jax-constraints-oldest.txt
        started=$SECONDS
        unit .venv-jax-oldest 1
        kernel .venv-jax-oldest
        notebooks .venv-jax-oldest
        echo "oldest: tests took $((SECONDS - started)) s"
        ;;
      newest)
        build .venv-jax-newest "$(first_python /root/.pyenv/versions/3.12.1/bin/python python3.12)" \
          --upgrade jax jaxlib
        # JAX 0.12's XLA gives a gather only its argument's metadata: that notebook's saved
        # outputs differ there.
        echo "newest: communication notebook left out (outputs differ)"
        started=$SECONDS
        unit .venv-jax-newest 2
        # The job debugger on the JAX whose collectives need every process's cell files named
        # alike (docs/multi-process.md): the main environment runs its other kernel tests.
        .venv-jax-newest/bin/python -m pytest -q tests/kernel/test_multiprocess_kernel.py ||
          FAILED+=(".venv-jax-newest: job debugger")
        notebooks .venv-jax-newest --ignore=notebooks/communication.ipynb
        echo "newest: tests took $((SECONDS - started)) s"
        ;;
      *)
        echo "unknown environment: $name (oldest or newest)" >&2
        exit 2
        ;;
    esac
  done
done

if ((${#FAILED[@]})); then
  printf 'failed: %s\n' "${FAILED[@]}" >&2
  exit 1
fi
