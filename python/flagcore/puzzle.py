"""The Puzzle transposition engine: a flag cut into a grid, scrambled, solved by swapping tiles.

``tiles_by_slot[slot]`` is the piece shown in ``slot``; piece ``i`` belongs in slot ``i``. Par is the
fewest swaps that make the board *look* solved (tiles with equal signatures are interchangeable),
and it is exact for every board (``method="exact"``); ``method="enumerate"`` reproduces the spec's
algorithm, including its upper-bound fallback past 750,000 candidates, for comparison.

Each function hands its arguments to the ``checked_*`` entry point of the compiled core
(flagcore._puzzle) or, with FLAGCORE_IMPL=python, of the reference twin; both check them by the
rules of flagcore._args (TypeError/ValueError naming the argument, the same message from both),
the compiled one in C in the same pass as the work.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ._args.common import as_flag_code
from ._args.puzzle import (
    GRID_ALIASES,
    GRIDS,
    as_board_matrix,
    as_class_rows,
    as_classes,
    as_grid,
    as_grid_signatures,
    as_max_nodes,
    as_method,
    as_swap,
    as_tile_index,
)
from ._args.puzzle import (
    MAX_GRID_SIDE as MAX_GRID_SIDE,  # re-exported: the largest side as_grid accepts
)
from ._impl import core
from .errors import ParSearchLimit
from .types import Grid

I32 = npt.NDArray[np.int32]

# GRIDS, GRID_ALIASES and MAX_GRID_SIDE come from flagcore._args.puzzle, whose as_grid reads them.
MAX_VISUAL_RESHUFFLE_ATTEMPTS = core.puzzle.MAX_VISUAL_RESHUFFLE_ATTEMPTS
# Node budget of the exact par search (see ParSearchLimit). Every bundled flag on every grid
# measured (docs/puzzle.md) needs a tiny fraction of it; an adversarial board stops in well
# under a second compiled instead of running for minutes.
DEFAULT_MAX_NODES = 4_000
_NO_LIMIT = 1 << 62  # as_max_nodes reads a budget from here up as no limit

__all__ = [
    "DEFAULT_MAX_NODES",
    "GRIDS",
    "GRID_ALIASES",
    "ParSearchLimit",
    "PuzzleGame",
    "PuzzleResult",
    "background_percent",
    "count_cycles",
    "count_cycles_batch",
    "daily",
    "is_strictly_solved",
    "is_visually_solved",
    "min_swaps_batch",
    "min_swaps_to_identity",
    "min_swaps_to_identity_batch",
    "min_swaps_to_visual_solve",
    "new_game",
    "resolve_grid",
    "verify",
]


# ---------------------------------------------------------------- the mathematics


def count_cycles(tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]]) -> int:
    """Cycles of the permutation, fixed points included (the spec's countCyclesOfPermutation)."""
    return int(core.puzzle.checked_count_cycles(tiles_by_slot))


def min_swaps_to_identity(tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]]) -> int:
    """Fewest swaps to put every piece in its home slot: n - count_cycles."""
    return int(core.puzzle.checked_min_swaps_to_identity(tiles_by_slot))


def is_strictly_solved(tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]]) -> bool:
    """True when piece i sits in slot i for every slot (the identity permutation)."""
    return bool(core.puzzle.checked_is_strictly_solved(tiles_by_slot))


def is_visually_solved(
    tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]],
    signatures: Sequence[int | None] | npt.NDArray[np.integer[Any]] | None,
) -> bool:
    """Every slot shows a tile that looks like the piece that belongs there (None: strict identity)."""
    return bool(core.puzzle.checked_is_visually_solved(tiles_by_slot, signatures))


def min_swaps_to_visual_solve(
    tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]],
    signatures: Sequence[int | None] | npt.NDArray[np.integer[Any]] | None,
    *,
    method: str = "exact",
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> int:
    """Par: the fewest swaps to a visually solved layout.

    method="exact" (default) is the true minimum for every board; method="enumerate" is the
    spec's algorithm (exact for K <= 3 and below the 750,000-candidate cap, else the identity
    count, an upper bound). signatures=None means every tile is distinct.

    The exact search is NP-hard in general: past ``max_nodes`` search nodes it raises
    ParSearchLimit (a ValueError) rather than return anything but the minimum; None: no limit.
    """
    return int(core.puzzle.checked_min_swaps(tiles_by_slot, signatures, method, max_nodes))


# ---------------------------------------------------------------- batch entry points (servers)


def count_cycles_batch(boards: Any) -> npt.NDArray[np.int64]:
    """count_cycles of every row of a 2-D integer array (one board per row), without the GIL."""
    return np.asarray(core.puzzle.count_cycles_batch(as_board_matrix(boards)), dtype=np.int64)


def min_swaps_to_identity_batch(boards: Any) -> npt.NDArray[np.int64]:
    """min_swaps_to_identity of every row, without the GIL."""
    return np.asarray(core.puzzle.min_swaps_to_identity_batch(as_board_matrix(boards)), dtype=np.int64)


def min_swaps_batch(
    boards: Any, signatures: Any = None, *, method: str = "exact", max_nodes: int | None = DEFAULT_MAX_NODES
) -> npt.NDArray[np.int64]:
    """Par of every row of ``boards``, without the GIL.

    ``signatures``: None (all tiles distinct), one 1-D signature list shared by every board (a
    server dealing many boards of one flag), or a 2-D array with one signature row per board.
    ``max_nodes`` bounds each board's exact search; ParSearchLimit names the first row past it.
    """
    method = as_method(method)
    budget = as_max_nodes(max_nodes)
    mat = as_board_matrix(boards)
    rows, n = mat.shape
    if signatures is None:
        return np.asarray(core.puzzle.min_swaps_to_identity_batch(mat), dtype=np.int64)
    classes, ks = as_class_rows(signatures, rows, n)
    return np.asarray(core.puzzle.min_swaps_batch(mat, classes, ks, method, budget), dtype=np.int64)


# ---------------------------------------------------------------- grids and rendering


def resolve_grid(grid: Grid | str) -> tuple[int, int]:
    """The (columns, rows) of a grid, from a name, a (columns, rows) pair or the text a person types.

    Args:
        grid: "easy" (3x2), "medium" (4x3) or "hard" (5x3), their aliases "regular", "pro" and
            "elite" (any case, surrounding spaces ignored), text "CxR" ("4x3", "6 × 4"), or a
            (columns, rows) pair of ints; each side 1..32, at least two tiles.

    Returns:
        (columns, rows).

    Raises:
        ArgumentError: an unknown name, a side out of 1..32, or a single tile.
        ArgumentTypeError: neither a str nor a pair of ints.
    """
    return as_grid(grid)


def _js_number(x: float) -> str:
    """JavaScript's Number#toString for a finite double (shortest round-trip digits, JS layout)."""
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    d = Decimal(repr(abs(x))).normalize()
    sign_bit, digit_tuple, exponent = d.as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    point = k + int(exponent)  # value = 0.digits * 10**point
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * (-point) + digits
    e = point - 1
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def background_percent(index: int, total: int) -> str:
    """The spec's getBackgroundPercent: CSS background-position of tile ``index`` of ``total``."""
    index, total = as_tile_index(index, total)
    if total <= 1:
        return "0%"
    return f"{_js_number((index / (total - 1)) * 100)}%"


# ---------------------------------------------------------------- the game


@dataclass(frozen=True)
class PuzzleResult:
    """The result screen: "Your swaps", "Min possible", swaps over par, "Perfect solve"."""

    swaps: int
    min_possible: int
    swaps_over_min: int
    perfect: bool
    solved: bool


@dataclass
class PuzzleGame:
    """One game. ``swap(a, b)`` exchanges two slots; every swap counts, look-alike tiles included.

    ``signatures`` holds one int per piece (equal ints look alike), or None when every tile is
    distinct (no flag, or artwork that could not be rendered): then only the identity solves it.
    """

    start: tuple[int, ...]
    signatures: list[int] | None
    par: int
    identity_mode: bool
    seed: int | str | None = None
    flag: str | None = None
    grid: tuple[int, int] = field(kw_only=True)  # (columns, rows), always known
    swap_count: int = 0
    moves: list[tuple[int, int]] = field(default_factory=list)
    _tiles: list[int] = field(default_factory=list, repr=False)
    # not compared: derived from signatures, and == on two arrays gives an array, which a
    # dataclass eq cannot read as a bool
    _classes: npt.NDArray[np.int32] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._tiles:
            self._tiles = list(self.start)
        if self.signatures is not None and self._classes is None:
            self._classes = as_classes(self.signatures, len(self.start))[0]

    @property
    def tiles_by_slot(self) -> list[int]:
        """The piece in each slot now (a copy; piece i belongs in slot i)."""
        return list(self._tiles)

    @property
    def solved(self) -> bool:
        """True when the board looks solved (look-alike pieces are interchangeable), or is the identity in strict mode."""  # noqa: E501
        if self._classes is None or self.identity_mode:
            return bool(core.puzzle.checked_is_strictly_solved(self._tiles))
        return bool(core.puzzle.checked_is_visually_solved(self._tiles, self._classes))

    def swap(self, a: int, b: int) -> bool:
        """Swap the tiles in slots a and b; return whether the board is now solved.

        A rejected swap (bad slot, same slot, finished game) raises and leaves the game unchanged.
        """
        a, b = as_swap(a, b, len(self._tiles), self.solved)
        self._tiles[a], self._tiles[b] = self._tiles[b], self._tiles[a]
        self.swap_count += 1
        self.moves.append((a, b))
        return self.solved

    def result(self) -> PuzzleResult:
        """The result screen so far: swaps, par (min_possible), swaps over par, perfect, solved."""
        return _result(self.swap_count, self.par, self.solved)


# The objects the public calls return, built without their dataclass __init__: a frozen
# dataclass stores each field through object.__setattr__, and PuzzleGame's __init__ runs its
# field defaults and __post_init__, which together cost more than the compiled deal or replay
# they return (docs/performance.md, "Profiles"). Each writes the same __dict__ its __init__ would
# (tests/puzzle/test_puzzle_game.py compares them).
_new = object.__new__
_set_attr = object.__setattr__


def _result(swaps: int, par: int, solved: bool) -> PuzzleResult:
    over = swaps - par if swaps > par else 0
    result = _new(PuzzleResult)
    fields = {"swaps": swaps, "min_possible": par, "swaps_over_min": over, "perfect": solved and over == 0}
    fields["solved"] = solved
    _set_attr(result, "__dict__", fields)
    return result


class _Plan(NamedTuple):
    """What new_game's checks and the signature lookup make of a flag (or signatures) and a grid."""

    source: Any  # the piece_signatures that rendered the flag (None: no flag); a replaced one (tests) misses
    flag: str | None
    grid: tuple[int, int]
    signatures: tuple[int | None, ...] | None
    classes: I32 | None
    k: int


# new_game's plans of flags: per (flag code, (columns, rows)) and, when the flag is a plain str and
# the grid a plain str or a pair of plain ints, per the flag and grid as given, so that a later call
# with the same ones runs no check but its seed's and max_nodes' (a flag's artwork is fixed).
# Bounded: past MAX_PLANS entries (typed variants of codes and grids) the dict starts again.
_plans: dict[tuple[str, Any], _Plan] = {}
MAX_PLANS = 4096
_signatures: Any = None  # flagcore.signatures, imported on the first flag (import flagcore stays light)


def _keep(key: tuple[str, Any], plan: _Plan) -> None:
    if len(_plans) >= MAX_PLANS:
        _plans.clear()
    _plans[key] = plan


def _make_plan(flag_or_signatures: Any, grid: Any, text_key: tuple[str, Any] | None) -> _Plan:
    """new_game's checks of its flag or signatures and its grid, in its order (after max_nodes)."""
    global _signatures
    columns, rows = as_grid(grid)
    n = columns * rows
    if isinstance(flag_or_signatures, str):
        flag = as_flag_code(flag_or_signatures, "flag")
        if _signatures is None:
            from . import signatures as module

            _signatures = module
        source = _signatures.piece_signatures
        plan = _plans.get((flag, (columns, rows)))
        if plan is None or plan.source is not source:
            sigs = source(flag, columns, rows)
            signatures = None if sigs is None else tuple(int(s) for s in sigs)
            classes: I32 | None = None
            k = n
            if signatures is not None:
                classes, k = as_classes(signatures, n)
                classes.setflags(write=False)  # shared by every game of the plan
            plan = _Plan(source, flag, (columns, rows), signatures, classes, k)
            _keep((flag, (columns, rows)), plan)
        if text_key is not None:
            _keep(text_key, plan)
        return plan
    if flag_or_signatures is None:
        return _Plan(None, None, (columns, rows), None, None, n)
    items = as_grid_signatures(flag_or_signatures, columns, rows)
    classes, k = as_classes(items, n)
    return _Plan(None, None, (columns, rows), tuple(items), classes, k)


def new_game(
    flag_or_signatures: str | Sequence[int | None] | npt.NDArray[np.integer[Any]] | None,
    grid: Grid = "hard",
    seed: int | str | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> PuzzleGame:
    """Deal a new board: shuffled until it does not look solved, with its exact par.

    Randomness comes from flagcore.Rng (mulberry32), so a seed deals the same board everywhere.
    The start is never solved: the spec's createShuffledBoard (Fisher-Yates until the board is not
    the identity), up to 24 reshuffles while it is visually solved, then the first pair swap that
    breaks it; one class only (all tiles alike) is the identity mode, solved only by the identity.

    Args:
        flag_or_signatures: a flag code ("FR": its tiles' signatures rendered by
            flagcore.signatures), a signature list (one int per piece, None for a piece unlike any
            other), or None (every tile distinct: strict identity).
        grid: a grid name or (columns, rows) (flagcore.types.Grid); ``resolve_grid`` reads typed text.
        seed: an int in [0, 2**32) or a str; None draws one from os.urandom and records it on the
            game, so every game can be replayed.
        max_nodes: the exact par search's node budget; None for no limit.

    Returns:
        The PuzzleGame, its ``start``, ``par`` and ``seed`` set.

    Raises:
        ArgumentError: a bad flag code, grid, seed value, signature count or max_nodes.
        ArgumentTypeError: an argument of the wrong type.
        ParSearchLimit: the board's exact par needs more than ``max_nodes`` search nodes.
    """
    if type(max_nodes) is int and 1 <= max_nodes < _NO_LIMIT:  # as_max_nodes's common case
        budget = max_nodes
    else:
        budget = as_max_nodes(max_nodes)
    text_key: tuple[str, Any] | None = None
    if type(flag_or_signatures) is str and (
        type(grid) is str or (type(grid) is tuple and len(grid) == 2 and type(grid[0]) is int and type(grid[1]) is int)
    ):  # exact types: (5.0, 3) or (True, 3) equals a key of ints, and must reach as_grid's check
        text_key = (flag_or_signatures, grid)
    plan = _plans.get(text_key) if text_key is not None else None
    if plan is None or plan.source is not _signatures.piece_signatures:
        plan = _make_plan(flag_or_signatures, grid, text_key)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    state = core.rng.seed_to_state(seed)  # validates the seed
    _, flag, dims, signatures, classes, k = plan
    start, par = core.puzzle.deal(dims[0] * dims[1], classes, k, state, budget)
    game = _new(PuzzleGame)
    game.__dict__ = {  # what PuzzleGame(...) stores, field by field (see _result)
        "start": start,
        "signatures": None if signatures is None else list(signatures),
        "par": par,
        "identity_mode": classes is not None and k == 1,
        "seed": seed,
        "flag": flag,
        "grid": dims,
        "swap_count": 0,
        "moves": [],
        "_tiles": list(start),
        "_classes": classes,
    }
    return game


def verify(
    start_tiles_by_slot: Sequence[int] | npt.NDArray[np.integer[Any]],
    swaps: Iterable[tuple[int, int] | Sequence[int]],
    signatures: Sequence[int | None] | npt.NDArray[np.integer[Any]] | None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> PuzzleResult:
    """Replay a client's swap log on the server and return the result screen it earns.

    Args:
        start_tiles_by_slot: the dealt board, a permutation of 0..n-1 (n >= 2), not solved.
        swaps: the log, (slot, slot) pairs in play order (JSON [a, b] lists too).
        signatures: one int per piece (None for a piece unlike any other), or None for strict
            identity, as in the game; a single class (all tiles alike) also means strict identity
            (the game's identity mode).
        max_nodes: the exact par search's node budget; None for no limit.

    Returns:
        The PuzzleResult the log earns (its swaps, par and how far over par).

    Raises:
        ArgumentError: the log is malformed, touches a slot outside the board or swaps a slot with
            itself, keeps swapping after the board is solved, does not solve the board, or has
            fewer swaps than par (impossible with an exact par, so such a log is forged).
        ArgumentTypeError: an argument or a move of the wrong type.
        ParSearchLimit: par needs more than ``max_nodes`` search nodes; the log is then neither
            accepted nor rejected (the server cannot prove par for that board).
    """
    moves, par = core.puzzle.checked_verify(start_tiles_by_slot, swaps, signatures, max_nodes)
    return _result(moves, par, True)


def daily(date: Any = None, max_nodes: int | None = DEFAULT_MAX_NODES) -> PuzzleGame:
    """The Puzzle daily of ``date`` (a date, 'YYYY-MM-DD', None: today in UTC).

    The flag rotates through every bundled flag with a country name before any comes back; the
    grid follows a weekly rhythm (``flagcore.season.WEEKLY_GRIDS``: easy Monday and Tuesday,
    medium Wednesday and Thursday, hard Friday to Sunday); the seed is "puzzle:YYYY-MM-DD".
    Raises TypeError/ValueError naming ``date`` (not a day, or before the schedule's epoch).
    """
    from .season import puzzle_plan

    flag, grid, seed = puzzle_plan(date)
    return new_game(flag, resolve_grid(grid), seed=seed, max_nodes=max_nodes)
