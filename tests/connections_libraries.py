"""Small Connections libraries for the generator tests (built with the Library/Category contract).

``random_library`` makes a library shaped like the real one (flag tags -> synthetic categories,
hand-written library categories, both modes) from a seed, so tests do not depend on the bundled data.
``tiny_library`` makes libraries small enough that brute force knows every valid board.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from flagcore.library import Category, Library


def _codes(n: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [a + b for a, b in itertools.product(letters, letters)][:n]


def random_library(
    seed: int,
    n_codes: int = 60,
    per_tier: Sequence[int] = (6, 6, 8, 3),
    tags_per_tier: Sequence[int] = (2, 2, 3, 3),
    pool_range: tuple[int, int] = (5, 16),
    arguable_range: tuple[int, int] | None = None,
) -> Library:
    """Library categories per tier (some trivia-only) and synthetic tag categories, all random.

    ``arguable_range``: give every category that many random arguable codes outside its pool and
    0-2 doubtful codes of its pool (None: none, and the same libraries as before arguable sets
    existed)."""
    r = random.Random(seed)
    ar = random.Random(seed + 1)

    def arguable(pool: frozenset[str]) -> dict[str, object]:
        if arguable_range is None:
            return {}
        picks = ar.sample(sorted(set(codes) - pool), ar.randint(*arguable_range))
        doubts = ar.sample(sorted(pool), ar.randint(0, 2))
        return {
            "arguable": frozenset(picks),
            "arguable_reasons": {c: (f"reason {c}",) for c in picks},
            "doubtful": frozenset(doubts),
            "doubtful_reasons": {c: (f"doubt {c}",) for c in doubts},
        }

    codes = _codes(n_codes)
    names = {c: f"Country {c}" for c in codes}
    tags: dict[str, set[str]] = {c: set() for c in codes}
    cats: list[Category] = []
    for tier, n in enumerate(per_tier):
        for k in range(n):
            pool = frozenset(r.sample(codes, r.randint(*pool_range)))
            modes = frozenset({"flags", "trivia"}) if k % 3 else frozenset({"trivia"})
            cats.append(
                Category(f"lib-{tier}-{k}", f"Library {tier}/{k}", tier, "library", pool, modes, **arguable(pool))
            )  # type: ignore[arg-type]
    for tier, n in enumerate(tags_per_tier):
        for k in range(n):
            tag = f"tag{tier}{k}"
            pool = frozenset(r.sample(codes, r.randint(*pool_range)))
            for c in pool:
                tags[c].add(tag)
            cats.append(Category(f"syn-{tag}", f"Flags with {tag}", tier, "synthetic", pool, tag=tag, **arguable(pool)))  # type: ignore[arg-type]
    return Library(names, tags, cats, source=f"<random {seed}>")


def tiny_library(pools_by_tier: Iterable[Iterable[tuple[str, ...]]], n_codes: int | None = None) -> Library:
    """A library from explicit pools: pools_by_tier[t] = [(kind, codes[, arguable codes[, doubtful codes]]), ...];
    kind "library"/"synthetic"; arguable codes already in the pool are dropped, doubtful ones outside it too."""
    cats = []
    all_codes: set[str] = set()
    for tier, entries in enumerate(pools_by_tier):
        for k, (kind, pool, *rest) in enumerate(entries):
            pool = frozenset(pool)
            arg = frozenset(rest[0]) - pool if rest else frozenset()
            doubt = frozenset(rest[1]) & pool if len(rest) > 1 else frozenset()
            all_codes |= pool | arg
            tag = f"t{tier}{k}" if kind == "synthetic" else None
            cats.append(
                Category(f"c{tier}{k}", f"Category {tier}.{k}", tier, kind, pool, tag=tag, arguable=arg, doubtful=doubt)
            )
    codes = sorted(all_codes | set(_codes(n_codes or 0)))
    tags = {c: {cat.tag for cat in cats if cat.tag and c in cat.pool} for c in codes}
    return Library({c: c for c in codes}, tags, cats, source="<tiny>")


def brute_force_has_board(library: Library, mode: str, min_facts: int = 0) -> bool:
    """Whether any valid board exists, by the definition alone: four categories (one per tier, distinct
    tags, at least ``min_facts`` of them facts: categories flags mode does not use) and four disjoint
    tiles from each pool's certain codes (not doubtful) such that no tile lies in another group's pool
    or arguable set.

    Enumerates every category choice and every 4-subset of every pool, without the exclusive-set
    shortcut the generator uses, so it is an independent oracle (keep pools small).
    """
    cats = library.categories(mode)
    by_tier = [[c for c in cats if c.tier == t] for t in range(4)]
    for choice in itertools.product(*by_tier):
        tags = [c.tag for c in choice if c.kind == "synthetic"]
        if len(set(tags)) != len(tags) or sum("flags" not in c.modes for c in choice) < min_facts:
            continue
        if _subsets_exist(choice, 0, set()):
            return True
    return False


def _subsets_exist(choice: Sequence[Category], g: int, taken: set[str]) -> bool:
    if g == 4:
        return True
    for four in itertools.combinations(sorted(choice[g].pool - choice[g].doubtful), 4):
        if taken.intersection(four):
            continue
        if any(x in choice[h].pool or x in choice[h].arguable for x in four for h in range(4) if h != g):
            continue
        if _subsets_exist(choice, g + 1, taken | set(four)):
            return True
    return False
