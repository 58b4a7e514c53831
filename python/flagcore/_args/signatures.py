"""Argument checks and tile geometry shared by the compiled and the reference signatures.

Both implementations call these before hashing, so they accept and reject exactly the same
inputs and cut tiles at exactly the same pixels; the compiled loops then run with bounds
checks off.

Tile geometry (what the spec's canvas code does with ``getImageData``): the image is W x H
pixels, a tile is ``tw = W / columns`` by ``th = H / rows`` (IEEE doubles, as in JavaScript),
and the interior of tile (column c, row r) is the rectangle

    getImageData(c * tw + inset, r * th + inset, tw - 2 * inset, th - 2 * inset)

whose arguments are WebIDL ``long``s, i.e. truncated toward zero. So the interior starts at
x = trunc(c * tw + inset), y = trunc(r * th + inset) and is trunc(tw - 2 * inset) wide and
trunc(th - 2 * inset) tall. Every tile's interior therefore has the same size: when H / rows is
fractional (160 px / 3 rows = 53.33 px) the rows start at floor(r * th) + inset and the last
pixel row or two of the image belongs to no interior. Two tiles that look the same thus hash
the same wherever they sit. An interior of zero or negative size (getImageData would throw) is
a ValueError.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError, ArgumentTypeError

U8Array = npt.NDArray[np.uint8]

FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
COLOR_QUANTUM = 32
STRIDE_CAP = 1 << 40  # longer than any buffer that fits in memory
MAX_COLUMNS = 64  # a rendered flag is columns * 48 px wide: 3072 px at most
MAX_ROWS = 64
METHODS = ("visual", "spec")  # piece_signatures(method=...); the first is the default
# The spec's quantizeChannel, Math.min(255, Math.round(c / 32) * 32), for every byte value.
# Math.round rounds halves up (16 -> 32, 48 -> 64), unlike Python's round (16 -> 0), so the
# table is built with integer arithmetic: round-half-up of c / 32 is (c + 16) // 32.
QUANTIZE = bytes(min(255, ((c + COLOR_QUANTUM // 2) // COLOR_QUANTUM) * COLOR_QUANTUM) for c in range(256))


def _whole(value: Any, name: str) -> int:
    """An int (or numpy integer), never a bool or a float."""
    if isinstance(value, bool) or isinstance(value, (float, np.floating)):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    try:
        return int(operator.index(value))
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}") from None


def check_stride(stride: Any) -> int:
    step = _whole(stride, "stride")
    if step < 1:
        # The JavaScript loop never ends for stride <= 0.
        raise ArgumentError(f"stride must be >= 1, got {step}")
    # Any stride at least the buffer's length samples byte 0 only, so capping changes no result;
    # it keeps the compiled loop's Py_ssize_t offset arithmetic (off + stride) from overflowing.
    return min(step, STRIDE_CAP)


def check_grid(columns: Any, rows: Any, inset: Any) -> tuple[int, int, int]:
    c, r, i = _whole(columns, "columns"), _whole(rows, "rows"), _whole(inset, "inset")
    if c < 1:
        raise ArgumentError(f"columns must be >= 1, got {c}")
    if r < 1:
        raise ArgumentError(f"rows must be >= 1, got {r}")
    if i < 0:
        raise ArgumentError(f"inset must be >= 0, got {i}")
    return c, r, i


def as_columns(columns: Any) -> int:
    """A rendered flag's columns: an int in 1..MAX_COLUMNS."""
    checked = check_grid(columns, 1, 0)[0]
    if checked > MAX_COLUMNS:
        raise ArgumentError(f"columns must be <= {MAX_COLUMNS}, got {checked}")
    return checked


def as_rows(rows: Any) -> int:
    """A rendered flag's rows: an int in 1..MAX_ROWS."""
    checked = check_grid(1, rows, 0)[1]
    if checked > MAX_ROWS:
        raise ArgumentError(f"rows must be <= {MAX_ROWS}, got {checked}")
    return checked


def as_signature_method(method: Any) -> str:
    """piece_signatures' method: one of METHODS."""
    if not isinstance(method, str):
        raise ArgumentTypeError(f"method must be a str, not {type(method).__name__}")
    if method not in METHODS:
        raise ArgumentError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    return method


def as_svg_or_code(value: Any) -> str | bytes:
    """A flag code or SVG text (str, passed through: the caller tells them apart) or SVG bytes (as bytes)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise ArgumentTypeError(
        f"svg_or_code must be a flag code (str), SVG text (str) or SVG bytes, not {type(value).__name__}"
    )


def as_pixel_bytes(rgba: Any) -> bytes | bytearray | U8Array:
    """The bytes hashPixelData sees, as a flat C-contiguous buffer of unsigned bytes.

    bytes and bytearray pass through. A memoryview or numpy array must hold unsigned bytes
    (format "B" / dtype uint8); any shape is read in C (row-major) order, the order of
    ``arr.tobytes()``, so a non-contiguous view is copied once.
    """
    if isinstance(rgba, (bytes, bytearray)):
        return rgba
    if isinstance(rgba, (memoryview, np.ndarray)):
        arr = np.asarray(rgba)
        if arr.dtype != np.uint8:
            raise ArgumentTypeError(f"rgba must hold unsigned bytes (uint8), not {arr.dtype}")
        return np.ascontiguousarray(arr).reshape(-1)
    raise ArgumentTypeError(
        f"rgba must be bytes, bytearray, memoryview or a numpy uint8 array, not {type(rgba).__name__}"
    )


def as_image(image: Any) -> U8Array:
    """A C-contiguous (H, W, 4) uint8 RGBA array (copied only when not contiguous)."""
    if not isinstance(image, np.ndarray):
        raise ArgumentTypeError(f"image must be a numpy uint8 array of shape (H, W, 4), not {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ArgumentTypeError(f"image must hold uint8 RGBA, not {image.dtype}")
    if image.ndim != 3 or image.shape[2] != 4:
        raise ArgumentError(f"image must have shape (H, W, 4), got {image.shape}")
    return np.ascontiguousarray(image)


def tile_rects(height: int, width: int, columns: int, rows: int, inset: int) -> tuple[list[int], list[int], int, int]:
    """(x of each column's interior, y of each row's interior, interior width, height).

    See the module docstring: WebIDL long truncation of the canvas arguments, computed in
    doubles like the JavaScript.
    """
    tw = width / columns
    th = height / rows
    inner_w = math.trunc(tw - 2 * inset)
    inner_h = math.trunc(th - 2 * inset)
    if inner_w < 1 or inner_h < 1:
        raise ArgumentError(
            f"a {width}x{height} image cut into {columns}x{rows} tiles with inset {inset} leaves "
            f"an empty tile interior ({inner_w}x{inner_h} px)"
        )
    xs = [math.trunc(c * tw + inset) for c in range(columns)]
    ys = [math.trunc(r * th + inset) for r in range(rows)]
    return xs, ys, inner_w, inner_h


# ---------------------------------------------------------------- the visual signature
#
# A tile as a player sees it: the game shows each piece in its own box (the flag is the box's
# CSS background, sized columns x 100% by rows x 100%), so every piece is drawn at the same pixel
# phase. ``flagcore.signatures`` renders the flag that way (whole-pixel tiles, TILE_WIDTH px
# wide) and the visual signature compares the tiles' pixels, composited over a white page.
#
# Two tiles are *linked* when every pixel of one is within SHOWN_TOLERANCE levels (each of R, G,
# B) of the same pixel of the other, except in the SEAM_BAND px ring along the tile's edges,
# where SEAM_TOLERANCE levels are allowed: a feature that ends within half a pixel of a tile's
# edge leaves a faint anti-aliased line there that nobody sees as part of the picture. Classes
# are the connected components of "linked" (union-find), so look-alike is an equivalence
# relation, and a tile's signature is the lowest piece index of its class.
SHOWN_TOLERANCE = 32  # one step of the spec's colour quantum; cairo's rounding noise is <= 2
SEAM_TOLERANCE = 128  # an edge pixel may differ by less than half of full contrast
SEAM_BAND = 1  # px along each edge of a tile


def check_tile_grid(height: int, width: int, columns: int, rows: int) -> tuple[int, int]:
    """(tile width, tile height) of an image cut into whole-pixel tiles, else ValueError."""
    if width % columns or height % rows:
        raise ArgumentError(
            f"a {width}x{height} image does not cut into {columns}x{rows} whole-pixel tiles "
            f"(render it with flagcore.signatures.render_flag(..., rows={rows}))"
        )
    if width == 0 or height == 0:
        raise ArgumentError(f"a {width}x{height} image has no pixels to cut into tiles")
    return width // columns, height // rows
