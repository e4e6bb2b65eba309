"""How a breakpoint hit is served: the backend in JAX's registry, the run it belongs to, and the
front end that answers it (widget clicks, typed lines, a script, the headless policy)."""
