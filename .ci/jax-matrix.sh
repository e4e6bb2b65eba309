#!/usr/bin/env bash
# The JAX matrix: build each environment from nothing, then run the unit tests, the kernel
# tests and nbval over the shipped notebooks in it.
#   .venv-jax-oldest  Python 3.11, JAX 0.7.0 with Colab's ipykernel/IPython (.ci/jax-constraints-oldest.txt)
#   .venv-jax-newest  Python 3.12, the newest JAX pip resolves
# Usage: .ci/jax-matrix.sh [oldest|newest]...   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."

export XLA_FLAGS="${XLA_FLAGS:---xla_force_host_platform_device_count=8}"
export JAX_PLATFORMS="${JAX_PLATFORMS:-cpu}"
TOOLS=(pytest hypothesis nbval jupyter_client nbformat nbclient)
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

run_tests() {
  local venv=$1 started=$SECONDS
  "$venv/bin/python" -m pytest -q tests/unit --deselect tests/unit/test_wheel.py ||
    FAILED+=("$venv: unit")
  "$venv/bin/python" -m pytest -q tests/kernel || FAILED+=("$venv: kernel")
  "$venv/bin/python" -m pytest -q "${NBVAL[@]}" notebooks || FAILED+=("$venv: notebooks")
  echo "$venv: tests took $((SECONDS - started)) s"
}

for target in "${@:-oldest newest}"; do
  for name in $target; do
    case "$name" in
      oldest)
        build .venv-jax-oldest "$(first_python /root/.pyenv/versions/3.11.7/bin/python python3.11)" \
          -c .ci/jax-constraints-oldest.txt
        run_tests .venv-jax-oldest
        ;;
      newest)
        build .venv-jax-newest "$(first_python /root/.pyenv/versions/3.12.1/bin/python python3.12)" \
          --upgrade jax jaxlib
        run_tests .venv-jax-newest
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
