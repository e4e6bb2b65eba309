"""A PNG of a small RGBA pixel grid: the static heatmap of a large mesh as one image, not
thousands of table cells. Deterministic (fixed compression level), so the same map gives the
same bytes."""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(pixels: np.ndarray) -> bytes:
    """``pixels`` (rows x cols x 4, uint8 RGBA) as PNG file bytes."""
    if pixels.ndim != 3 or pixels.shape[2] != 4 or pixels.dtype != np.uint8:
        raise ValueError(f"need a rows x cols x 4 uint8 array, got {pixels.dtype} {pixels.shape}")
    rows, cols = pixels.shape[:2]
    header = struct.pack(">IIBBBBB", cols, rows, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    scanlines = np.zeros((rows, 1 + 4 * cols), dtype=np.uint8)  # filter byte 0 (none) per row
    scanlines[:, 1:] = pixels.reshape(rows, 4 * cols)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def png_data_url(pixels: np.ndarray) -> str:
    """``data:image/png;base64,...`` for ``pixels`` (see :func:`png_bytes`)."""
    return "data:image/png;base64," + base64.b64encode(png_bytes(pixels)).decode("ascii")


def hex_rgba(color: str) -> tuple[int, int, int, int]:
    """``#RRGGBB`` as an opaque ``(r, g, b, 255)``."""
    if len(color) != 7 or not color.startswith("#"):
        raise ValueError(f"not a #RRGGBB colour: {color!r}")
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16), 255


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
