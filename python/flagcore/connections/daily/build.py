"""Building a Schedule (steps 1 and 2 made ready) and keeping one per (library, mode, engine)."""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from ..._args.connections import as_mode
from ..._impl import core
from ...errors import NoBoardError
from ...library import Library
from ...season import as_season_key
from ..difficulty import category_difficulty
from ..tables import default_library, tables_for
from .families import Categories, make_pattern
from .plan import attach_plan, found, pair_fits
from .state import ITEMS, LATEST, TIERS, VERSIONS, Schedule, version_start
from .turns import RARE_BELOW, YEAR, Pools, balanced_shares, make_rotations, tier_shares, turns_per_cycle

_ATTR = "_flagcore_season"  # where a Library keeps its schedules (one per mode and engine)
_lock = threading.Lock()


def _sets(flat: np.ndarray, off: np.ndarray) -> tuple[frozenset[int], ...]:
    f, o = flat.tolist(), off.tolist()
    return tuple(frozenset(f[o[c] : o[c + 1]]) for c in range(len(o) - 1))


def _indices(names: list[str]) -> tuple[int, ...]:
    """Each name's index among the distinct names, in order of first appearance."""
    first: dict[str, int] = {}
    return tuple(first.setdefault(x, len(first)) for x in names)


def _placeable(impl: object, prepared: object, tiers: list[list[int]]) -> list[tuple[int, ...]]:
    """Per tier, the categories some board can hold: the search restricted to one of them in its
    tier is complete, so a failure means no board holds it."""
    return [
        tuple(c for c in tiers[t] if found(impl, prepared, [[c] if d == t else tiers[d] for d in range(TIERS)]))
        for t in range(TIERS)
    ]


SHORTER_AT_MOST = 0.1  # sharing turns by identity may shorten a tier's cycle by this fraction at most


def _keeps_groups(
    placeable: tuple[int, ...],
    certain: tuple[frozenset[int], ...],
    by_identity: tuple[tuple[int, ...], ...],
    plain: tuple[tuple[int, ...], ...],
) -> bool:
    """Whether a tier's turns may be shared by label identity: a shorter cycle deals each category's
    turns more often, so its groups come back sooner. It may when the cycle shortens by at most
    SHORTER_AT_MOST and every category of 6 or more certain codes keeping a turn of its own still
    has a distinct four for each turn of a year."""
    n, before = turns_per_cycle(placeable, by_identity), turns_per_cycle(placeable, plain)
    if n < (1 - SHORTER_AT_MOST) * before:
        return False
    shared = {c for share in by_identity for c in share}
    uses = -(-YEAR // n) + 1
    return all(
        math.comb(len(certain[c]), ITEMS) >= uses
        for c in placeable
        if c not in shared and len(certain[c]) >= RARE_BELOW
    )


def _engine(slot: str) -> Any:
    """The engine module in use for ``slot``, imported (not the placeholder an engine not yet used
    holds, which would read the switch again at every call)."""
    hasattr(getattr(core, slot), "__name__")  # a placeholder imports its module at its first attribute read
    return getattr(core, slot)


def build(library: Library | None, mode: str, key: bytes | None = None, version: int = LATEST) -> Schedule:
    """The Schedule of (library, mode) for the engine in use: its tables, rotations and plan
    (key: a season key, every random stream of the schedule keyed by it; None: the public one;
    version: the schedule version, state.VERSIONS)."""
    impl, engine_rng = _engine("connections"), _engine("rng")  # read once: a background thread plans with these
    tables, prepared = tables_for(impl, library, mode)
    toff = tables.tier_off.tolist()
    tiers = [tables.tier_flat[toff[t] : toff[t + 1]].tolist() for t in range(TIERS)]
    placeable = _placeable(impl, prepared, tiers)
    if not all(placeable):
        raise NoBoardError(
            f"connections: no valid category combination found (mode {mode!r}): the schedule needs "
            "a board, and no four categories of this library can form one without an ambiguous tile"
        )
    certain = _sets(tables.pool_flat, tables.pool_off)
    fit = _sets(tables.fit_flat, tables.fit_off)
    facts = tables.fact.tolist()
    identity = _indices([c.identity for c in tables.categories])
    family = _indices([c.family for c in tables.categories])
    pools = Pools(certain, tuple(facts), identity, family, int(tables.min_facts), mode, key)
    all_shares = []
    for t in range(TIERS):
        by_identity = tier_shares(placeable[t], pools, t, True)
        plain = tier_shares(placeable[t], pools, t, False)
        if version >= 2:  # family first: every identity shares, then the families are balanced
            all_shares.append(by_identity)
        else:
            all_shares.append(by_identity if _keeps_groups(placeable[t], certain, by_identity, plain) else plain)
    if version >= 2:
        all_shares = balanced_shares(tuple(placeable), pools, all_shares)
    depth_order = tuple(sorted(range(TIERS), key=lambda t: (turns_per_cycle(placeable[t], all_shares[t]), t)))
    s = Schedule(
        mode=mode,
        impl=impl,
        engine_rng=engine_rng,
        tables=tables,
        prepared=prepared,
        placeable=tuple(placeable),
        never=tuple(tuple(c for c in tiers[t] if c not in placeable[t]) for t in range(TIERS)),
        shares=tuple(all_shares),
        certain=certain,
        fit=fit,
        fit_mask=tuple(sum(1 << x for x in f) for f in fit),
        fact=tuple(facts),
        min_facts=int(tables.min_facts),
        tier_of=tuple(c.tier for c in tables.categories),
        tags=tuple(tables.tag_index.tolist()),
        identity=identity,
        family=family,
        depth_order=depth_order,
        depth_orders=(depth_order,) + tuple((t, *(d for d in depth_order if d != t)) for t in depth_order[1:]),
        season_key=key,
        library=library,
        version=version,
    )
    salience: list[float] = [category_difficulty(cat, library).salience for cat in tables.categories]
    make_rotations(s, salience)
    if version >= 3:  # the families' pattern plans each day; the rotations only measure distances
        s.pattern = make_pattern(
            version_start(version),
            Categories(s.placeable, certain, family, identity, s.fact),
            s.min_facts,
            mode,
            key,
            engine_rng,
            lambda a, b: pair_fits(s, a, b),
            salience,
        )
    else:
        attach_plan(s)
    return s


def schedule(library: Library | None, mode: str, key: bytes | None = None, version: int = LATEST) -> Schedule:
    """The Schedule of (library, mode, season key, version) for the engine in use, built once per
    Library object (version: state.VERSIONS; daily() takes the one of its day, state.version_of)."""
    mode = as_mode(mode)
    key = as_season_key(key)
    if version not in {v for _, v in VERSIONS}:
        raise ValueError(f"version must be one of the schedule's versions {[v for _, v in VERSIONS]}, got {version!r}")
    impl = core.connections
    owner = library if library is not None else default_library()  # the schedules live on the Library
    per = owner.__dict__.get(_ATTR)
    kept = (mode, impl.__name__, key, version)
    if per is not None and kept in per:
        return per[kept]  # type: ignore[no-any-return]
    with _lock:
        per = owner.__dict__.setdefault(_ATTR, {})
        if kept not in per:
            per[kept] = build(library, mode, key, version)
        return per[kept]  # type: ignore[no-any-return]


def forget(library: Library | None = None) -> None:
    """Drop the schedules kept for ``library`` (None: the bundled one): the next daily builds anew."""
    owner = library if library is not None else default_library()
    with _lock:
        owner.__dict__.pop(_ATTR, None)
