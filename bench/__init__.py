"""Side-by-side measurements against jax.debug and treescope; run with ``python -m bench``."""
