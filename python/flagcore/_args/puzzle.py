"""Rules of the Puzzle engine: boards (permutations), tile classes, grids, swaps and swap logs, par options."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError, ArgumentTypeError
from .common import is_int

I32 = npt.NDArray[np.int32]
MAX_TILES = 1 << 20  # far beyond any grid; keeps every count inside int32

GRIDS: dict[str, tuple[int, int]] = {"easy": (3, 2), "medium": (4, 3), "hard": (5, 3)}
GRID_ALIASES: dict[str, str] = {"regular": "easy", "pro": "medium", "elite": "hard"}
MAX_GRID_SIDE = 32
_GRID_TEXT = re.compile(r"(\d+)\s*[x×]\s*(\d+)")


def as_int_vector(value: Any, name: str, *, allow_none: bool = False) -> list[int | None]:
    """A 1-D sequence of ints (list, tuple, range or numpy integer array) as a list."""
    if value is None:
        raise ArgumentTypeError(f"{name} must be a sequence of ints, not None")
    if isinstance(value, (str, bytes, bytearray, dict, set, frozenset)):
        raise ArgumentTypeError(f"{name} must be a sequence of ints, not {type(value).__name__}")
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ArgumentError(f"{name} must be 1-dimensional, got an array with {value.ndim} dimensions")
        if value.dtype.kind in "iu":
            return [int(x) for x in value.tolist()]
        if value.dtype.kind != "O":
            raise ArgumentTypeError(f"{name} must hold integers, got an array of dtype {value.dtype}")
    try:
        items = list(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a sequence of ints, not {type(value).__name__}") from None
    if len(items) > MAX_TILES:
        raise ArgumentError(f"{name} has {len(items)} entries, more than the {MAX_TILES} supported")
    out: list[int | None] = []
    for i, x in enumerate(items):
        if x is None and allow_none:
            out.append(None)
        elif is_int(x):
            out.append(int(x))
        else:
            raise ArgumentTypeError(f"{name}[{i}] must be an int, not {type(x).__name__}")
    return out


def as_permutation(value: Any, name: str = "tiles_by_slot") -> I32:
    """A permutation of 0..n-1 as a C-contiguous int32 array."""
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu" and value.size <= MAX_TILES:
        # numpy checks the range in C; the loop below then only runs to name a bad entry
        n = value.size
        if n == 0 or (int(value.min()) >= 0 and int(value.max()) < n):
            arr = np.ascontiguousarray(value, dtype=np.int32)
            seen = np.zeros(n, dtype=np.int8)
            seen[arr] = 1
            if n == 0 or seen.all():
                return arr
    items = as_int_vector(value, name)
    n = len(items)
    seen_list = bytearray(n)
    for i, x in enumerate(items):
        assert x is not None
        if not 0 <= x < n:
            raise ArgumentError(f"{name}[{i}] = {x} is out of range: a board of {n} tiles holds 0..{n - 1}")
        if seen_list[x]:
            raise ArgumentError(f"{name} is not a permutation: tile {x} appears twice")
        seen_list[x] = 1
    return np.array(items, dtype=np.int32)


def as_classes(value: Any, n: int, name: str = "signatures") -> tuple[I32, int]:
    """Signatures (ints; None marks a tile unlike any other) -> dense class ids 0..k-1 and k.

    Ids are given in order of first appearance so the mapping is deterministic.
    """
    items = as_int_vector(value, name, allow_none=True)
    if len(items) != n:
        raise ArgumentError(f"{name} has {len(items)} entries but the board has {n} tiles")
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
        raise ArgumentTypeError(f"{name} must be a 2-D array of ints, not {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except ValueError:  # ragged rows: numpy's message would not name the argument
        raise ArgumentError(f"{name} must be 2-dimensional with rows of equal length") from None
    if arr.ndim != 2:
        raise ArgumentError(f"{name} must be 2-dimensional (one board per row), got {arr.ndim} dimensions")
    if arr.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    rows, n = arr.shape
    if n > MAX_TILES:
        raise ArgumentError(f"{name} rows have {n} entries, more than the {MAX_TILES} supported")
    if arr.size:
        if arr.min() < 0 or arr.max() >= n:
            bad = np.argwhere((arr < 0) | (arr >= n))[0]
            raise ArgumentError(f"{name}[{bad[0]}, {bad[1]}] = {arr[bad[0], bad[1]]} is out of range 0..{n - 1}")
        ok = (np.sort(arr, axis=1) == np.arange(n)).all(axis=1)
        if not ok.all():
            raise ArgumentError(f"{name}[{int(np.argmin(ok))}] is not a permutation (a tile appears twice)")
    return np.ascontiguousarray(arr, dtype=np.int32)


def as_class_rows(signatures: Any, rows: int, n: int) -> tuple[I32, I32]:
    """min_swaps_batch's signatures (not None) for ``rows`` boards of ``n`` tiles -> (classes, ks).

    One 1-D signature list shared by every board, or a 2-D array with one signature row per board;
    ``classes`` is C-contiguous int32 of shape (rows, n), ``ks`` each row's class count.
    """
    if isinstance(signatures, np.ndarray) and signatures.ndim == 2:
        if signatures.shape[0] != rows:
            raise ArgumentError(f"signatures has {signatures.shape[0]} rows but boards has {rows}")
        pairs = [as_classes(signatures[r], n, f"signatures[{r}]") for r in range(rows)]
    else:
        if isinstance(signatures, np.ndarray) and signatures.ndim != 1:
            raise ArgumentError(f"signatures must be 1- or 2-dimensional, got {signatures.ndim} dimensions")
        pairs = [as_classes(signatures, n)] * rows
    classes = np.ascontiguousarray(np.array([c for c, _ in pairs], dtype=np.int32).reshape(rows, n))
    ks = np.array([k for _, k in pairs], dtype=np.int32)
    return classes, ks


def as_grid(grid: Any) -> tuple[int, int]:
    """'easy'|'medium'|'hard' (aliases regular/pro/elite), 'CxR', or (columns, rows) -> (columns, rows)."""
    if isinstance(grid, str):
        key = grid.strip().lower()
        key = GRID_ALIASES.get(key, key)
        if key in GRIDS:
            return GRIDS[key]
        match = _GRID_TEXT.fullmatch(key)
        if not match:
            raise ArgumentError(f"grid must be easy, medium, hard (or regular, pro, elite) or CxR, got {grid!r}")
        columns, rows = int(match.group(1)), int(match.group(2))
    elif isinstance(grid, (tuple, list)) and len(grid) == 2:
        columns, rows = grid
        if not (is_int(columns) and is_int(rows)):
            raise ArgumentTypeError(f"grid must be (columns, rows) as two ints, got {grid!r}")
        columns, rows = int(columns), int(rows)
    else:
        raise ArgumentTypeError(f"grid must be a name, 'CxR' or (columns, rows), not {type(grid).__name__}")
    if not (1 <= columns <= MAX_GRID_SIDE and 1 <= rows <= MAX_GRID_SIDE):
        raise ArgumentError(f"grid {columns}x{rows} is out of range: each side must be 1..{MAX_GRID_SIDE}")
    if columns * rows < 2:
        raise ArgumentError(f"grid {columns}x{rows} has a single tile: nothing to scramble")
    return columns, rows


def as_grid_signatures(value: Any, columns: int, rows: int, name: str = "flag_or_signatures") -> list[int | None]:
    """new_game's signature list: one int (or None) per tile of a columns x rows grid."""
    items = as_int_vector(value, name, allow_none=True)
    if len(items) != columns * rows:
        raise ArgumentError(f"{name} has {len(items)} entries but a {columns}x{rows} grid has {columns * rows} tiles")
    return items


def as_tile_index(index: Any, total: Any) -> tuple[int, int]:
    """background_percent's tile ``index`` of ``total`` tiles: ints with 0 <= index < max(total, 1)."""
    if not (is_int(index) and is_int(total)):
        raise ArgumentTypeError("index and total must be ints")
    if total < 0 or not 0 <= index < max(total, 1):
        raise ArgumentError(f"index must be in 0..total-1, got index={index}, total={total}")
    return int(index), int(total)


def as_method(method: Any) -> str:
    if method not in ("exact", "enumerate"):
        raise ArgumentError(f"method must be 'exact' or 'enumerate', got {method!r}")
    return str(method)


def as_max_nodes(max_nodes: Any) -> int:
    """None -> -1 (no limit, as the cores encode it); otherwise an int >= 1."""
    if max_nodes is None:
        return -1
    if not is_int(max_nodes):
        raise ArgumentTypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if max_nodes < 1:
        raise ArgumentError(f"max_nodes must be >= 1 (or None for no limit), got {max_nodes}")
    if max_nodes >= 1 << 62:
        return -1  # beyond any int64 count: the same as no limit
    return int(max_nodes)


def as_slot(slot: Any, which: str, n: int) -> int:
    """One slot of a PuzzleGame.swap: an int in 0..n-1 (``which`` is "a" or "b")."""
    if not is_int(slot):
        raise ArgumentTypeError(f"slot {which} must be an int, not {type(slot).__name__}")
    if not 0 <= slot < n:
        raise ArgumentError(f"slot {which} = {slot} is outside the board (0..{n - 1})")
    return int(slot)


def as_swap(a: Any, b: Any, n: int, solved: bool) -> tuple[int, int]:
    """PuzzleGame.swap's slots a and b on a board of n tiles: two different slots, and a game not yet over."""
    a = as_slot(a, "a", n)
    b = as_slot(b, "b", n)
    if a == b:
        raise ArgumentError(f"cannot swap slot {a} with itself")
    if solved:
        raise ArgumentError("the board is already solved")
    return a, b


def as_max_nodes_text(text: str, name: str = "--max-nodes") -> int | None:
    """A typed node budget (the CLI's --max-nodes): digits, or 'none' for no limit (then None)."""
    stripped = text.strip()
    if stripped.lower() == "none":
        return None
    if not (stripped.isascii() and stripped.isdigit()):  # isdigit alone passes "²", which int() refuses
        raise ArgumentError(f"{name} must be a positive int or 'none', got {text!r}")
    return int(text)


def as_swap_log(swaps: Any, n: int) -> list[tuple[int, int]]:
    """A client's swap log: a sequence of (slot, slot) pairs of distinct slots in 0..n-1."""
    if swaps is None or isinstance(swaps, (str, bytes)):
        raise ArgumentTypeError(f"swaps must be a sequence of (slot, slot) pairs, not {type(swaps).__name__}")
    try:
        log = list(swaps)
    except TypeError:
        raise ArgumentTypeError(f"swaps must be a sequence of (slot, slot) pairs, not {type(swaps).__name__}") from None
    pairs: list[tuple[int, int]] = []
    for i, move in enumerate(log):
        if isinstance(move, (str, bytes)):
            raise ArgumentTypeError(f"swaps[{i}] must be a pair of ints, not {type(move).__name__}")
        try:
            a, b = move
        except (TypeError, ValueError):
            raise ArgumentError(f"swaps[{i}] must be a pair of slots, got {move!r}") from None
        if not (is_int(a) and is_int(b)):
            raise ArgumentTypeError(f"swaps[{i}] must be a pair of ints, got {move!r}")
        if not (0 <= a < n and 0 <= b < n):
            raise ArgumentError(f"swaps[{i}] = {move!r} touches a slot outside the board (0..{n - 1})")
        if a == b:
            raise ArgumentError(f"swaps[{i}] swaps slot {a} with itself")
        pairs.append((int(a), int(b)))
    return pairs


# ---------------------------------------------------------------- verify's replay
# Both twins replay a swap log and report what is wrong as one of these codes; verify_error writes
# the message, so the five messages exist once.
VERIFY_TOO_FEW_TILES = 1
VERIFY_START_SOLVED = 2
VERIFY_MOVES_AFTER_SOLVED = 3  # detail: the index of the first move after the board was solved
VERIFY_NOT_SOLVED = 4
VERIFY_BELOW_PAR = 5  # detail: (moves, par)


def verify_error(code: int, detail: Any = None) -> ArgumentError:
    """The error verify raises for a replay that ended with status ``code``."""
    if code == VERIFY_TOO_FEW_TILES:
        return ArgumentError("start_tiles_by_slot must have at least 2 tiles")
    if code == VERIFY_START_SOLVED:
        return ArgumentError("start_tiles_by_slot is already solved: no game starts from it")
    if code == VERIFY_MOVES_AFTER_SOLVED:
        return ArgumentError(f"swaps[{detail}:] come after the board was already solved")
    if code == VERIFY_NOT_SOLVED:
        return ArgumentError("swaps do not solve the board")
    if code == VERIFY_BELOW_PAR:
        moves, par = detail
        return ArgumentError(f"swaps has {moves} moves, fewer than par {par}: the log is impossible")
    raise AssertionError(f"unknown verify status {code}")  # a twin reported a code this table lacks


def too_many_classes_error(max_dense: int) -> ArgumentError:
    """The exact par's limit on interleaved tile classes (a board far outside any flag's grid)."""
    return ArgumentError(f"the exact par handles at most {max_dense} interleaved tile classes")
