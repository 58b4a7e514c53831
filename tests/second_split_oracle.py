"""The second-split oracle the tests share: an exact-cover search of its own (issue 31); and the
decoy fours' counter (``complete_fours``, ``decoy_fours``), over the same sets.

Over the Library's categories (their certain and fit sets as codes, not the engines' tables), it
chooses the tile with the fewest fours first; the engines' kernel (``second_split``, both twins)
covers the lowest tile first over bucketed bit masks, so the two agree only if both are right.
"""

from __future__ import annotations

import functools
import itertools

from flagcore.connections.tables import default_library


@functools.cache
def _index(mode: str) -> tuple[dict[str, list[int]], list[tuple[str, frozenset[str], frozenset[str]]]]:
    """Per code, the categories (positions) whose fit set holds it; per category (id, fit, certain)."""
    cats = [(c.id, frozenset(c.pool | c.arguable), frozenset(c.certain)) for c in default_library().categories(mode)]
    by_code: dict[str, list[int]] = {}
    for k, (_, fit, _) in enumerate(cats):
        for code in fit:
            by_code.setdefault(code, []).append(k)
    return by_code, cats


def oracle(mode: str, groups: list[tuple[str, ...]]) -> list[tuple[str, frozenset[str]]] | None:
    """A split of the 16 tiles into four fours of distinct categories, not the board's own, or None.

    A four of a category: four tiles of its fit set that hold every tile of its certain set."""
    by_code, cats = _index(mode)
    tiles = frozenset(code for g in groups for code in g)
    real = {frozenset(g) for g in groups}
    fours: list[tuple[str, frozenset[str]]] = []
    for k in sorted({k for code in tiles for k in by_code.get(code, ())}):
        cid, fit, certain = cats[k]
        must, may = certain & tiles, fit & tiles
        if len(may) >= 4 and len(must) <= 4:
            for extra in itertools.combinations(sorted(may - must), 4 - len(must)):
                fours.append((cid, must | frozenset(extra)))

    def cover(left: frozenset[str], used: list[tuple[str, frozenset[str]]]) -> list[tuple[str, frozenset[str]]] | None:
        if not left:
            return None if {f for _, f in used} == real else list(used)
        taken = {u for u, _ in used}
        options = {t: [f for f in fours if t in f[1] and f[1] <= left and f[0] not in taken] for t in left}
        tile = min(sorted(left), key=lambda t: len(options[t]))
        for four in options[tile]:
            found = cover(left - four[1], [*used, four])
            if found:
                return found
        return None

    return cover(tiles, [])


def complete_fours(mode: str, groups: list[tuple[str, ...]]) -> list[frozenset[str]]:
    """The complete off-board fours of a board given by its groups' codes, one per category: the
    tiles of each category whose fit set holds exactly four of them, those four not one of its groups."""
    _, cats = _index(mode)
    tiles = frozenset(code for g in groups for code in g)
    own = {frozenset(g) for g in groups}
    return [fit & tiles for _, fit, _ in cats if len(fit & tiles) == 4 and fit & tiles not in own]


def decoy_fours(mode: str, groups: list[tuple[str, ...]]) -> int:
    """How many complete off-board fours the board deals (``complete_fours``)."""
    return len(complete_fours(mode, groups))
