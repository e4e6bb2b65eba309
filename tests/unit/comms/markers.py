"""Lines of a test file found by a marker comment, so expected lines follow edits."""

from pathlib import Path


def line_of(marker: str, path: str) -> int:
    """The 1-based number of the one line of ``path`` that ends with ``# <marker>``."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    (number,) = [i + 1 for i, text in enumerate(lines) if text.rstrip().endswith(f"# {marker}")]
    return number
