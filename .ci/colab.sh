#!/usr/bin/env bash
# Colab's kernel stack: build .venv-colab from nothing with Colab's pins as constraints, prove
# that installing jaxdbg-widgets moved none of them, then run the kernel tests there. The
# notebooks run under the same pins in the JAX matrix's oldest environment.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${COLAB_PYTHON:-}"
if [ -z "$PYTHON" ]; then
  # Colab's runtime is Python 3.13: run there, as users do.
  for candidate in /root/.pyenv/versions/3.13.0/bin/python python3.13; do
    if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null; then
      PYTHON="$candidate"
      break
    fi
  done
  if [ -z "$PYTHON" ]; then
    echo "colab: no Python 3.13 here; set COLAB_PYTHON" >&2
    exit 1
  fi
fi
VENV=.venv-colab
CONSTRAINTS=.ci/colab-constraints.txt
export XLA_FLAGS="${XLA_FLAGS:---xla_force_host_platform_device_count=8}"
export JAX_PLATFORMS="${JAX_PLATFORMS:-cpu}"

rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet -c "$CONSTRAINTS" -e . pytest pytest-timeout nbval jupyter_client nbformat nbclient

# Every pin must be installed exactly as pinned.
frozen="$("$VENV/bin/pip" freeze)"
while IFS= read -r pin; do
  case "$pin" in ''|'#'*) continue ;; esac
  if ! grep -qix "$pin" <<<"$frozen"; then
    echo "colab: $pin moved; installed: $(grep -i "^${pin%%==*}==" <<<"$frozen" || echo none)" >&2
    exit 1
  fi
done <"$CONSTRAINTS"
echo "colab: pins kept: $(grep -v '^#' "$CONSTRAINTS" | tr '\n' ' ')"

"$VENV/bin/python" -m pytest -q -p no:cacheprovider \
  tests/unit/test_capability.py \
  tests/unit/test_capability_table.py \
  tests/unit/core/test_frames_snapshot.py \
  tests/unit/test_extension.py \
  tests/unit/test_kernel_internals.py \
  tests/unit/test_transports.py \
  tests/unit/debugger/test_standalone.py \
  tests/kernel/test_extension_kernel.py \
  tests/kernel/test_magics_printing.py \
  tests/kernel/test_printing_routing.py \
  tests/kernel/test_transports.py \
  tests/kernel/test_reload_kernel.py \
  tests/kernel/test_debugger_kernel.py \
  tests/kernel/test_render_ack.py \
  tests/kernel/test_json_only.py \
  tests/kernel/test_sharding_kernel.py \
  tests/kernel/test_python_runtime.py
