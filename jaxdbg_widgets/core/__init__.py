"""The core runtime: debug primitives, their transformation rules, lowering and frame capture."""
