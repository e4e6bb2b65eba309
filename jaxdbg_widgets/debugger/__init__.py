"""The debugger layer: session model, JAX registry backend, transports and widget."""
