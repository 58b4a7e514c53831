"""Pure-Python twin of flagcore._connections: the Connections board search, draw for draw.

This module is the readable statement of what the compiled core does; tests assert that both give
the same raw result (and so the same Board, byte for byte) for every seed, mode and option. It works
on the compact tables that :mod:`flagcore.connections.tables` compiles from a Library, with
countries as indices into ``library.codes`` (sorted), and uses Python sets and a per-code
reference-count dict where the core uses bitsets.

The search (both variants)
--------------------------
For tier d = 0..3 (yellow, green, blue, purple): the tier's candidates (library categories, then
synthetic categories whose tag is not yet on the board, each in ``library.categories(mode)`` order)
are shuffled once with the Rng, then tried in that order, depth first.

``legacy=True`` is the spec's generator as it is:

* library move: ``pickable`` = pool codes neither used nor forbidden; fewer than 4 -> skip
  ``too_few_pickable``;
* synthetic move: a placed tile lies in the pool -> skip ``tag_on_board`` (the backward-only check);
  else ``available`` as above, fewer than 4 -> skip ``too_few_available``;
* place: four = ``shuffle(pickable)[:4]`` (one random subset per move, never a second one),
  used |= four, forbidden |= spill (pool minus four) as a flat set;
* undo: forbidden -= spill, which can free a code an earlier group still forbids (flaw 1).

The fixed search (default) places categories only (no tiles) and keeps a reference count per code
over the placed *fit sets*: a category's fit set is its pool (codes that certainly fit its label)
plus its arguable codes (codes a player could argue fit it). A pool code with count 1 fits exactly
one placed group: its own; these are the group's *exclusive* codes. A candidate is skipped when its
own exclusive codes are fewer than 4 (``too_few_exclusive``) or when it leaves a placed group fewer
than 4 (``crowds_placed``). Exclusive sets only shrink as groups are added, so the pruning never
cuts a solvable branch, and four categories are a valid board (some four pool tiles per group, no
tile in the fit set of another group) exactly when each has >= 4 exclusive codes: the search is
complete. The four tiles of each group are drawn after the search, ``shuffle(exclusive)[:4]`` in
tier order, so no subset choice can break a solvable assignment. Without arguable codes the fit set
is the pool and the search is the one over pools alone, draw for draw.

No second answer, few decoy fours (issue 31). The tiles are drawn at the search's leaf, with the
decoy: when the sixteen tiles deal more than DECOY_FOURS_CAP complete off-board fours
(``decoy_fours``: categories whose fit set holds exactly four of the tiles, not all of one group)
or also split into four fours by other labels (``second_split``: some four categories, off the
board or on it, each of whose labels names exactly four of the tiles under some reading), the leaf
draws again from where the Rng stands, up to REDRAWS times, and when no draw passes the search
moves on to its next candidate as if the last one had failed. A board that passes on its first
draw consumes the draws it did before these rules. The search over categories stays complete;
over tiles it is bounded by REDRAWS (a library whose every board fails on each draw ends in
NoBoardError).

Steered by ratings (``Tables.level`` and ``Tables.step``, which flagcore.ratings.colouring builds
from learned difficulty): at tier d > 0 only the candidates whose level exceeds that of the
category placed at tier d - 1 by ``step[0]`` to ``step[1]`` are moves (filtered before the
shuffle, like a synthetic tag already on the board), so the four groups climb in learned
difficulty by clear steps. Those candidates are read from the step rows, built once when the
tables are prepared (``Prepared.step_rows``: the same moves in the same order as filtering). This
only removes boards, so the search stays complete over the boards that climb; tables without
levels (a library's own) search as before, draw for draw.

In trivia mode the fixed search from a seed also keeps room for ``min_facts`` (two) *fact* groups,
categories flags mode never uses: at tier d, when the facts placed plus the tiers after d fall
short of it, only fact categories are moves (filtered before the shuffle, like a synthetic tag
already on the board). This only removes boards with too few facts, so the search stays complete
over the boards that have enough. ``search_categories`` (a caller's order: the daily schedule)
does not apply it.

The pools both variants draw from are the categories' *certain* codes: pool codes that no
alternative reading takes out of the label (``Category.certain``; the others are doubtful, and
count with the arguable codes). Legacy knows these pools only (the spec's generator never heard
of arguable codes).

With each draw of the tiles (after a legacy board): one draw decides the decoy (u < 2**30, i.e.
``rng() < 0.25``); the draw is made even with ``decoy=False`` so that option changes nothing but the
decoy itself. When applied: the four groups are shuffled, the first group with a herring (a code of
its source not among its own tiles, in code order, not on the board) gets the first such herring in
place of its tile ``below(4)``. The source is the whole pool in legacy (so the decoy can fit another
group, flaw 3) and the exclusive set in the fixed search. Last, the 16 tiles (groups in tier order)
are shuffled.

Raw result (shared with the core): ``(status, cats, group_tiles, tiles, decoy, counters,
ambiguous, arguable, events)``, laid out as flagcore._connections_layout says (the mirror of the
core's connections_search.pxd); ``ambiguous`` counts the tiles in the pool of a group they are not
in, ``arguable`` those in its arguable set.

Like the core, this module is a leaf: it imports nothing above it. The generator hands it the
tables to search and, in ``prepare``, the kit that turns a raw result into a Board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .._args.connections import ORDER_INDEX, ORDER_OFFSETS, ORDER_TIER_LENGTH, category_order_error
from .._connections_layout import (
    ATTEMPT_SALT,
    C_BACKTRACKS,
    C_ENTRIES,
    C_EXHAUSTED,
    C_MOVES,
    C_SKIPS,
    COUNTERS,
    DECOY_BELOW,
    DECOY_FOURS_CAP,
    E_BACKTRACK,
    E_DECOY,
    E_DRAW,
    E_ENTER,
    E_PLACE,
    E_SKIP,
    E_TRY,
    E_UNDO,
    EVENT_KINDS,
    EVENT_WIDTH,
    ITEMS,
    MISS_UNKNOWN,
    R_CROWDS_PLACED,
    R_TAG_ON_BOARD,
    R_TOO_FEW_AVAILABLE,
    R_TOO_FEW_EXCLUSIVE,
    R_TOO_FEW_PICKABLE,
    REASONS,
    REDRAWS,
    REPAIR_TRIES,
    REPAIRS,
    STATUS_NO_BOARD,
    STATUS_OK,
    TEMPTING,
    TIERS,
)
from .connections_fours import _Fours, _split
from .connections_model import ModelPrepared, board_model, learned_key, prepare_model
from .daily_repair import repair_members, wide_repair_members
from .rng import Rng, shuffle

# + the layout names
__all__ = ["EVENT_KINDS", "REASONS", "prepare", "search_board", "search_categories", "search_many", "search_one"]
__all__ += ["decoy_fours", "repair_draw", "second_split"]
# the difficulty model: its kernel (connections_model) and the search it steers
__all__ += ["ModelPrepared", "board_model", "prepare_model", "search_board_model", "search_many_model"]

RawResult = tuple[int, list[int], list[int], list[int], list[int], list[int], int, int, "list[tuple[int, ...]] | None"]


class Prepared:
    """The tables of one (library, mode) in the shape this module searches fastest."""

    __slots__ = (
        "tables",
        "kit",
        "n_codes",
        "pools",
        "pool_sets",
        "fits",
        "fit_sets",
        "synthetic",
        "tag_index",
        "n_tags",
        "tier_lists",
        "fact",
        "min_facts",
        "code_fits",
        "level",
        "step",
        "step_rows",
    )

    def __init__(self, tables: Any, kit: Any) -> None:
        self.tables = tables
        self.kit = kit
        self.n_codes = int(tables.n_codes)
        off = tables.pool_off.tolist()
        flat = tables.pool_flat.tolist()
        self.pools = [flat[off[i] : off[i + 1]] for i in range(len(off) - 1)]  # ascending code index
        self.pool_sets = [frozenset(p) for p in self.pools]
        foff = tables.fit_off.tolist()
        fflat = tables.fit_flat.tolist()
        self.fits = [fflat[foff[i] : foff[i + 1]] for i in range(len(foff) - 1)]  # pool + arguable, ascending
        self.fit_sets = [frozenset(f) for f in self.fits]
        self.synthetic = [bool(s) for s in tables.synthetic.tolist()]
        self.tag_index = tables.tag_index.tolist()
        self.n_tags = int(tables.n_tags)
        toff = tables.tier_off.tolist()
        tflat = tables.tier_flat.tolist()
        self.tier_lists = [tflat[toff[t] : toff[t + 1]] for t in range(TIERS)]
        self.fact = [bool(f) for f in tables.fact.tolist()]
        self.min_facts = int(tables.min_facts)
        self.level = None if tables.level is None else [int(v) for v in tables.level]
        self.step = (int(tables.step[0]), int(tables.step[1]))
        # with levels, the step rows: step_rows[d - 1][p] = tier d's candidates (in their order) whose
        # level exceeds that of category p by step[0]..step[1], built once (the core's Tab.step_flat)
        self.step_rows: list[list[list[int]]] | None = None
        if self.level is not None:
            lv, (lo, hi) = self.level, self.step
            self.step_rows = [
                [[c for c in self.tier_lists[d] if lo <= lv[c] - lv[p] <= hi] for p in range(len(self.pools))]
                for d in range(1, TIERS)
            ]
        # per code, the categories whose fit set holds it (ascending): second_split reads 16 of them
        self.code_fits: list[list[int]] = [[] for _ in range(self.n_codes)]
        for c, fit in enumerate(self.fits):
            for x in fit:
                self.code_fits[x].append(c)


def prepare(tables: Any, kit: Any) -> Prepared:
    """This module's form of ``tables``; ``kit`` (the generator's BoardKit) assembles Boards."""
    return Prepared(tables, kit)


class _Search:
    def __init__(self, prep: Prepared, state: int, legacy: bool, trace: bool, decoy: bool = False) -> None:
        self.p = prep
        self.rng = Rng(state)
        self.legacy = legacy
        self.decoy = decoy
        # the fixed search's leaf: each group's exclusive codes, its four as drawn, after the decoy
        self.sources: list[list[int]] = []
        self.drawn: list[list[int]] = []
        self.groups: list[list[int]] = []
        self.decoy_info = [-1, -1, -1]
        self.events: list[tuple[int, ...]] | None = [] if trace else None
        self.counters = [0] * COUNTERS
        self.cats: list[int] = []
        self.fours: list[list[int]] = []  # legacy: tiles per placed group
        self.spills: list[list[int]] = []  # legacy: what each placed group added to forbidden
        self.used: set[int] = set()
        self.forbidden: set[int] = set()  # legacy: the flat spill set
        self.refcount = [0] * prep.n_codes  # fixed: how many placed fit sets hold each code
        self.used_tags: set[int] = set()
        self.orders: list[list[int]] | None = None  # search_categories: the caller's order per tier

    def ev(self, *fields: int) -> None:
        if self.events is not None:
            self.events.append(tuple(fields) + (-1,) * (EVENT_WIDTH - len(fields)))

    def skip(self, d: int, c: int, reason: int) -> None:
        self.counters[C_SKIPS + reason] += 1
        self.ev(E_SKIP, d, c, reason)

    def exclusive(self, c: int) -> list[int]:
        rc = self.refcount
        return [x for x in self.p.pools[c] if rc[x] == 1]

    def tier(self, d: int) -> bool:
        if d == TIERS:
            # a caller's order (search_categories) asks for categories only: no tiles to draw
            return self.legacy or self.orders is not None or self.leaf()
        p = self.p
        self.counters[C_ENTRIES + d] += 1
        given = p.tier_lists[d] if self.orders is None else self.orders[d]
        rows = p.step_rows if self.orders is None and d > 0 else None
        if rows is not None:  # a rated search: the moves a step above tier d-1's category, from its step row
            given = rows[d - 1][self.cats[-1]]
        # the fixed search keeps room for min_facts fact groups: when the tiers left after this one
        # cannot bring the count up, only facts are moves here
        # (a caller's order, search_categories, is searched as given: the schedule plans its own days)
        facts_only = (
            not self.legacy and self.orders is None and sum(p.fact[c] for c in self.cats) + TIERS - 1 - d < p.min_facts
        )
        # a rated search (Tables.level): a move is harder than the tier before by a step in range
        lv = p.level if p.level is not None else []
        below = lv[self.cats[-1]] if lv and d > 0 and rows is None else None  # a caller's order: filtered here
        step_lo, step_hi = p.step
        moves = [
            c
            for c in given
            if (not p.synthetic[c] or p.tag_index[c] not in self.used_tags)
            and (p.fact[c] or not facts_only)
            and (below is None or step_lo <= lv[c] - below <= step_hi)
        ]
        if self.orders is None:  # a caller's order is tried as given: no shuffle, no draw
            moves = shuffle(moves, self.rng)
        self.ev(E_ENTER, d, -1, len(moves))
        for c in moves:
            self.counters[C_MOVES] += 1
            self.ev(E_TRY, d, c)
            placed = self.try_legacy(d, c) if self.legacy else self.try_fixed(d, c)
            if not placed:
                continue
            if self.tier(d + 1):
                return True
            self.undo(d, c)
            self.counters[C_BACKTRACKS] += 1
            self.ev(E_UNDO, d, c)
        self.counters[C_EXHAUSTED + d] += 1
        self.ev(E_BACKTRACK, d)
        return False

    def try_legacy(self, d: int, c: int) -> bool:
        p = self.p
        pool = p.pools[c]
        used, forbidden = self.used, self.forbidden
        if p.synthetic[c]:
            if any(x in used for x in pool):
                self.skip(d, c, R_TAG_ON_BOARD)
                return False
            free = [x for x in pool if x not in used and x not in forbidden]
            if len(free) < ITEMS:
                self.skip(d, c, R_TOO_FEW_AVAILABLE)
                return False
        else:
            free = [x for x in pool if x not in used and x not in forbidden]
            if len(free) < ITEMS:
                self.skip(d, c, R_TOO_FEW_PICKABLE)
                return False
        four = shuffle(free, self.rng)[:ITEMS]
        spill = [x for x in pool if x not in four]
        self.cats.append(c)
        self.fours.append(four)
        self.spills.append(spill)
        used.update(four)
        forbidden.update(spill)
        if p.synthetic[c]:
            self.used_tags.add(p.tag_index[c])
        self.ev(E_PLACE, d, c, *four, -1)
        return True

    def try_fixed(self, d: int, c: int) -> bool:
        p = self.p
        rc = self.refcount
        pool = p.pools[c]
        if sum(1 for x in pool if rc[x] == 0) < ITEMS:
            self.skip(d, c, R_TOO_FEW_EXCLUSIVE)
            return False
        fit_set = p.fit_sets[c]
        for j in self.cats:
            if sum(1 for x in p.pools[j] if rc[x] == 1 and x not in fit_set) < ITEMS:
                self.skip(d, c, R_CROWDS_PLACED)
                return False
        for x in p.fits[c]:
            rc[x] += 1
        self.cats.append(c)
        if p.synthetic[c]:
            self.used_tags.add(p.tag_index[c])
        self.ev(E_PLACE, d, c, -1, -1, -1, -1, len(self.exclusive(c)))
        return True

    def leaf(self) -> bool:
        """Four categories found: draw each group's four from its exclusive codes and the decoy, up to
        REDRAWS times, until the sixteen tiles deal at most DECOY_FOURS_CAP complete off-board fours
        (``_Fours``: counted once per draw, kept through the repair's swaps and the decoy's) and split
        into four fours in no other way (``second_split``); False (the search moves on) when no draw
        does."""
        sources = [self.exclusive(c) for c in self.cats]
        for _ in range(REDRAWS):
            orders = [shuffle(sources[g], self.rng) for g in range(TIERS)]
            groups = [order[:ITEMS] for order in orders]
            fours = _Fours(self.p, [x for four in groups for x in four])
            _repair(fours, orders, groups)
            drawn = [list(four) for four in groups]
            decoy_info = _decoy(self.rng, self.decoy, sources, groups)
            g, removed, added = decoy_info
            if g >= 0:
                fours.swap(g * ITEMS + groups[g].index(added), removed, added)
            if fours.count <= DECOY_FOURS_CAP and not _split(self.p, [x for four in groups for x in four]):
                self.sources, self.drawn, self.groups, self.decoy_info = sources, drawn, groups, decoy_info
                return True
        return False

    def undo(self, d: int, c: int) -> None:
        p = self.p
        self.cats.pop()
        if p.synthetic[c]:
            self.used_tags.discard(p.tag_index[c])
        if self.legacy:
            self.used.difference_update(self.fours.pop())
            # The spec's flat set: this deletes codes an earlier group may still forbid.
            self.forbidden.difference_update(self.spills.pop())
        else:
            for x in p.fits[c]:
                self.refcount[x] -= 1


def _repair(fours: _Fours, orders: list[list[int]], groups: list[list[int]]) -> None:
    """Swap drawn tiles for spare ones of their group until the draw deals at most DECOY_FOURS_CAP
    complete off-board fours (``fours``: the draw's, kept up to date), at most REPAIRS swaps (no Rng
    draw: the spares are the rest of each group's shuffled order, ``orders[g][4:]``, taken in that
    order).

    A swap takes out the tile that most of the complete fours hold (the first such tile, in group
    order, whose group has spares left) and puts in the one of its group's next REPAIR_TRIES
    spares that leaves the fewest complete fours (the first of them on a tie); a spare tried and
    not taken stays a spare. Redrawing all sixteen until the cap holds took about 170 draws a trivia
    board (2% of first draws met it); with the repair a trivia board costs about 4x less on the twin."""
    spare = [ITEMS] * TIERS
    for _ in range(REPAIRS):
        if fours.count <= DECOY_FOURS_CAP:
            return
        movable = [i for i in range(TIERS * ITEMS) if spare[i // ITEMS] < len(orders[i // ITEMS])]
        if not movable:
            return
        hits = fours.hits
        i = max(movable, key=lambda i: (hits[i], -i))
        g, x = i // ITEMS, groups[i // ITEMS][i % ITEMS]
        order = orders[g]
        out = fours.taken_out(i, x)
        best_j, best_delta = -1, 0
        for j in range(spare[g], min(spare[g] + REPAIR_TRIES, len(order))):
            delta = out + fours.put_in(i, order[j])
            if best_j < 0 or delta < best_delta:
                best_j, best_delta = j, delta
        y = order[best_j]
        order[spare[g]], order[best_j] = order[best_j], order[spare[g]]
        spare[g] += 1
        fours.swap(i, x, y)
        groups[g][i % ITEMS] = y


def _decoy(rng: Rng, decoy: bool, sources: list[list[int]], groups: list[list[int]]) -> list[int]:
    """The decoy draw (made even with ``decoy=False``) and, when applied, its swap in ``groups``:
    [tier, removed, added], or [-1, -1, -1]."""
    if rng.next_uint32() < DECOY_BELOW and decoy:
        on_board = {x for four in groups for x in four}
        for g in shuffle(range(TIERS), rng):
            herring = next((x for x in sources[g] if x not in groups[g] and x not in on_board), None)
            if herring is None:
                continue
            k = rng.below(ITEMS)
            info = [g, groups[g][k], herring]
            groups[g][k] = herring
            return info
    return [-1, -1, -1]


def search_one(prep: Prepared, state: int, legacy: bool, decoy: bool, trace: bool) -> RawResult:
    """Search one board from a uint32 Rng state; see the module docstring for the raw result."""
    s = _Search(prep, state, legacy, trace, decoy)
    if not s.tier(0):
        return (STATUS_NO_BOARD, [-1] * 4, [-1] * 16, [-1] * 16, [-1, -1, -1], s.counters, 0, 0, s.events)
    cats = s.cats
    if legacy:
        groups = [list(f) for f in s.fours]
        decoy_info = _decoy(s.rng, decoy, [prep.pools[c] for c in cats], groups)
    else:
        groups, decoy_info = s.groups, s.decoy_info
        for g, c in enumerate(cats):
            s.ev(E_DRAW, g, c, *s.drawn[g])
    if decoy_info[0] >= 0:
        s.ev(E_DECOY, decoy_info[0], cats[decoy_info[0]], decoy_info[1], decoy_info[2])
    group_tiles = [x for four in groups for x in four]
    tiles = shuffle(group_tiles, s.rng)
    return (
        STATUS_OK,
        list(cats),
        group_tiles,
        tiles,
        decoy_info,
        s.counters,
        *count_ambiguous(prep, cats, group_tiles),
        s.events,
    )


def decoy_fours(prep: Prepared, group_tiles: Any) -> int:
    """How many complete off-board fours the 16 tiles deal (group g at 4g..4g+3, code indices;
    ``_decoy_fours`` says what counts)."""
    tiles = [int(x) for x in group_tiles]
    if len(tiles) != TIERS * ITEMS or not all(0 <= x < prep.n_codes for x in tiles):
        raise ValueError("decoy_fours: group_tiles must be 16 code indices")
    return _decoy_fours(prep, tiles)


def _decoy_fours(prep: Prepared, group_tiles: Sequence[int]) -> int:
    """The categories whose fit set (certain and arguable codes: a player argues either way) holds
    exactly four of the sixteen tiles, not all of one group: four tiles a player can submit whole,
    that share a true feature, and that are not an answer. A category with five or more members on
    the board deals no complete four; one whose four are a group's tiles is that group under
    another label (guessing it is guessing the group). A board's own categories are of that kind
    (no tile fits another group), so the count needs no list of them."""
    return _Fours(prep, group_tiles).count


def repair_draw(prep: Prepared, orders: Any) -> tuple[list[int], int]:
    """The leaf's repair of one draw (``_repair``): ``orders`` holds each group's codes, its four
    first, then its spares in the order the repair takes them (four groups, distinct code indices,
    at least four each). Returns (the 16 tiles after the repair, group g at 4g..4g+3; the complete
    off-board fours they deal)."""
    groups = [[int(x) for x in order] for order in orders]
    codes = [x for order in groups for x in order]
    if (
        len(groups) != TIERS
        or any(len(order) < ITEMS for order in groups)
        or len(set(codes)) != len(codes)
        or not all(0 <= x < prep.n_codes for x in codes)
    ):
        raise ValueError("repair_draw: orders must be four lists of at least 4 distinct code indices")
    fours = [order[:ITEMS] for order in groups]
    state = _Fours(prep, [x for four in fours for x in four])
    _repair(state, groups, fours)
    return [x for four in fours for x in four], state.count


def second_split(prep: Prepared, group_tiles: Any) -> list[tuple[int, int]]:
    """The first split of the 16 tiles (group g at 4g..4g+3, code indices) into four fours other
    than the board's groups, as four (category, mask) pairs, or [] (``_split`` says how)."""
    tiles = [int(x) for x in group_tiles]
    if len(tiles) != TIERS * ITEMS or not all(0 <= x < prep.n_codes for x in tiles):
        raise ValueError("second_split: group_tiles must be 16 code indices")
    return _split(prep, tiles)


def search_categories(prep: Prepared, order_flat: Any, order_off: Any) -> tuple[int, list[int], list[int]]:
    """The fixed search over the caller's candidate order: (status, cats, counters).

    Tier d tries ``order_flat[order_off[d]:order_off[d + 1]]`` in that order (no shuffle, so no
    Rng draw), depth first with the fixed search's pruning; the four categories are returned, no
    tiles. An order that lists every candidate of its tier keeps the search complete; a shorter
    one restricts it (how a schedule asks whether one category can be placed at all). Each tier
    lists at most as many categories as the library's longest tier, each an index of a category.
    """
    flat = np.asarray(order_flat, dtype=np.int64).ravel().tolist()
    off = np.asarray(order_off, dtype=np.int64).ravel().tolist()
    if len(off) != TIERS + 1 or off[0] != 0 or off[TIERS] != len(flat):
        raise category_order_error(ORDER_OFFSETS)
    longest = max(1, *(len(t) for t in prep.tier_lists))  # the core: max(1, longest tier)
    for d in range(TIERS):
        if off[d + 1] < off[d] or off[d + 1] - off[d] > longest:
            raise category_order_error(ORDER_TIER_LENGTH, (d, off[d + 1] - off[d]))
    for c in flat:
        if not 0 <= c < len(prep.pools):
            raise category_order_error(ORDER_INDEX, c)
    s = _Search(prep, 0, False, False)
    s.orders = [flat[off[d] : off[d + 1]] for d in range(TIERS)]
    if not s.tier(0):
        return STATUS_NO_BOARD, [-1] * TIERS, s.counters
    return STATUS_OK, list(s.cats), s.counters


def search_board(prep: Prepared, state: int, seed: int | str, legacy: bool, decoy: bool, trace: bool) -> Any:
    """The Board of one search (twin of the core's search_board): NoBoardError when none is found."""
    return prep.kit.assemble(prep.tables, seed, legacy, search_one(prep, state, legacy, decoy, trace))


def count_ambiguous(prep: Prepared, cats: Sequence[int], group_tiles: Sequence[int]) -> tuple[int, int]:
    """(tiles in the pool of a group they are not in, tiles in the arguable set of such a group)."""
    rule = arguable = 0
    for g in range(TIERS):
        others = [cats[h] for h in range(TIERS) if h != g]
        for x in group_tiles[g * ITEMS : (g + 1) * ITEMS]:
            rule += any(x in prep.pool_sets[c] for c in others)
            arguable += any(x in prep.fit_sets[c] and x not in prep.pool_sets[c] for c in others)
    return rule, arguable


def search_many(
    prep: Prepared,
    states: np.ndarray,
    legacy: bool,
    decoy: bool,
    status: np.ndarray,
    cats: np.ndarray,
    group_tiles: np.ndarray,
    tiles: np.ndarray,
    decoys: np.ndarray,
    counters: np.ndarray,
    ambiguous: np.ndarray,
    arguable: np.ndarray,
) -> None:
    """search_one for each state, written into row i of the output arrays (the core's layout)."""
    for i, state in enumerate(states.tolist()):
        st, c, gt, t, dec, cnt, amb, arg, _ = search_one(prep, state, legacy, decoy, False)
        status[i] = st
        cats[i] = c
        group_tiles[i] = gt
        tiles[i] = t
        decoys[i] = dec
        counters[i] = cnt
        ambiguous[i] = amb
        arguable[i] = arg


def pair_salience(mp: ModelPrepared, cats: Any) -> int:
    """The saliences of the board's two least visible groups, summed (its hidden pair)."""
    a, b = sorted(int(mp.salience[c]) for c in cats)[:2]
    return a + b


def steer_one(
    prep: Any, mp: ModelPrepared, state: int, decoy: bool, lo: int, hi: int, attempts: int, pair_cap: int
) -> Any:
    """One steered search (the loop of search_board_model): (attempt, tempting, pair, state, raw,
    group rows) of the board kept, or (None, raw) of the failed search."""
    salt = Rng((state ^ ATTEMPT_SALT) & 0xFFFFFFFF)
    # (pair excess, range miss, attempt, tempting, pair, state, raw, groups: None until modelled)
    best: tuple[int, int, int, int, int, int, Any, Any] | None = None
    raw: Any = None
    attempts = max(1, attempts)
    for k in range(attempts):
        st = state if k == 0 else salt.next_uint32()
        raw = search_one(prep, st, False, decoy, False)
        if raw[0] != 0:
            break
        pair = pair_salience(mp, raw[1])
        pm = max(0, pair - pair_cap)
        if best is not None and pm > best[0]:
            continue  # a more visible pair is never kept
        groups: Any = None
        t, miss = 0, MISS_UNKNOWN
        if pm == 0 or k == attempts - 1:
            groups, phantoms = board_model(mp, raw[2], raw[1])
            t = sum(1 for p in phantoms if p[3] >= TEMPTING)
            miss = lo - t if t < lo else (t - hi if t > hi else 0)
        if best is None or pm < best[0] or miss < best[1]:
            best = (pm, miss, k, t, pair, st, raw, groups)
        if pm == 0 and miss == 0:
            break
    if best is None:
        return None, raw
    _, _, k, t, pair, st, raw, groups = best
    if groups is None:  # kept without its model: the chosen board needs it for its colours
        groups, phantoms = board_model(mp, raw[2], raw[1])
        t = sum(1 for p in phantoms if p[3] >= TEMPTING)
    return k, t, pair, st, raw, groups


def _coloured(raw: Any, groups: Any, mp: ModelPrepared) -> tuple[list[int], list[int], Any]:
    """(order: the search's group shown in each colour, rank: each group's colour, the raw result
    with its groups and decoy in colour order)."""
    status, cats, gt, tiles, dec, counters, amb, arg, events = raw
    if mp.learned is None:
        order = sorted(range(TIERS), key=lambda g: (groups[g][3], g))
    else:  # learned colours: the learned key first, the model's order on ties
        order = sorted(range(TIERS), key=lambda g: (learned_key(mp, cats[g], groups[g][3]), groups[g][3], g))
    rank = [0] * TIERS
    for colour, g in enumerate(order):
        rank[g] = colour
    new_cats = [cats[g] for g in order]
    new_gt = [x for g in order for x in gt[ITEMS * g : ITEMS * (g + 1)]]
    new_dec = list(dec) if dec[0] < 0 else [rank[dec[0]], dec[1], dec[2]]
    return order, rank, (status, new_cats, new_gt, tiles, new_dec, counters, amb, arg, events)


def search_board_model(
    prep: Any,
    mp: ModelPrepared,
    state: int,
    seed: int | str,
    decoy: bool,
    lo: int,
    hi: int,
    attempts: int,
    pair_cap: int,
    trace: bool,
) -> Any:
    """The fixed search steered by the model: the Board (twin of the core's search_board_model).

    Attempt 0 searches from ``state``, attempt k > 0 from draw k of mulberry32(state ^ ATTEMPT_SALT),
    until a board's two least visible groups have saliences summing to ``pair_cap`` or less (its
    hidden pair) and it has between ``lo`` and ``hi`` tempting phantoms (at most ``attempts``); else
    the first board closest: the smallest excess of the pair over the cap, then the smallest miss
    of the range. An attempt whose pair misses the cap while attempts remain is not modelled (the
    model is the costly part): its miss of the range counts as the worst. Its groups are coloured
    by their model score (yellow the easiest; the search's tier breaks ties) and a group whose
    clause excludes no tile of the board shows its simpler label. A failed search raises
    NoBoardError (from the kit's assembler).
    """
    found = steer_one(prep, mp, state, decoy, lo, hi, attempts, pair_cap)
    if found[0] is None:
        return prep.kit.assemble(prep.tables, seed, False, found[1])  # raises the NoBoardError
    k, t, pair, st, raw, groups = found
    if trace:
        raw = search_one(prep, st, False, decoy, True)  # the chosen attempt once more, traced
    cats = raw[1]
    order, _, coloured = _coloured(raw, groups, mp)
    board = prep.kit.assemble(prep.tables, seed, False, coloured)
    labels = [mp.simpler[cats[g]] if mp.simpler[cats[g]] is not None and groups[g][1] == 0 else None for g in order]
    if any(labels):
        new_groups = tuple(
            replace(grp, label=label) if label is not None else grp for grp, label in zip(board.groups, labels)
        )
        object.__setattr__(board, "groups", new_groups)  # a Board is frozen; it is ours until returned
    board.stats["model"] = {
        "attempt": k,
        "tempting_phantoms": t,
        "hidden_pair": pair,
        "scores": [groups[g][3] for g in order],
        "search_tiers": list(order),
    }
    return board


def search_many_model(
    prep: Prepared,
    mp: ModelPrepared,
    states: np.ndarray,
    decoy: bool,
    lo: int,
    hi: int,
    attempts: int,
    pair_cap: int,
    status: np.ndarray,
    cats: np.ndarray,
    group_tiles: np.ndarray,
    tiles: np.ndarray,
    decoys: np.ndarray,
    counters: np.ndarray,
    ambiguous: np.ndarray,
    arguable: np.ndarray,
    model: np.ndarray,
) -> None:
    """search_board_model for each state into row i of the outputs (the core's layout: groups in
    colour order, the decoy's tier a colour, ``model`` rows of MODEL_ROW)."""
    for i, state in enumerate(states.tolist()):
        found = steer_one(prep, mp, state, decoy, lo, hi, attempts, pair_cap)
        if found[0] is None:
            raw = found[1]
            status[i], counters[i] = raw[0], raw[5]
            continue
        k, t, pair, _, raw, groups = found
        order, _, (st, c, gt, tl, dec, cnt, amb, arg, _) = _coloured(raw, groups, mp)
        status[i], cats[i], group_tiles[i], tiles[i], decoys[i], counters[i] = st, c, gt, tl, dec, cnt
        ambiguous[i], arguable[i] = amb, arg
        simpler = [1 if mp.simpler[raw[1][g]] is not None and groups[g][1] == 0 else 0 for g in order]
        model[i] = [k, t, pair, *(groups[g][3] for g in order), *order, *simpler]


__all__ += ["repair_members", "wide_repair_members"]
