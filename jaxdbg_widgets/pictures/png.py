"""An 8-bit palette PNG from NumPy and zlib, as a ``data:`` URI for plain-JSON widget state.

One byte per cell keeps a picture small, and text (base64) travels where widget binary
buffers do not (Colab drops them). The same pixels always give the same bytes.
"""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def palette_png(indices: np.ndarray, palette: bytes) -> bytes:
    """A PNG of a 2-D uint8 array of palette indices; ``palette`` is RGB triples."""
    if indices.ndim != 2 or indices.dtype != np.uint8:
        raise ValueError("palette_png takes a 2-D uint8 array")
    height, width = indices.shape
    rows = np.zeros((height, width + 1), dtype=np.uint8)  # filter byte 0 (none) per row
    rows[:, 1:] = indices
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        [
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)),
            _chunk(b"IEND", b""),
        ]
    )


def data_uri(png: bytes) -> str:
    """``data:image/png;base64,...`` for an ``<img src>``."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)
