"""Pure-Python hashPixelData and tile signatures, the twin of flagcore._signatures.

A direct transcription of the spec's JavaScript: one FNV-1a 32 chain per buffer, a byte past
the end of the buffer reads as 0 (``pixelData[index + 1] ?? 0``).
"""
from __future__ import annotations

from typing import Any

from .._signature_args import (FNV_OFFSET, FNV_PRIME, QUANTIZE, as_image, as_pixel_bytes,
                               check_grid, check_stride, tile_rects)

_MASK = 0xFFFFFFFF


def _hash(data: bytes, stride: int) -> int:
    h = FNV_OFFSET
    n = len(data)
    for index in range(0, n, stride):
        h = ((h ^ QUANTIZE[data[index]]) * FNV_PRIME) & _MASK
        h = ((h ^ QUANTIZE[data[index + 1] if index + 1 < n else 0]) * FNV_PRIME) & _MASK
        h = ((h ^ QUANTIZE[data[index + 2] if index + 2 < n else 0]) * FNV_PRIME) & _MASK
    return h


def hash_pixel_data(rgba: Any, stride: Any = 8) -> int:
    """The spec's hashPixelData as an int (the JavaScript returns its decimal string)."""
    stride = check_stride(stride)
    return _hash(bytes(as_pixel_bytes(rgba)), stride)


def tile_signatures(image: Any, columns: Any, rows: Any, inset: Any = 4) -> list[int]:
    """hashPixelData (stride 8) of each tile's interior, slots in row-major order."""
    columns, rows, inset = check_grid(columns, rows, inset)
    img = as_image(image)
    height, width = img.shape[0], img.shape[1]
    xs, ys, inner_w, inner_h = tile_rects(height, width, columns, rows, inset)
    raw = img.tobytes()
    pitch = width * 4
    out = []
    for y in ys:
        for x in xs:
            # The bytes getImageData(x, y, inner_w, inner_h).data holds: the rectangle's rows
            # one after the other.
            tile = b"".join(raw[(y + r) * pitch + x * 4:(y + r) * pitch + (x + inner_w) * 4]
                            for r in range(inner_h))
            out.append(_hash(tile, 8))
    return out
