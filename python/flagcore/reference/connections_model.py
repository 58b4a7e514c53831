"""Pure-Python twin of the compiled difficulty model's counting kernel (src/flagcore/connections_model.pxi).

The model (docs/difficulty.md) reads one board: its 16 tiles in group order and its 4 categories.
Every number is a count over sets of code indices, so both twins give the same integers:

* **phantoms**: every category of the mode that is not on the board and whose fit set (pool and
  arguable codes: what a player could argue fits) holds at least ITEMS of the 16 tiles. Per
  phantom: ``members`` (how many tiles it holds), ``spread`` (how many of the board's groups those
  tiles come from), ``strength`` and ``mask`` (bit i set when ``group_tiles[i]`` is a member).
  A phantom whose members all sit in one group fools nobody (guessing it is guessing that group):
  strength 0. Otherwise strength = salience * PHANTOM_SIZE_WEIGHT[members] *
  PHANTOM_SPREAD_WEIGHT[spread] (0 past the size table), with PHANTOM_ONE_AWAY_WEIGHT in place of
  the spread weight for a one-away trap: members from two groups, exactly three from one of them.
* **groups**, per group g of category c: ``salience`` of c, ``lure`` (tiles outside g that carry
  the feature c's label names: c's named set, which holds its fit set), ``pulls`` (tempting
  phantoms, strength >= TEMPTING, holding a tile of g) and ``score`` =
  SCORE_HIDDEN * (SALIENCE_MAX - salience) + SCORE_LURE * hides * min(lure, LURE_CAP)
  + SCORE_PULL * min(pulls, PULL_CAP): higher is harder to see. ``hides`` is c's lure weight: 1, or
  0 for a plain clause ("Only red and white": such flags stand out, the lure does not hide them).

Result (shared with the core): ``(groups, phantoms)``, groups a list of 4 tuples
(salience, lure, pulls, score), phantoms a list of tuples (category, members, spread, strength,
mask) in category order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._connections_layout import (
    ITEMS,
    LURE_CAP,
    PHANTOM_ONE_AWAY_WEIGHT,
    PHANTOM_SIZE_WEIGHT,
    PHANTOM_SPREAD_WEIGHT,
    PULL_CAP,
    SALIENCE_MAX,
    SCORE_HIDDEN,
    SCORE_LURE,
    SCORE_PULL,
    TEMPTING,
    TIERS,
)

__all__ = ["ModelPrepared", "board_model", "prepare_model"]

GroupRow = tuple[int, int, int, int]
PhantomRow = tuple[int, int, int, int, int]


class ModelPrepared:
    """One (library, mode)'s model tables as Python sets: fit and named sets, saliences, lure weights."""

    __slots__ = ("fit_sets", "hides", "learned", "named_sets", "salience", "simpler")

    def __init__(
        self,
        tables: Any,
        salience: Sequence[int],
        named_flat: Any,
        named_off: Any,
        simpler: Sequence[str | None],
        hides: Sequence[int],
        learned: Any = None,
    ) -> None:
        foff = tables.fit_off.tolist()
        fflat = tables.fit_flat.tolist()
        self.fit_sets = [frozenset(fflat[foff[i] : foff[i + 1]]) for i in range(len(foff) - 1)]
        noff = list(named_off)
        nflat = list(named_flat)
        # the named set always holds the fit set: a tile that fits the label carries what it names
        self.named_sets = [frozenset(nflat[noff[i] : noff[i + 1]]) | f for i, f in enumerate(self.fit_sets)]
        self.salience = [int(s) for s in salience]
        self.simpler = tuple(simpler)
        self.hides = [int(h) for h in hides]
        # learned colours (docs/ratings.md, "Colours"): None, or per category (D, w * slope)
        self.learned: tuple[tuple[float, ...], tuple[float, ...]] | None = None
        if learned is not None:
            self.learned = (tuple(float(x) for x in learned[0]), tuple(float(x) for x in learned[1]))
            if len(self.learned[0]) != len(self.fit_sets) or len(self.learned[1]) != len(self.fit_sets):
                # flagcore's own data (flagcore.ratings.colouring builds it): a wrong length is its bug
                raise ValueError("connections model: learned colours need one (D, w) per category")


def prepare_model(
    tables: Any,
    salience: Sequence[int],
    named_flat: Any,
    named_off: Any,
    simpler: Sequence[str | None],
    hides: Sequence[int],
    learned: Any = None,
) -> ModelPrepared:
    """The model's tables: ``tables`` (the search's), a salience per category, named sets (flat,
    offsets), per category the label without its clause (None without a clause), and per category
    1 when the tiles that carry its named feature hide the group (0: a plain clause, its lure not scored);
    ``learned``: None, or (D, w * slope) per category, which the steered searches colour by."""
    return ModelPrepared(tables, salience, named_flat, named_off, simpler, hides, learned)


def learned_key(mp: ModelPrepared, c: int, score: int) -> float:
    """The learned colour key of a group of category c with model score ``score`` (mp.learned set):
    D + w * slope * (the score's board part: lure and pulls) / SCORE_HIDDEN, as recolour computes it."""
    assert mp.learned is not None
    hidden = SCORE_HIDDEN * (SALIENCE_MAX - mp.salience[c])
    return mp.learned[0][c] + mp.learned[1][c] * (score - hidden) / SCORE_HIDDEN


def phantom_strength(salience: int, members: int, spread: int, one_away: bool) -> int:
    """How hard a phantom pulls: 0 within one group, else salience times the size and spread weights
    (``one_away``: two groups, three tiles of one of them, weighed PHANTOM_ONE_AWAY_WEIGHT)."""
    if spread < 2 or members >= len(PHANTOM_SIZE_WEIGHT):
        return 0
    shape = PHANTOM_ONE_AWAY_WEIGHT if one_away else PHANTOM_SPREAD_WEIGHT[spread]
    return salience * PHANTOM_SIZE_WEIGHT[members] * shape


def board_model(
    mp: ModelPrepared, group_tiles: Sequence[int], cats: Sequence[int]
) -> tuple[list[GroupRow], list[PhantomRow]]:
    """The model's counts for one board (group_tiles: 16 code indices, group g at 4g..4g+3)."""
    tiles = list(group_tiles)
    on_board = set(cats)
    phantoms: list[PhantomRow] = []
    for c, fit in enumerate(mp.fit_sets):
        if c in on_board:
            continue
        mask = 0
        for i, x in enumerate(tiles):
            if x in fit:
                mask |= 1 << i
        members = mask.bit_count()
        if members < ITEMS:
            continue
        per_group = [((mask >> (ITEMS * g)) & 0xF).bit_count() for g in range(TIERS)]
        spread = sum(1 for n in per_group if n)
        one_away = spread == 2 and 3 in per_group
        phantoms.append((c, members, spread, phantom_strength(mp.salience[c], members, spread, one_away), mask))
    groups: list[GroupRow] = []
    for g in range(TIERS):
        c = cats[g]
        own = tiles[ITEMS * g : ITEMS * (g + 1)]
        named = mp.named_sets[c]
        lure = sum(1 for x in tiles if x in named and x not in own)
        pulls = sum(1 for p in phantoms if p[3] >= TEMPTING and (p[4] >> (ITEMS * g)) & 0xF)
        sal = mp.salience[c]
        score = (
            SCORE_HIDDEN * (SALIENCE_MAX - sal)
            + SCORE_LURE * mp.hides[c] * min(lure, LURE_CAP)
            + SCORE_PULL * min(pulls, PULL_CAP)
        )
        groups.append((sal, lure, pulls, score))
    return groups, phantoms
