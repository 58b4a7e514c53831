"""Input checks for the Puzzle engine, shared by the compiled core and the reference twin.

The compiled loops run with bounds checks off, so everything they index is proven in range here
first; every error is a TypeError or ValueError that names the argument.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
MAX_TILES = 1 << 20  # far beyond any grid; keeps every count inside int32


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def as_int_vector(value: Any, name: str, *, allow_none: bool = False) -> list[int | None]:
    """A 1-D sequence of ints (list, tuple, range or numpy integer array) as a list."""
    if value is None:
        raise TypeError(f"{name} must be a sequence of ints, not None")
    if isinstance(value, (str, bytes, bytearray, dict, set, frozenset)):
        raise TypeError(f"{name} must be a sequence of ints, not {type(value).__name__}")
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ValueError(f"{name} must be 1-dimensional, got an array with {value.ndim} dimensions")
        if value.dtype.kind in "iu":
            return [int(x) for x in value.tolist()]
        if value.dtype.kind != "O":
            raise TypeError(f"{name} must hold integers, got an array of dtype {value.dtype}")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of ints, not {type(value).__name__}") from None
    if len(items) > MAX_TILES:
        raise ValueError(f"{name} has {len(items)} entries, more than the {MAX_TILES} supported")
    out: list[int | None] = []
    for i, x in enumerate(items):
        if x is None and allow_none:
            out.append(None)
        elif _is_int(x):
            out.append(int(x))
        else:
            raise TypeError(f"{name}[{i}] must be an int, not {type(x).__name__}")
    return out


def as_permutation(value: Any, name: str = "tiles_by_slot") -> I32:
    """A permutation of 0..n-1 as a C-contiguous int32 array."""
    items = as_int_vector(value, name)
    n = len(items)
    seen = bytearray(n)
    for i, x in enumerate(items):
        assert x is not None
        if not 0 <= x < n:
            raise ValueError(f"{name}[{i}] = {x} is out of range: a board of {n} tiles holds 0..{n - 1}")
        if seen[x]:
            raise ValueError(f"{name} is not a permutation: tile {x} appears twice")
        seen[x] = 1
    return np.array(items, dtype=np.int32)


def as_classes(value: Any, n: int, name: str = "signatures") -> tuple[I32, int]:
    """Signatures (ints; None marks a tile unlike any other) -> dense class ids 0..k-1 and k.

    Ids are given in order of first appearance so the mapping is deterministic.
    """
    items = as_int_vector(value, name, allow_none=True)
    if len(items) != n:
        raise ValueError(f"{name} has {len(items)} entries but the board has {n} tiles")
    ids: dict[int, int] = {}
    out = np.empty(n, dtype=np.int32)
    k = 0
    for i, x in enumerate(items):
        if x is None:
            out[i] = k
            k += 1
            continue
        c = ids.get(x)
        if c is None:
            c = ids[x] = k
            k += 1
        out[i] = c
    return out, k


def as_board_matrix(value: Any, name: str = "boards") -> I32:
    """A 2-D integer array, one permutation per row, as C-contiguous int32."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a 2-D array of ints, not {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except ValueError:  # ragged rows: numpy's message would not name the argument
        raise ValueError(f"{name} must be 2-dimensional with rows of equal length") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (one board per row), got {arr.ndim} dimensions")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    rows, n = arr.shape
    if n > MAX_TILES:
        raise ValueError(f"{name} rows have {n} entries, more than the {MAX_TILES} supported")
    if arr.size:
        if arr.min() < 0 or arr.max() >= n:
            bad = np.argwhere((arr < 0) | (arr >= n))[0]
            raise ValueError(f"{name}[{bad[0]}, {bad[1]}] = {arr[bad[0], bad[1]]} is out of range 0..{n - 1}")
        ok = (np.sort(arr, axis=1) == np.arange(n)).all(axis=1)
        if not ok.all():
            raise ValueError(f"{name}[{int(np.argmin(ok))}] is not a permutation (a tile appears twice)")
    return np.ascontiguousarray(arr, dtype=np.int32)


def as_method(method: Any) -> str:
    if method not in ("exact", "enumerate"):
        raise ValueError(f"method must be 'exact' or 'enumerate', got {method!r}")
    return str(method)


class ParSearchLimit(ValueError):
    """The exact par search used up its node budget (max_nodes) before proving the minimum.

    Raised instead of returning anything: a bound in place of par would let a client "beat" par.
    Real flag boards stay far inside the default budget; a board that hits it is adversarial or
    far outside the shipped grids. Pass a larger max_nodes (or None: no limit) to solve it anyway.
    """

    def __init__(self, n: int, k: int, max_nodes: int, row: int | None = None) -> None:
        where = "" if row is None else f"boards[{row}]: "
        super().__init__(
            f"{where}the exact par of this board ({n} tiles, {k} tile classes) needs more than "
            f"max_nodes={max_nodes} search nodes; pass a larger max_nodes, or max_nodes=None for no "
            f"limit, to solve it anyway (hard boards can take minutes)")
        self.n = n
        self.k = k
        self.max_nodes = max_nodes
        self.row = row

    def __reduce__(self) -> tuple[Any, ...]:
        # keeps the exception picklable (process pools hand it back to the parent)
        return (type(self), (self.n, self.k, self.max_nodes, self.row))


def as_max_nodes(max_nodes: Any) -> int:
    """None -> -1 (no limit, as the cores encode it); otherwise an int >= 1."""
    if max_nodes is None:
        return -1
    if not _is_int(max_nodes):
        raise TypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be >= 1 (or None for no limit), got {max_nodes}")
    if max_nodes >= 1 << 62:
        return -1  # beyond any int64 count: the same as no limit
    return int(max_nodes)
