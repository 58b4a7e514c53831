"""Pure-Python hashPixelData and tile signatures, the twin of flagcore._signatures.

A direct transcription of the spec's JavaScript: one FNV-1a 32 chain per buffer, a byte past
the end of the buffer reads as 0 (``pixelData[index + 1] ?? 0``). The visual signature compares
tiles with numpy in integers, pair by pair in the same order as the compiled loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._args.signatures import (
    FNV_OFFSET,
    FNV_PRIME,
    QUANTIZE,
    SEAM_BAND,
    SEAM_TOLERANCE,
    SHOWN_TOLERANCE,
    as_image,
    as_pixel_bytes,
    check_grid,
    check_stride,
    check_tile_grid,
    tile_rects,
)

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
            tile = b"".join(raw[(y + r) * pitch + x * 4 : (y + r) * pitch + (x + inner_w) * 4] for r in range(inner_h))
            out.append(_hash(tile, 8))
    return out


def visual_signatures(image: Any, columns: Any, rows: Any) -> list[int]:
    """The lowest piece index that looks like each tile, slots in row-major order."""
    columns, rows, _ = check_grid(columns, rows, 0)
    img = as_image(image)
    tw, th = check_tile_grid(img.shape[0], img.shape[1], columns, rows)
    rgb = img[:, :, :3].astype(np.int32)
    alpha = img[:, :, 3:].astype(np.int32)
    shown = (rgb * alpha + 255 * (255 - alpha) + 127) // 255  # over a white page
    tiles = [shown[r * th : (r + 1) * th, c * tw : (c + 1) * tw] for r in range(rows) for c in range(columns)]
    limit = np.full((th, tw, 1), SEAM_TOLERANCE, dtype=np.int32)
    limit[SEAM_BAND : th - SEAM_BAND, SEAM_BAND : tw - SEAM_BAND] = SHOWN_TOLERANCE
    n = len(tiles)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            ri, rj = root(i), root(j)
            if ri != rj and bool(np.all(np.abs(tiles[i] - tiles[j]) <= limit)):
                parent[max(ri, rj)] = min(ri, rj)  # a class is named by its lowest piece
    return [root(i) for i in range(n)]
