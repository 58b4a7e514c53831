"""A Library as the compact tables both Connections searches prepare from, and their caches.

Countries are indices into ``library.codes`` (sorted) and categories keep the order of
``library.categories(mode)``; both orders are part of what a seed means. A Library's tables are
compiled and prepared once per mode and engine, and kept on the Library object itself.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _connections_layout as _layout
from .._args.connections import as_instance, as_library
from .._engines import ConnectionsEngine
from ..library import KINDS, Category, Library, LibraryError, load_library
from .assembly import KIT

ITEMS = _layout.ITEMS
# Trivia boards of a seed hold at least this many fact groups (categories flags mode never uses, so
# about the country rather than its flag's look) when the library has facts in that many tiers.
MIN_FACT_GROUPS = 2


@dataclass(frozen=True, eq=False)
class Tables:
    """One (library, mode) as flat arrays, the input both search implementations prepare from.

    Category c is ``categories[c]`` (the order of ``library.categories(mode)``); the searches'
    pool is ``pool_flat[pool_off[c]:pool_off[c+1]]`` (ascending code indices): the category's
    certain codes (``Category.certain``: its pool without the doubtful codes), where tiles come
    from; its fit set (pool and arguable codes: every code a player could argue fits)
    is ``fit_flat[fit_off[c]:fit_off[c+1]]``. ``fact[c]`` marks a fact category; a board of the fixed
    search holds at least ``min_facts`` of them. Tier t's candidates in base
    order (library categories, then synthetic ones) are ``tier_flat[tier_off[t]:tier_off[t+1]]``.
    Synthetic categories have ``tag_index`` >= 0 (one index per distinct tag), library ones -1.
    ``level`` (None, or an int per category) with ``step`` (lo, hi): a candidate of tier t > 0 is a
    move only when its level exceeds that of the category placed at tier t - 1 by lo to hi (the
    search steered by ratings, flagcore.ratings.colouring; a library's own tables have none).
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
    fact: np.ndarray  # int8 per category: 1 for a fact (a trivia category flags mode does not use)
    min_facts: int  # fact groups a board of the fixed search must hold (0: no rule)
    level: np.ndarray | None = None  # int32 per category, or None: no step between tiers
    step: tuple[int, int] = (0, 0)


def _check_category(cat: Any, known: dict[str, int], where: str) -> None:
    """The problems a hand-made or mutated Library can carry, named before any compiled code runs."""
    as_instance(cat, Category, f"{where}: categories", "Category objects")
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
    fact = np.array([mode == "trivia" and "flags" not in c.modes for c in cats], dtype=np.int8)
    fact_tiers = len({c.tier for c, f in zip(cats, fact) if f})
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
        fact,
        MIN_FACT_GROUPS if fact_tiers >= MIN_FACT_GROUPS else 0,
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


def default_library() -> Library:
    """The bundled library, loaded once."""
    if not _default:
        with _cache_lock:
            if not _default:
                _default.append(load_library())
    return _default[0]


def tables_for(impl: ConnectionsEngine, library: Library | None, mode: str) -> tuple[Tables, Any]:
    """(tables, prepared) for library and mode, compiled and prepared once per Library object."""
    if library is None:
        library = default_library()
    else:
        as_library(library, Library)
    # The cache lives on the Library object itself (as functools.cached_property would keep it), so
    # it goes when the library goes and a lookup is one attribute read: this runs on every generate().
    per_lib = library.__dict__.get(_CACHE_ATTR)
    key = (mode, impl.__name__)
    if per_lib is not None:
        cached: tuple[Tables, Any] | None = per_lib.get(key)
        if cached is not None:
            return cached
    with _cache_lock:
        per_lib = library.__dict__.setdefault(_CACHE_ATTR, {})
        hit: tuple[Tables, Any] | None = per_lib.get(key)
        if hit is None:
            tables = next((t for (m, _), (t, _p) in per_lib.items() if m == mode), None)
            if tables is None:
                tables = compile_tables(library, mode)
            hit = per_lib[key] = (tables, impl.prepare(tables, KIT))
    return hit
