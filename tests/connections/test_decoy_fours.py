"""A cap on complete off-board decoy fours (issue 31): no board deals more than DECOY_FOURS_CAP.

A complete off-board four: a category whose members (certain or arguable) on the board are
exactly four tiles, not all of one group. The counter (tests/second_split_oracle.py) is one of its
own, over the Library's categories as code sets (not the engines' tables, nor their masks); the
engines' kernel (``decoy_fours``, both twins) counts over per-code lists and 16-bit masks, and the
leaf's repair (``repair_draw``) keeps that count through its swaps; both are held to the counter
and to a repair of this module's own on random draws (hypothesis). Every
generated board of both twins at every difficulty, decoy or not, is held to the cap with its second
split in tests/connections/test_second_split.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from second_split_oracle import complete_fours
from second_split_oracle import decoy_fours as count
from twin_sizes import sized

from flagcore import _connections as compiled
from flagcore import connections
from flagcore._connections_layout import DECOY_FOURS_CAP, REPAIR_TRIES, REPAIRS
from flagcore.connections import generate_many
from flagcore.connections.tables import default_library, tables_for
from flagcore.reference import connections as ref

MODES = ("flags", "trivia")
TWINS = (compiled, ref)


def _groups(board) -> list[tuple[str, ...]]:
    return [tuple(g.codes) for g in board.groups]


def kernel(impl, mode: str, groups: list[tuple[str, ...]]) -> int:
    tables, prep = tables_for(impl, None, mode)
    index = {code: i for i, code in enumerate(tables.codes)}
    return impl.decoy_fours(prep, [index[c] for g in groups for c in g])


@pytest.mark.parametrize("mode", MODES)
def test_kernel_agrees_with_the_counter(mode):
    """On legacy boards and random groups (not capped): both twins count what the counter counts,
    and the sample holds boards over the cap, so the generator's rule has something to cut."""
    rng = random.Random(31)
    boards = [_groups(connections.generate(s, mode, legacy=True)) for s in range(sized(150, 40))]
    codes = sorted({c for cat in default_library().categories(mode) for c in cat.pool | cat.arguable})
    for _ in range(sized(150, 40)):
        tiles = rng.sample(codes, 16)
        boards.append([tuple(tiles[4 * g : 4 * g + 4]) for g in range(4)])
    over = 0
    for groups in boards:
        want = count(mode, groups)
        assert [kernel(impl, mode, groups) for impl in TWINS] == [want, want], groups
        over += want > DECOY_FOURS_CAP
    assert over >= len(boards) // 4, over


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("difficulty", (None, "normal", "hard"))
def test_the_cap_over_many_seeds(mode, difficulty):
    """Every board of 1,000 seeds per mode (the public API: the twin FLAGCORE_IMPL names) keeps it."""
    boards = (connections.generate(s, mode, difficulty=difficulty) for s in range(sized(1000, 40)))
    assert max(count(mode, _groups(b)) for b in boards) <= DECOY_FOURS_CAP


@pytest.mark.parametrize("mode", MODES)
def test_batches_keep_the_cap(mode):
    for difficulty in (None, "normal"):
        batch = generate_many(np.arange(sized(400, 30), dtype=np.uint32), mode, difficulty=difficulty)
        for board in batch:
            assert count(mode, _groups(board)) <= DECOY_FOURS_CAP


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_cap_over_100k_seeds(mode):
    for level in (None, "easy", "normal", "hard"):
        for s in range(sized(100_000, 300)):
            assert count(mode, _groups(connections.generate(s, mode, difficulty=level))) <= DECOY_FOURS_CAP, (level, s)


# The kernels on random inputs (hypothesis): the count on any sixteen tiles, and the leaf's repair
# (``repair_draw``) on any draw, both twins against the oracle's counter and a repair of its own.


def _codes(mode: str) -> tuple[str, ...]:
    return tuple(tables_for(compiled, None, mode)[0].codes)


def _prepared(mode: str) -> tuple[object, object]:
    return tables_for(compiled, None, mode)[1], tables_for(ref, None, mode)[1]


def repair_oracle(mode: str, orders: list[list[str]]) -> tuple[list[str], int]:
    """The repair as ``reference.connections._repair``'s docstring states it, every count from
    scratch with the oracle's counter over code sets (no masks, no kept state): up to REPAIRS
    swaps while the draw deals more than the cap, each taking out the first of the tiles most
    complete fours hold whose group has spares left, and putting in the spare of the next
    REPAIR_TRIES that leaves the fewest (the first on a tie), spares taken in order."""
    orders = [list(o) for o in orders]
    groups = [o[:4] for o in orders]
    spare = [4] * 4

    def fours(gs: list[list[str]]) -> list[frozenset[str]]:
        return complete_fours(mode, [tuple(g) for g in gs])

    for _ in range(REPAIRS):
        now = fours(groups)
        if len(now) <= DECOY_FOURS_CAP:
            break
        movable = [i for i in range(16) if spare[i // 4] < len(orders[i // 4])]
        if not movable:
            break
        hits = [sum(groups[i // 4][i % 4] in f for f in now) for i in range(16)]
        i = max(movable, key=lambda i: (hits[i], -i))
        g, k = divmod(i, 4)

        def after(j: int) -> int:
            trial = [list(x) for x in groups]
            trial[g][k] = orders[g][j]
            return len(fours(trial))

        j = min(range(spare[g], min(spare[g] + REPAIR_TRIES, len(orders[g]))), key=lambda j: (after(j), j))
        orders[g][spare[g]], orders[g][j] = orders[g][j], orders[g][spare[g]]
        groups[g][k] = orders[g][spare[g]]
        spare[g] += 1
    return [x for gr in groups for x in gr], len(fours(groups))


@st.composite
def draws(draw: st.DrawFn, mode: str, board: bool) -> list[list[int]]:
    """Four disjoint groups of code indices, 4 to 12 each (a draw's four, then its spares): any
    codes, or (``board``) a legacy board's groups first (uncapped: most deal more than the cap)."""
    n = len(_codes(mode))
    sizes = draw(st.lists(st.integers(4, 12), min_size=4, max_size=4))
    fours: list[list[int]] = [[] for _ in range(4)]
    if board:
        index = {c: i for i, c in enumerate(_codes(mode))}
        b = connections.generate(draw(st.integers(0, 2**32 - 1)), mode, legacy=True)
        fours = [[index[c] for c in g.codes] for g in b.groups]
    taken = {x for f in fours for x in f}
    rest = draw(st.permutations([x for x in range(n) if x not in taken]))
    out, at = [], 0
    for g in range(4):
        more = sizes[g] - len(fours[g])
        out.append(fours[g] + list(rest[at : at + more]))
        at += more
    return out


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=sized(200, 40), deadline=None)
@given(data=st.data())
def test_count_on_random_tiles(mode, data):
    """``decoy_fours`` on any sixteen distinct tiles: the twins and the oracle's counter agree."""
    order = data.draw(draws(mode, board=False))
    tiles = [x for o in order for x in o[:4]]
    codes = _codes(mode)
    want = count(mode, [tuple(codes[x] for x in tiles[4 * g : 4 * g + 4]) for g in range(4)])
    assert [impl.decoy_fours(p, tiles) for impl, p in zip(TWINS, _prepared(mode))] == [want, want]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("board", (False, True), ids=("random", "legacy-board"))
@settings(max_examples=sized(200, 30), deadline=None)
@given(data=st.data())
def test_repair_matches_its_oracle(mode, board, data):
    """``repair_draw``: both twins return the oracle's tiles and count (its count kept through the
    swaps, the oracle's recounted), on random draws and on legacy boards with random spares."""
    orders = data.draw(draws(mode, board))
    codes = _codes(mode)
    tiles, n = repair_oracle(mode, [[codes[x] for x in o] for o in orders])
    want = ([codes.index(c) for c in tiles], n)
    assert [impl.repair_draw(p, orders) for impl, p in zip(TWINS, _prepared(mode))] == [want, want]


def test_repair_has_work_to_do():
    """The repair's inputs above reach the cases that matter: draws over the cap it brings under,
    and draws it cannot (trivia's, often); so the oracle checks more than an unchanged draw."""
    rng = random.Random(35)
    mode, (pc, _) = "trivia", _prepared("trivia")
    start = under = 0
    for _ in range(100):
        codes = rng.sample(range(len(_codes(mode))), 40)
        orders = [codes[10 * g : 10 * g + 10] for g in range(4)]
        start += compiled.decoy_fours(pc, [x for o in orders for x in o[:4]]) > DECOY_FOURS_CAP
        under += compiled.repair_draw(pc, orders)[1] <= DECOY_FOURS_CAP
    assert start >= 50 and 5 <= under <= 95, (start, under)


@pytest.mark.parametrize(
    "orders",
    [
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],  # three groups
        [[0, 1, 2], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],  # a group of three
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 3]],  # a code twice
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 10**6]],  # no such code
    ],
)
def test_repair_draw_bad_orders(orders):
    """Both twins refuse the same orders with the same error."""
    errors = []
    for impl, p in zip(TWINS, _prepared("flags")):
        with pytest.raises(ValueError) as e:
            impl.repair_draw(p, orders)
        errors.append(str(e.value))
    assert errors[0] == errors[1]
