"""Connections board generation: ``generate``, ``generate_many``, ``find_ambiguities``.

The search itself is in the compiled core ``flagcore._connections`` (nogil, bitsets) and in its
pure-Python twin ``flagcore.reference.connections`` (sets and reference counts), whose docstring
states every step; this module is the part both share: validation at the boundary, compiling a
Library into compact tables (once per Library and mode, cached), and turning a raw search result
into a :class:`~flagcore.connections.board.Board`.

Seeds and determinism. A seed is an int in [0, 2**32) or a str (FNV-1a 32 of its UTF-8), exactly
as ``flagcore.Rng``; all randomness comes from that one mulberry32 stream, consumed in the same
order by the core and the twin, so ``generate(seed, mode)`` is the same board on every machine and
thread. Countries are indices into ``library.codes`` (sorted) and categories keep the order of
``library.categories(mode)``; both orders are part of what a seed means.

Fixed vs legacy. The default search has the spec's four flaws fixed (refcounted spill, pools checked
in both directions, decoy only from a group's exclusive codes, complete search) and keeps a tile off
any board where it fits another group even arguably (``Category.arguable``); ``legacy=True``
reproduces the spec's generator flaws included, for measurement, and knows pools only. When the fixed search exhausts,
no valid board exists for the library and mode at all, whatever the seed: :class:`NoBoardError`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from operator import itemgetter
from types import ModuleType
from typing import Any, NamedTuple, overload

import numpy as np

from .. import _connections_layout as _layout
from .. import library as _library_module
from .._impl import core
from ..errors import NoBoardError
from ..library import KINDS, MODES, Category, Library, LibraryError
from .board import Board, Group, frozen_from_fields
from .ids import parse_board_id

ITEMS = _layout.ITEMS
REASONS = _layout.REASONS
EVENT_KINDS = _layout.EVENT_KINDS
DECOY_CHANCE = 0.25
MIN_CHUNK = 512  # seeds per thread below which generate_many stays on the calling thread


class Ambiguity(NamedTuple):
    """A tile that also fits a group it is not in: ``group`` is that other group.

    ``kind`` is "rule" when the tile certainly fits that group (its pool, not doubtful), "arguable"
    when it arguably does (its arguable set or a doubtful pool code); ``reasons`` are then the
    category's reasons for that code (empty for "rule").
    """

    tile: str
    group: Group
    kind: str = "rule"
    reasons: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------
# Library -> compact tables


@dataclass(frozen=True, eq=False)
class Tables:
    """One (library, mode) as flat arrays, the input both search implementations prepare from.

    Category c is ``categories[c]`` (the order of ``library.categories(mode)``); the searches'
    pool is ``pool_flat[pool_off[c]:pool_off[c+1]]`` (ascending code indices): the category's
    certain codes (``Category.certain``: its pool without the doubtful codes), where tiles come
    from; its fit set (pool and arguable codes: every code a player could argue fits)
    is ``fit_flat[fit_off[c]:fit_off[c+1]]``. Tier t's candidates in base
    order (library categories, then synthetic ones) are ``tier_flat[tier_off[t]:tier_off[t+1]]``.
    Synthetic categories have ``tag_index`` >= 0 (one index per distinct tag), library ones -1.
    """

    mode: str
    codes: tuple[str, ...]
    categories: tuple[Category, ...]
    index: dict[str, int]
    n_codes: int
    pool_flat: np.ndarray
    pool_off: np.ndarray
    synthetic: np.ndarray
    tag_index: np.ndarray
    n_tags: int
    tier_flat: np.ndarray
    tier_off: np.ndarray
    pool_sets: tuple[frozenset[str], ...]
    fit_flat: np.ndarray
    fit_off: np.ndarray
    arguable_sets: tuple[frozenset[str], ...]


def _check_category(cat: Any, known: dict[str, int], where: str) -> None:
    """The problems a hand-made or mutated Library can carry, named before any compiled code runs."""
    if not isinstance(cat, Category):
        raise TypeError(f"{where}: categories must be Category objects, not {type(cat).__name__}")
    name = f"{where}: category {cat.id!r}"
    if not isinstance(cat.id, str) or not cat.id:
        raise LibraryError(f"{name}: id must be a non-empty str")
    if not isinstance(cat.label, str) or not cat.label:
        raise LibraryError(f"{name}: label must be a non-empty str")
    if type(cat.tier) is not int or not 0 <= cat.tier < 4:
        raise LibraryError(f"{name}: tier must be an int 0..3, got {cat.tier!r}")
    if cat.kind not in KINDS:
        raise LibraryError(f"{name}: kind must be one of {KINDS}, got {cat.kind!r}")
    if not isinstance(cat.pool, (frozenset, set)):
        raise LibraryError(f"{name}: pool must be a frozenset of codes, not {type(cat.pool).__name__}")
    unknown = sorted(str(x) for x in cat.pool if not isinstance(x, str) or x not in known)
    if unknown:
        raise LibraryError(f"{name}: pool has unknown codes {unknown}")
    if len(cat.pool) < ITEMS:
        raise LibraryError(f"{name}: pool has {len(cat.pool)} codes, needs at least {ITEMS}")
    if not isinstance(cat.arguable, (frozenset, set)):
        raise LibraryError(f"{name}: arguable must be a frozenset of codes, not {type(cat.arguable).__name__}")
    unknown = sorted(str(x) for x in cat.arguable if not isinstance(x, str) or x not in known)
    if unknown:
        raise LibraryError(f"{name}: arguable has unknown codes {unknown}")
    if not isinstance(cat.arguable_reasons, Mapping):
        raise LibraryError(f"{name}: arguable_reasons must be a mapping of codes to reasons")
    if not isinstance(cat.doubtful, (frozenset, set)) or not cat.doubtful <= cat.pool:
        raise LibraryError(f"{name}: doubtful must be a frozenset of pool codes")
    if not isinstance(cat.doubtful_reasons, Mapping):
        raise LibraryError(f"{name}: doubtful_reasons must be a mapping of codes to reasons")
    if cat.arguable & cat.pool:
        raise LibraryError(f"{name}: codes {sorted(cat.arguable & cat.pool)} are both in the pool and arguable")
    if cat.kind == "synthetic" and (not isinstance(cat.tag, str) or not cat.tag):
        raise LibraryError(f"{name}: a synthetic category needs its flag tag in .tag")


def compile_tables(library: Library, mode: str) -> Tables:
    """Validate ``library``'s categories for ``mode`` and lay them out as :class:`Tables`."""
    codes = tuple(library.codes)
    known = {code: i for i, code in enumerate(codes)}
    if len(known) != len(codes) or any(not isinstance(c, str) for c in codes):
        raise LibraryError(f"{library.source}: codes must be distinct str")
    cats = tuple(library.categories(mode))
    index: dict[str, int] = {}
    for cat in cats:
        _check_category(cat, known, library.source)
        if cat.id in index:
            raise LibraryError(f"{library.source}: category {cat.id!r}: duplicate id")
        index[cat.id] = len(index)
    pool_flat, pool_off = _flat([cat.certain for cat in cats], known)
    fit_flat, fit_off = _flat([cat.pool | cat.arguable for cat in cats], known)
    tags: dict[str, int] = {}
    tag_index = np.array(
        [tags.setdefault(c.tag, len(tags)) if c.kind == "synthetic" and c.tag else -1 for c in cats], dtype=np.int32
    )
    synthetic = np.array([c.kind == "synthetic" for c in cats], dtype=np.int8)
    # the spec's move list: [...libraryMatches, ...syntheticTagsForTier], each in library order
    tier_lists = [
        [i for i, c in enumerate(cats) if c.tier == t and c.kind == "library"]
        + [i for i, c in enumerate(cats) if c.tier == t and c.kind == "synthetic"]
        for t in range(4)
    ]
    tier_off = np.zeros(5, dtype=np.int32)
    tier_off[1:] = np.cumsum([len(t) for t in tier_lists])
    tier_flat = np.array([i for t in tier_lists for i in t], dtype=np.int32)
    return Tables(
        mode,
        codes,
        cats,
        index,
        len(codes),
        pool_flat,
        pool_off,
        synthetic,
        tag_index,
        len(tags),
        tier_flat,
        tier_off,
        tuple(frozenset(c.certain) for c in cats),
        fit_flat,
        fit_off,
        tuple(frozenset(c.arguable | c.doubtful) for c in cats),
    )


def _flat(sets: Sequence[frozenset[str]], known: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Sets of codes as (flat ascending code indices, offsets): set c is flat[off[c]:off[c+1]]."""
    rows = [sorted(known[x] for x in s) for s in sets]
    off = np.zeros(len(rows) + 1, dtype=np.int32)
    off[1:] = np.cumsum([len(r) for r in rows], dtype=np.int64)
    return np.array([x for r in rows for x in r], dtype=np.int32), off


_cache_lock = threading.Lock()
_CACHE_ATTR = "_flagcore_connections_tables"  # where a Library keeps its compiled tables
_default: list[Library] = []


def load_library(path: Any = None) -> Library:
    """flagcore.library.load_library(path): the bundled library for None, else the user's file(s)."""
    return _library_module.load_library(path)


def default_library() -> Library:
    """The bundled library, loaded once."""
    if not _default:
        with _cache_lock:
            if not _default:
                _default.append(load_library())
    return _default[0]


def _tables_for(impl: ModuleType, library: Library | None, mode: str) -> tuple[Tables, Any]:
    """(tables, prepared) for library and mode, compiled and prepared once per Library object."""
    if library is None:
        library = default_library()
    elif not isinstance(library, Library):
        raise TypeError(f"library must be a flagcore.library.Library or None, not {type(library).__name__}")
    # The cache lives on the Library object itself (as functools.cached_property would keep it), so
    # it goes when the library goes and a lookup is one attribute read: this runs on every generate().
    per_lib = library.__dict__.get(_CACHE_ATTR)
    key = (mode, impl.__name__)
    if per_lib is not None:
        hit = per_lib.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
    with _cache_lock:
        per_lib = library.__dict__.setdefault(_CACHE_ATTR, {})
        hit = per_lib.get(key)
        if hit is None:
            tables = next((t for (m, _), (t, _p) in per_lib.items() if m == mode), None)
            if tables is None:
                tables = compile_tables(library, mode)
            hit = per_lib[key] = (tables, impl.prepare(tables, _KIT))
    return hit  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# validation


def _check_mode(mode: Any) -> str:
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, one of {MODES}, not {type(mode).__name__}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    return mode


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return bool(value)


def _normal_seed(seed: Any) -> tuple[int | str, int]:
    """(the seed as the Board records it: int or str, its uint32 Rng state)."""
    state = int(core.rng.seed_to_state(seed))
    return (seed if isinstance(seed, str) else state), state


def _check_threads(threads: Any) -> int | None:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int >= 1 or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return int(threads)


# ---------------------------------------------------------------------------------------------
# raw result -> Board


def _stats(tables: Tables, counters: list[int], decoy: list[int], ambiguous: int, arguable: int) -> dict[str, Any]:
    # counters layout: flagcore.reference.connections.COUNTERS (indices spelled out: this runs per board)
    return {
        "moves_tried": counters[0],
        "backtracks": counters[1],
        "decoy_applied": decoy[0] >= 0,
        "decoy": None
        if decoy[0] < 0
        else {"tier": decoy[0], "removed": tables.codes[decoy[1]], "added": tables.codes[decoy[2]]},
        "skips": dict(zip(REASONS, counters[2:7])),
        "tier_entries": counters[7:11],
        "tier_exhaustions": counters[11:15],
        "ambiguous_tiles": ambiguous,
        "arguable_tiles": arguable,
    }


if (
    _layout.C_MOVES,
    _layout.C_BACKTRACKS,
    _layout.C_SKIPS,
    _layout.C_ENTRIES,
    _layout.C_EXHAUSTED,
    _layout.COUNTERS,
) != (0, 1, 2, 7, 11, 15):
    raise ImportError("flagcore.connections.generator: counters layout changed; update _stats")


def _events(tables: Tables, raw: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The trace as the simulator shows it: one dict per step, in order."""
    return _layout.event_dicts(tables.codes, tables.categories, raw)


def _no_board(tables: Tables, seed: int | str, legacy: bool, counters: Sequence[int]) -> NoBoardError:
    return NoBoardError(_layout.no_board_message(tables.mode, seed, legacy, counters[_layout.C_MOVES]))


# _board sets these fields directly; if board.py gains a field, fail at import rather than build
# incomplete objects.
if {f.name for f in dataclass_fields(Group)} != {"tier", "label", "codes", "category_id"} or {
    f.name for f in dataclass_fields(Board)
} != {"tiles", "groups", "seed", "mode", "legacy", "stats", "events"}:
    raise ImportError("flagcore.connections.generator: Board/Group fields changed; update _board")


def _board(tables: Tables, seed: int | str, legacy: bool, raw: Sequence[Any]) -> Board:
    status, cats, gt, tiles, decoy, counters, ambiguous, arguable, events = raw
    if status != _layout.STATUS_OK:
        raise _no_board(tables, seed, legacy, counters)
    codes = tables.codes
    gcodes = itemgetter(*gt)(codes)
    groups = []
    for g in range(4):
        cat = tables.categories[cats[g]]
        groups.append(
            frozen_from_fields(
                Group, {"tier": g, "label": cat.label, "codes": gcodes[4 * g : 4 * g + 4], "category_id": cat.id}
            )
        )
    return frozen_from_fields(  # type: ignore[no-any-return]
        Board,
        {
            "tiles": itemgetter(*tiles)(codes),
            "groups": tuple(groups),
            "seed": seed,
            "mode": tables.mode,
            "legacy": legacy,
            "stats": _stats(tables, counters, decoy, int(ambiguous), int(arguable)),
            "events": None if events is None else _events(tables, events),
        },
    )


class BoardKit(NamedTuple):
    """What a search module needs to build Boards, handed to its ``prepare`` so that the twins
    import nothing above them: the compiled core builds Board and Group itself (one step, in C),
    the reference twin hands its raw result to ``assemble``."""

    board: type
    group: type
    assemble: Any  # (tables, seed, legacy, raw result) -> Board


_KIT = BoardKit(Board, Group, _board)


# ---------------------------------------------------------------------------------------------
# public API


def generate_with(
    impl: ModuleType,
    seed: int | str,
    mode: str = "flags",
    *,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    trace: bool = False,
) -> Board:
    """``generate`` computed by ``impl`` (the compiled core or the reference twin)."""
    board_seed, state = _normal_seed(seed)
    mode = _check_mode(mode)
    decoy = _check_flag("decoy", decoy)
    legacy = _check_flag("legacy", legacy)
    trace = _check_flag("trace", trace)
    _, prepared = _tables_for(impl, library, mode)
    return impl.search_board(prepared, state, board_seed, legacy, decoy, trace)  # type: ignore[no-any-return]


def from_board_id(board_id: str, library: Library | None = None) -> Board:
    """Rebuild the board an id names (``library`` must be the one the board was made from)."""
    state, mode, legacy = parse_board_id(board_id)
    return generate(state, mode, library=library, legacy=legacy)


def generate(
    seed: int | str,
    mode: str = "flags",
    *,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    trace: bool = False,
) -> Board:
    """One Connections board from ``seed`` (int in [0, 2**32) or str) in ``mode`` ("flags" | "trivia").

    library: None for the bundled library (loaded once), or your own Library.
    decoy: apply the spec's 25% decoy (the chance is drawn either way; False only skips the swap).
    legacy: the spec's generator with its flaws, for measurement; default is the fixed search.
    trace: record the search's steps in ``board.events`` (dicts with "event": enter, try, skip,
      place, undo, backtrack, draw, decoy). ``board.stats`` is always filled: moves_tried,
      backtracks, decoy_applied, decoy, skips (by reason), tier_entries, tier_exhaustions,
      ambiguous_tiles (tiles in another group's pool), arguable_tiles (in another group's arguable set).
    Raises NoBoardError when no board is found (fixed: none exists for this library and mode),
    TypeError/ValueError for a bad seed, mode, flag or library. Thread-safe; holds no global state
    beyond the per-Library table cache.
    """
    if (
        type(seed) is int
        and 0 <= seed < 4294967296
        and library is None
        and decoy is True
        and legacy is False
        and trace is False
        and type(mode) is str
    ):
        # the request a server sends most (an int seed, the bundled library, default options): the
        # same checks passed by construction, and the prepared tables read from one dict
        impl = core.connections
        prepared = _default_prepared.get((impl, mode))
        if prepared is not None:
            return impl.search_board(prepared, seed, seed, False, True, False)  # type: ignore[no-any-return]
        if mode in MODES:
            _default_prepared[(impl, mode)] = _tables_for(impl, None, mode)[1]
    return generate_with(core.connections, seed, mode, library=library, decoy=decoy, legacy=legacy, trace=trace)


_default_prepared: dict[tuple[ModuleType, str], Any] = {}  # (impl, mode) -> the bundled library's tables


def _seed_states(seeds: Any) -> tuple[np.ndarray, Sequence[int | str]]:
    """(uint32 states, seeds as the Boards record them) from a sequence or an integer array."""
    if isinstance(seeds, (str, bytes)):
        raise TypeError("seeds must be a sequence of seeds (int or str), not a single str or bytes")
    if isinstance(seeds, (set, frozenset, dict)) or hasattr(seeds, "keys"):
        # batch[i] must be the board of seeds[i]: an unordered collection has no i.
        raise TypeError(f"seeds must be an ordered sequence, not {type(seeds).__name__}")
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        if seeds.ndim != 1:
            raise ValueError(f"seeds must be one-dimensional, got shape {seeds.shape}")
        wide = seeds if seeds.dtype == np.uint64 else seeds.astype(np.int64)
        bad = wide[(wide < 0) | (wide >= 2**32)]
        if bad.size:
            raise ValueError(f"seeds: every seed must be in [0, 2**32), got {int(bad[0])}")
        states = seeds.astype(np.uint32)
        seeds_view: Sequence[int | str] = states  # type: ignore[assignment]  # int() on access in BoardBatch
        return states, seeds_view
    try:
        items = list(seeds)
    except TypeError:
        raise TypeError(f"seeds must be a sequence of seeds (int or str), not {type(seeds).__name__}") from None
    if items and all(type(s) is int for s in items) and 0 <= min(items) and max(items) < 2**32:
        # the common case, checked in bulk; anything else is checked (and named) seed by seed below
        return np.array(items, dtype=np.uint32), items
    states = np.empty(len(items), dtype=np.uint32)
    out: list[int | str] = []
    for i, s in enumerate(items):
        try:
            board_seed, states[i] = _normal_seed(s)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"seeds[{i}]: {exc}") from None
        out.append(board_seed)
    return states, out


class BoardBatch(Sequence[Board]):
    """Many boards as compact arrays (one row per seed); ``batch[i]`` builds the Board on demand.

    Arrays (row i is seed i): ``status`` int8 (0 board, 1 no board), ``categories`` int32 (n, 4)
    (indices into ``tables.categories``), ``group_tiles`` int32 (n, 16) (four tiles per group in
    tier order, code indices), ``tiles`` int32 (n, 16) (the shuffled board), ``decoys`` int32 (n, 3)
    (tier, removed, added; -1 when no decoy), ``counters`` int32 (n, 15) (see
    flagcore.reference.connections.COUNTERS), ``ambiguous`` int8 (n) (tiles in another group's pool),
    ``arguable`` int8 (n) (tiles in another group's arguable set).
    """

    def __init__(self, tables: Tables, seeds: Sequence[int | str], legacy: bool, arrays: dict[str, np.ndarray]):
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

    def __len__(self) -> int:
        return int(self.status.shape[0])

    @overload
    def __getitem__(self, i: int) -> Board: ...

    @overload
    def __getitem__(self, i: slice) -> list[Board]: ...

    def __getitem__(self, i: int | slice) -> Board | list[Board]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"BoardBatch indices must be int or slice, not {type(i).__name__}")
        j = int(i) + n if i < 0 else int(i)
        if not 0 <= j < n:
            raise IndexError(f"BoardBatch index {i} out of range for {n} boards")
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
        return _board(self.tables, seed if isinstance(seed, str) else int(seed), self.legacy, raw)

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
    impl: ModuleType,
    seeds: Any,
    mode: str = "flags",
    *,
    threads: int | None = None,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
) -> BoardBatch:
    """``generate_many`` computed by ``impl`` (the compiled core or the reference twin)."""
    mode = _check_mode(mode)
    nthreads = _check_threads(threads)
    decoy = _check_flag("decoy", decoy)
    legacy = _check_flag("legacy", legacy)
    states, board_seeds = _seed_states(seeds)
    tables, prepared = _tables_for(impl, library, mode)
    n = len(states)
    arrays = _alloc(n)
    order = ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous", "arguable")
    if nthreads is None:
        nthreads = os.cpu_count() or 1
    nthreads = max(1, min(nthreads, n // MIN_CHUNK)) if threads is None else min(nthreads, max(n, 1))

    def run(lo: int, hi: int) -> None:
        impl.search_many(prepared, states[lo:hi], legacy, decoy, *(arrays[k][lo:hi] for k in order))

    if nthreads == 1:
        run(0, n)
    else:
        bounds = np.linspace(0, n, nthreads + 1).astype(int).tolist()
        with ThreadPoolExecutor(max_workers=nthreads, thread_name_prefix="flagcore-connections") as pool:
            for f in [pool.submit(run, lo, hi) for lo, hi in zip(bounds, bounds[1:])]:
                f.result()
    return BoardBatch(tables, board_seeds, legacy, arrays)


def generate_many(
    seeds: Any,
    mode: str = "flags",
    *,
    threads: int | None = None,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
) -> BoardBatch:
    """Boards for many seeds at once: ``generate_many(seeds, mode)[i] == generate(seeds[i], mode)``.

    seeds: a sequence of int/str seeds or a 1-D integer numpy array. The batch runs in compiled
    code without the GIL, in ``threads`` contiguous chunks on a thread pool (None: one chunk per
    CPU but at least MIN_CHUNK seeds per chunk; an int: exactly that many, capped at len(seeds)).
    Every board depends only on its seed, so the result is identical for any thread count. A seed
    without a board does not stop the batch: ``batch.status`` marks it and ``batch[i]`` raises the
    NoBoardError that ``generate`` would.
    """
    return generate_many_with(
        core.connections, seeds, mode, threads=threads, library=library, decoy=decoy, legacy=legacy
    )


def find_ambiguities(board: Board, library: Library | None = None) -> list[Ambiguity]:
    """Every (tile, group) where the tile fits that group but belongs to another one.

    Both kinds: "rule" when the tile certainly fits the group (in its pool, not doubtful),
    "arguable" when a player could argue it does (in its arguable set or a doubtful pool code, with
    the category's reasons). The sets are those of ``library`` (None:
    the bundled one) for ``board.mode``, looked up by each group's category_id. An empty list means
    every tile fits (certainly or arguably) only the group it is in.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a flagcore.connections.Board, not {type(board).__name__}")
    tables, _ = _tables_for(core.connections, library, _check_mode(board.mode))
    cats = []
    for g in board.groups:
        if g.category_id not in tables.index:
            raise ValueError(f"board: category {g.category_id!r} is not in the library's {board.mode!r} categories")
        cats.append(tables.categories[tables.index[g.category_id]])
    out = []
    for gi, g in enumerate(board.groups):
        for tile in g.codes:
            for hi, h in enumerate(board.groups):
                if hi == gi:
                    continue
                cat = cats[hi]
                if tile in cat.doubtful:
                    out.append(Ambiguity(tile, h, "arguable", tuple(cat.doubtful_reasons.get(tile, ()))))
                elif tile in cat.pool:
                    out.append(Ambiguity(tile, h, "rule"))
                elif tile in cat.arguable:
                    out.append(Ambiguity(tile, h, "arguable", tuple(cat.arguable_reasons.get(tile, ()))))
    return out
