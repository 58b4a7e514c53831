"""Many Connections boards at once: ``generate_many`` and the compact ``BoardBatch`` it returns."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, overload

import numpy as np

from .. import _connections_layout as _layout
from .._args.connections import (
    as_difficulty,
    as_flag,
    as_index,
    as_mode,
    as_seed_sequence,
    as_threads,
    difficulty_target,
    in_item,
)
from .._engines import ConnectionsEngine
from .._impl import core
from ..library import Library
from ..types import Difficulty, Mode
from .assembly import board
from .board import Board, Group, frozen_from_fields
from .difficulty import model_tables
from .search import normal_seed
from .tables import Tables, tables_for

MIN_CHUNK = 512  # seeds per thread below which generate_many stays on the calling thread
CHUNKS_PER_THREAD = 4  # a batch on threads is cut in about this many chunks per thread
SMALLEST_CHUNK = 128  # seeds: a chunk is one GIL release, worth it from about 64 boards (gil_handoff.py)


def _seed_states(seeds: Any) -> tuple[np.ndarray, Sequence[int | str]]:
    """(uint32 states, seeds as the Boards record them) from a sequence or an integer array."""
    checked = as_seed_sequence(seeds)
    if isinstance(checked, np.ndarray):
        seeds_view: Sequence[int | str] = checked  # type: ignore[assignment]  # int() on access in BoardBatch
        return checked, seeds_view
    items: list[Any] = checked
    if items and all(type(s) is int for s in items) and 0 <= min(items) and max(items) < 2**32:
        # the common case, checked in bulk; anything else is checked (and named) seed by seed below
        return np.array(items, dtype=np.uint32), items
    states = np.empty(len(items), dtype=np.uint32)
    out: list[int | str] = []
    for i, s in enumerate(items):
        try:
            board_seed, states[i] = normal_seed(s)
        except (TypeError, ValueError) as exc:
            # the seed's own error, re-raised with its place in the batch
            raise in_item(exc, i) from None
        out.append(board_seed)
    return states, out


class BoardBatch(Sequence[Board]):
    """Many boards as compact arrays (one row per seed); ``batch[i]`` builds the Board on demand.

    Arrays (row i is seed i): ``status`` int8 (0 board, 1 no board), ``categories`` int32 (n, 4)
    (indices into ``tables.categories``), ``group_tiles`` int32 (n, 16) (four tiles per group in
    tier order, code indices), ``tiles`` int32 (n, 16) (the shuffled board), ``decoys`` int32 (n, 3)
    (tier, removed, added; -1 when no decoy), ``counters`` int32 (n, 15) (see
    flagcore.reference.connections.COUNTERS), ``ambiguous`` int8 (n) (tiles in another group's pool),
    ``arguable`` int8 (n) (tiles in another group's arguable set). A batch steered by a difficulty
    has its groups in colour order and ``model`` int32 (n, MODEL_ROW) (flagcore._connections_layout:
    attempt, tempting phantoms, hidden pair, per colour its score, search tier and simpler-label flag);
    ``difficulty`` is what it was steered to (None: the search alone).
    """

    def __init__(
        self,
        tables: Tables,
        seeds: Sequence[int | str],
        legacy: bool,
        arrays: dict[str, np.ndarray],
        difficulty: Any = None,
        simpler: Sequence[str | None] = (),
    ):
        self.tables = tables
        self.mode = tables.mode
        self.legacy = legacy
        self.seeds = seeds
        self.status: np.ndarray = arrays["status"]
        self.categories: np.ndarray = arrays["categories"]
        self.group_tiles: np.ndarray = arrays["group_tiles"]
        self.tiles: np.ndarray = arrays["tiles"]
        self.decoys: np.ndarray = arrays["decoys"]
        self.counters: np.ndarray = arrays["counters"]
        self.ambiguous: np.ndarray = arrays["ambiguous"]
        self.arguable: np.ndarray = arrays["arguable"]
        self.model: np.ndarray | None = arrays.get("model")
        self.difficulty = difficulty
        self._simpler = simpler  # per category: the label without its clause, or None

    def __len__(self) -> int:
        return int(self.status.shape[0])

    @overload
    def __getitem__(self, i: int) -> Board: ...

    @overload
    def __getitem__(self, i: slice) -> list[Board]: ...

    def __getitem__(self, i: int | slice) -> Board | list[Board]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        j = as_index(i, len(self), "BoardBatch")
        seed = self.seeds[j]
        raw = (
            int(self.status[j]),
            self.categories[j].tolist(),
            self.group_tiles[j].tolist(),
            self.tiles[j].tolist(),
            self.decoys[j].tolist(),
            self.counters[j].tolist(),
            int(self.ambiguous[j]),
            int(self.arguable[j]),
            None,
        )
        made = board(self.tables, seed if isinstance(seed, str) else int(seed), self.legacy, raw)
        if self.model is None:
            return made
        return self._steered(made, self.model[j].tolist())

    def _steered(self, made: Board, row: list[int]) -> Board:
        """A steered row's Board as generate makes it: simpler labels and stats["model"]."""
        groups: tuple[Group, ...] = made.groups
        flags = row[_layout.M_SIMPLER : _layout.M_SIMPLER + 4]
        if any(flags):
            index = self.tables.index
            groups = tuple(
                frozen_from_fields(
                    Group,
                    {
                        "tier": g.tier,
                        "label": self._simpler[index[g.category_id]] if flag else g.label,
                        "codes": g.codes,
                        "category_id": g.category_id,
                    },
                )
                for g, flag in zip(groups, flags)
            )
            object.__setattr__(made, "groups", groups)  # a Board is frozen; it is ours until returned
        made.stats["model"] = {
            "attempt": row[_layout.M_ATTEMPT],
            "tempting_phantoms": row[_layout.M_TEMPTING],
            "hidden_pair": row[_layout.M_PAIR],
            "scores": row[_layout.M_SCORES : _layout.M_SCORES + 4],
            "search_tiers": row[_layout.M_SEARCH_TIERS : _layout.M_SEARCH_TIERS + 4],
            "difficulty": self.difficulty,
        }
        return made

    def __iter__(self) -> Iterator[Board]:
        return (self[j] for j in range(len(self)))

    @property
    def ok(self) -> np.ndarray:
        """True where a board was found."""
        return np.asarray(self.status == _layout.STATUS_OK)

    @property
    def moves_tried(self) -> np.ndarray:
        """Moves the search tried, per seed (int array; board.stats["moves_tried"])."""
        return np.asarray(self.counters[:, _layout.C_MOVES])

    @property
    def backtracks(self) -> np.ndarray:
        """Moves the search undid, per seed (int array; board.stats["backtracks"])."""
        return np.asarray(self.counters[:, _layout.C_BACKTRACKS])

    @property
    def decoy_applied(self) -> np.ndarray:
        """True where the decoy step changed the board (bool array; board.stats["decoy_applied"])."""
        return np.asarray(self.decoys[:, 0] >= 0)

    def __repr__(self) -> str:
        return f"<BoardBatch {len(self)} boards, mode {self.mode!r}{', legacy' if self.legacy else ''}>"


def _alloc(n: int) -> dict[str, np.ndarray]:
    return {
        "status": np.zeros(n, dtype=np.int8),
        "categories": np.zeros((n, 4), dtype=np.int32),
        "group_tiles": np.zeros((n, 16), dtype=np.int32),
        "tiles": np.zeros((n, 16), dtype=np.int32),
        "decoys": np.zeros((n, 3), dtype=np.int32),
        "counters": np.zeros((n, _layout.COUNTERS), dtype=np.int32),
        "ambiguous": np.zeros(n, dtype=np.int8),
        "arguable": np.zeros(n, dtype=np.int8),
    }


def generate_many_with(
    impl: ConnectionsEngine,
    seeds: Any,
    mode: Mode = "flags",
    *,
    threads: int | None = None,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    difficulty: Difficulty | None = "normal",
) -> BoardBatch:
    """``generate_many`` computed by ``impl`` (the compiled core or the reference twin)."""
    mode = as_mode(mode)
    nthreads = as_threads(threads)
    decoy = as_flag(decoy, "decoy")
    legacy = as_flag(legacy, "legacy")
    difficulty = None if legacy else as_difficulty(difficulty)
    states, board_seeds = _seed_states(seeds)
    tables, prepared = tables_for(impl, library, mode)
    n = len(states)
    arrays = _alloc(n)
    order = ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous", "arguable")
    simpler: Sequence[str | None] = ()
    if difficulty is not None:
        mt = model_tables(impl, library, mode)
        simpler = [d.simpler for d in mt.data]
        arrays["model"] = np.zeros((n, _layout.MODEL_ROW), dtype=np.int32)
        target = difficulty_target(difficulty)

        def run(lo: int, hi: int) -> None:
            impl.search_many_model(
                prepared, mt.prepared, states[lo:hi], decoy, *target, *(arrays[k][lo:hi] for k in (*order, "model"))
            )
    else:

        def run(lo: int, hi: int) -> None:
            impl.search_many(prepared, states[lo:hi], legacy, decoy, *(arrays[k][lo:hi] for k in order))

    if nthreads is None:
        nthreads = os.cpu_count() or 1
    nthreads = max(1, min(nthreads, n // MIN_CHUNK)) if threads is None else min(nthreads, max(n, 1))

    if nthreads == 1:
        run(0, n)
    else:
        _on_threads(run, n, nthreads)
    return BoardBatch(tables, board_seeds, legacy, arrays, difficulty, simpler)


def _on_threads(run: Callable[[int, int], None], n: int, nthreads: int) -> None:
    """run(lo, hi) over chunks of 0..n on ``nthreads`` threads, the calling one among them: each
    thread takes the next chunk when it is done with its own. Halves fixed in advance end when the
    slower thread does (a thread that shares its core with another process, or that started late);
    taken in turn, the chunks keep both threads busy to the end, and the calling thread works
    instead of waiting for a pool's second thread to wake."""
    chunk = max(SMALLEST_CHUNK, -(-n // (nthreads * CHUNKS_PER_THREAD)))
    chunk = min(chunk, -(-n // nthreads))  # at least one chunk per thread
    starts = iter(range(0, n, chunk))
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                lo = next(starts, None)
            if lo is None:
                return
            run(lo, min(lo + chunk, n))

    with ThreadPoolExecutor(max_workers=nthreads - 1, thread_name_prefix="flagcore-connections") as pool:
        helpers = [pool.submit(work) for _ in range(nthreads - 1)]
        try:
            work()
        finally:
            for f in helpers:
                f.result()


def generate_many(
    seeds: Any,
    mode: Mode = "flags",
    *,
    threads: int | None = None,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    difficulty: Difficulty | None = "normal",
) -> BoardBatch:
    """Boards for many seeds at once: ``generate_many(seeds, mode, difficulty=d)[i] ==
    generate(seeds[i], mode, difficulty=d)``, ``generate``'s default difficulty ("normal") included.

    The batch runs in compiled code without the GIL, in contiguous chunks that the threads (the
    calling one among them) take in turn. Every board depends only on its seed, so the result is
    identical for any thread count.

    Args:
        seeds: an ordered sequence of seeds (ints in [0, 2**32) or strs) or a 1-D integer numpy
            array of states.
        mode: "flags" or "trivia" (flagcore.types.Mode).
        threads: None for one thread per CPU but at least MIN_CHUNK seeds per thread; an int >= 1
            for exactly that many threads, capped at len(seeds).
        library: None for the bundled library, or your own Library.
        decoy: as ``generate``.
        legacy: as ``generate``.
        difficulty: as ``generate`` (docs/difficulty.md): each board steered by the model and
            coloured by it; None for the search alone (the categories' tiers as colours), the
            fastest batch.

    Returns:
        A BoardBatch: ``batch[i]`` is the Board of ``seeds[i]``, with the search's arrays
        (``status``, ``counters``...) for all of them.

    Raises:
        ArgumentError: a seed out of range (``seeds[i]: ...``), a bad mode, threads or difficulty.
        ArgumentTypeError: seeds that are not an ordered sequence (a str, a set), or an argument of
            the wrong type.

    A seed without a board does not stop the batch: ``batch.status`` marks it and ``batch[i]``
    raises the NoBoardError that ``generate`` would.
    """
    return generate_many_with(
        core.connections,
        seeds,
        mode,
        threads=threads,
        library=library,
        decoy=decoy,
        legacy=legacy,
        difficulty=difficulty,
    )
