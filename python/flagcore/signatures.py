"""Tile signatures: which puzzle tiles look alike.

Two signatures, both compiled without the GIL (``FLAGCORE_IMPL=python`` selects the pure-Python
twin):

* ``method="visual"`` (the default everywhere): ``visual_signatures`` compares whole tiles as a
  player sees them, edges included (the rule is in ``flagcore._args.signatures``), on a flag
  rendered the way the game shows it: ``render_flag(code, columns, rows)``, every tile a whole
  number of pixels. A tile's signature is the lowest piece index that looks like it.
* ``method="spec"``: the spec's hashPixelData (FNV-1a 32 over quantized RGB, every 8th byte,
  alpha ignored) of each tile's interior (a 4 px inset) on the spec's canvas
  (``render_flag(code, columns)``): ``hash_pixel_data`` and ``tile_signatures``, byte for byte
  the browser's. It merges tiles that differ near their edges or between sampled pixels.

``piece_signatures`` puts rendering and signature together for the puzzle: bundled flags at the
three grids come from a precomputed table shipped in the wheel, everything else is rendered once
and cached. The spec's tile geometry is documented in ``flagcore._args.signatures``, the
renderer's safety rules in ``flagcore._svg_render``.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ._args.common import as_flag_code
from ._args.signatures import (
    MAX_COLUMNS,
    MAX_ROWS,
    METHODS,
    as_columns,
    as_rows,
    as_signature_method,
    as_svg_or_code,
)
from ._impl import core
from ._svg_render import SvgRenderError, render_svg
from .errors import ArgumentError, CairoMissingError

__all__ = [
    "hash_pixel_data",
    "tile_signatures",
    "visual_signatures",
    "render_flag",
    "piece_signatures",
    "METHODS",
    "flag_svg",
    "bundled_codes",
    "clear_cache",
    "SvgRenderError",
    "TILE_WIDTH",
    "INSET",
    "TABLE_GRIDS",
    "MAX_COLUMNS",
    "MAX_ROWS",
]

TILE_WIDTH = 48  # px per column: the canvas is columns * 48 px wide
INSET = 4  # px kept off each tile's edges (anti-aliased seams)
TABLE_GRIDS = ((3, 2), (4, 3), (5, 3))  # the game's grids: precomputed for bundled flags
# MAX_COLUMNS, MAX_ROWS and METHODS come from flagcore._args.signatures, whose rules read them.
TABLE_FILE = "signatures.json"


def hash_pixel_data(rgba: bytes | bytearray | memoryview | npt.NDArray[np.uint8], stride: int = 8) -> int:
    """The spec's hashPixelData: FNV-1a 32 over quantized RGB of every ``stride``-th byte (alpha ignored)."""
    return core.signatures.hash_pixel_data(rgba, stride)


def tile_signatures(image: npt.NDArray[np.uint8], columns: int, rows: int, inset: int = INSET) -> list[int]:
    """The spec's signature of each tile of ``image`` cut into columns x rows: hash_pixel_data of its interior."""
    return core.signatures.tile_signatures(image, columns, rows, inset)


def visual_signatures(image: npt.NDArray[np.uint8], columns: int, rows: int) -> list[int]:
    """Tile classes of ``image`` cut into columns x rows by how the tiles look (look-alike tiles share one)."""
    return core.signatures.visual_signatures(image, columns, rows)


_CACHE_SIZE = 4096


def _flags_dir() -> Any:
    return importlib.resources.files("flagcore") / "flags"


def bundled_codes() -> list[str]:
    """Codes of every bundled flag artwork (flags/svg/CODE.svg), sorted."""
    return sorted(entry.name[:-4] for entry in (_flags_dir() / "svg").iterdir() if entry.name.endswith(".svg"))


def flag_svg(code: str) -> bytes:
    """The bundled SVG of a flag code (case-insensitive); ValueError for an unknown code."""
    entry = _flags_dir() / "svg" / f"{as_flag_code(code, 'code')}.svg"
    if not entry.is_file():
        # Stays here: whether artwork exists depends on the files shipped, not on the code's form.
        raise ArgumentError(f"no bundled flag artwork for code {code!r}")
    return bytes(entry.read_bytes())


def _svg_bytes(svg_or_code: Any) -> bytes:
    """The SVG bytes of a flag code, SVG text or SVG bytes. A str is a flag code unless it contains '<'."""
    source = as_svg_or_code(svg_or_code)
    if isinstance(source, bytes):
        return source
    if "<" in source:
        return source.encode("utf-8")
    return flag_svg(source)


def render_flag(
    svg_or_code: str | bytes | bytearray | memoryview, columns: int, rows: int | None = None
) -> npt.NDArray[np.uint8]:
    """Draw a flag ``columns * 48`` px wide at its own aspect ratio -> (H, W, 4) uint8 RGBA.

    ``svg_or_code`` is a bundled flag code ("FR"), SVG text or SVG bytes. Colours are
    un-premultiplied like a canvas's getImageData. Without ``rows`` this is the spec's canvas.
    With ``rows`` it is the board as the game shows it: the height is rounded to ``rows`` tiles
    of whole pixels (the artwork stretched by less than half a pixel per tile row), so every
    piece sits at the same pixel phase, as each is drawn into its own box. Raises
    SvgRenderError (a ValueError) when the artwork is malformed, hostile, refers to any
    external resource or would need an absurd canvas; no file or URL the SVG names is ever read.
    """
    columns = as_columns(columns)
    multiple = None if rows is None else as_rows(rows)
    data = _svg_bytes(svg_or_code)
    return render_svg(data, columns * TILE_WIDTH, multiple)


class _Cache:
    """A bounded LRU map guarded by a lock: safe to share between server threads.

    The lock is held only for lookups and stores; two threads missing the same key both
    compute it (the result is deterministic), which keeps a slow render from blocking others.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[Any, tuple[int, ...] | None] = OrderedDict()

    def get(self, key: Any) -> tuple[bool, tuple[int, ...] | None]:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return True, self._items[key]
        return False, None

    def put(self, key: Any, value: tuple[int, ...] | None) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_cache = _Cache(_CACHE_SIZE)
_table_lock = threading.Lock()
# code -> method -> "CxR" -> signatures
_table: dict[str, dict[str, dict[str, list[int] | None]]] | None = None


def _load_table() -> dict[str, dict[str, dict[str, list[int] | None]]]:
    global _table
    with _table_lock:
        if _table is None:
            entry = _flags_dir() / TABLE_FILE
            loaded = json.loads(entry.read_text("utf-8")) if entry.is_file() else {"flags": {}}
            _table = {
                code: {method: row.get(method, {}) for method in METHODS} for code, row in loaded["flags"].items()
            }
        return _table


def clear_cache() -> None:
    """Forget every cached signature list (the precomputed table stays)."""
    _cache.clear()


def compute_signatures(data: bytes, columns: int, rows: int, method: str) -> list[int]:
    """Render SVG bytes and sign every tile, uncached (raises SvgRenderError/ValueError)."""
    if method == "spec":
        return tile_signatures(render_svg(data, columns * TILE_WIDTH), columns, rows, INSET)
    return visual_signatures(render_svg(data, columns * TILE_WIDTH, rows), columns, rows)


def _compute(data: bytes, columns: int, rows: int, method: str) -> tuple[int, ...] | None:
    try:
        return tuple(compute_signatures(data, columns, rows, method))
    except ValueError:
        # SvgRenderError, or a flag too thin to leave a tile interior at this many rows.
        return None


def piece_signatures(
    svg_or_code: str | bytes | bytearray | memoryview, columns: int, rows: int, method: str = "visual"
) -> list[int] | None:
    """Signature of every tile (slots in row-major order), or None when it cannot be rendered.

    Tiles with equal signatures look alike. ``method="visual"`` (default) compares whole tiles
    as the game shows them; ``method="spec"`` is the browser's hashPixelData of each interior.

    Bad argument types or values (columns="x", rows=0, an unknown flag code) raise
    TypeError/ValueError; anything wrong with the artwork itself, or a flag too thin for the
    requested rows, gives None and the game falls back to strict identity. Without the cairo
    library (libcairo2) it gives None too, with a RuntimeWarning saying what to install. Bundled
    flags at 3x2, 4x3 and 5x3 come from the precomputed table; other results are cached in-process
    (thread-safe, bounded LRU).
    """
    columns = as_columns(columns)
    rows = as_rows(rows)
    method = as_signature_method(method)
    if isinstance(svg_or_code, str) and "<" not in svg_or_code:
        code = as_flag_code(svg_or_code, "code")
        row = _load_table().get(code)
        grid = f"{columns}x{rows}"
        if row is not None and grid in row[method]:
            sigs = row[method][grid]
            return None if sigs is None else list(sigs)
        key: Any = ("code", code, columns, rows, method)
        load: Callable[[], bytes] = lambda: flag_svg(code)  # read only on a cache miss
    else:
        data = _svg_bytes(svg_or_code)
        key = ("svg", hashlib.blake2b(data, digest_size=20).digest(), columns, rows, method)
        load = lambda: data  # noqa: E731
    found, value = _cache.get(key)
    if not found:
        try:
            value = _compute(load(), columns, rows, method)
        except CairoMissingError as exc:  # not cached: installing libcairo2 fixes it
            warnings.warn(f"{exc}; piece_signatures returns None (strict identity)", RuntimeWarning, stacklevel=2)
            return None
        _cache.put(key, value)
    return None if value is None else list(value)
