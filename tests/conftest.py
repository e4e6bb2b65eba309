"""Every test layer runs JAX with 8 simulated CPU devices; the flag must be set before JAX loads."""

import os

DEVICE_FLAG = "--xla_force_host_platform_device_count=8"
if DEVICE_FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {DEVICE_FLAG}".strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

pytest_plugins = ["tests.fixtures.kernel", "tests.fixtures.lab", "tests.fixtures.multiprocess"]
