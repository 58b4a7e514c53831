"""No second answer: no board splits into four fours by labels other than its own four (issue 31).

The oracle here is an exact-cover search of its own, over the Library's categories (their certain
and fit sets as codes, not the engines' tables), choosing the tile with the fewest fours first; the
engines' kernel (``second_split``, both twins) covers the lowest tile first over bucketed bit masks.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from second_split_oracle import decoy_fours, oracle
from twin_sizes import sized

from flagcore import _connections as compiled
from flagcore import connections
from flagcore._connections_layout import DECOY_FOURS_CAP
from flagcore.connections import find_second_split, generate_many
from flagcore.connections.search import generate_with
from flagcore.connections.tables import default_library, tables_for
from flagcore.reference import connections as ref

MODES = ("flags", "trivia")
LEVELS = (None, "easy", "normal", "hard", 2)
TWINS = (compiled, ref)


def kernel(impl, mode: str, groups: list[tuple[str, ...]]):
    tables, prep = tables_for(impl, None, mode)
    index = {code: i for i, code in enumerate(tables.codes)}
    return impl.second_split(prep, [index[c] for g in groups for c in g])


def _groups(board) -> list[tuple[str, ...]]:
    return [tuple(g.codes) for g in board.groups]


def _random_board(mode: str, rng: random.Random) -> list[tuple[str, ...]]:
    """Four random categories, four random certain codes each, sixteen distinct (not a fair board)."""
    cats = default_library().categories(mode)
    while True:
        chosen = rng.sample(cats, 4)
        groups, seen = [], set()
        for c in chosen:
            free = sorted(c.certain - seen)
            if len(free) < 4:
                break
            four = tuple(rng.sample(free, 4))
            seen.update(four)
            groups.append(four)
        if len(groups) == 4:
            return groups


@pytest.mark.parametrize("mode", MODES)
def test_kernel_agrees_with_the_oracle(mode):
    """On boards that are not the fixed search's (legacy boards, random groups), where second splits
    exist: both twins find one exactly when the oracle does, and theirs is a true split."""
    rng = random.Random(31)
    boards = [_groups(connections.generate(s, mode, legacy=True)) for s in range(sized(150, 40))]
    boards += [_random_board(mode, rng) for _ in range(sized(150, 40))]
    cats = [(c.id, frozenset(c.pool | c.arguable), frozenset(c.certain)) for c in default_library().categories(mode)]
    by_id = {cid: (fit, certain) for cid, fit, certain in cats}
    found = 0
    for groups in boards:
        want = oracle(mode, groups)
        found += want is not None
        tiles = [c for g in groups for c in g]
        results = [kernel(impl, mode, groups) for impl in TWINS]
        assert results[0] == results[1]
        assert bool(results[0]) == (want is not None), groups
        if results[0]:
            tables, _ = tables_for(compiled, None, mode)
            seen = set()
            for c, mask in results[0]:
                fit, certain = by_id[tables.categories[c].id]
                four = {tiles[i] for i in range(16) if mask >> i & 1}
                assert len(four) == 4 and four <= fit and certain & set(tiles) <= four and not four & seen
                seen |= four
            assert len({c for c, _ in results[0]}) == 4 and len(seen) == 16
            assert {frozenset(tiles[i] for i in range(16) if m >> i & 1) for _, m in results[0]} != set(
                map(frozenset, groups)
            )
    assert found >= sized(10, 2), found  # the sample holds second splits: the comparison means something


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("difficulty", LEVELS)
def test_generated_boards_have_no_second_split_on_both_twins(mode, difficulty):
    """And deal at most DECOY_FOURS_CAP complete off-board fours (tests/connections/test_decoy_fours.py)."""
    for seed in range(sized(60, 12)):
        for impl in TWINS:
            for decoy in (True, False):
                board = generate_with(impl, seed, mode, difficulty=difficulty, decoy=decoy)
                assert oracle(mode, _groups(board)) is None, (impl.__name__, seed, difficulty, decoy)
                assert find_second_split(board) is None
                assert decoy_fours(mode, _groups(board)) <= DECOY_FOURS_CAP, (impl.__name__, seed, difficulty, decoy)


@pytest.mark.parametrize("mode", MODES)
def test_batches_have_no_second_split(mode):
    batch = generate_many(np.arange(sized(400, 30), dtype=np.uint32), mode)
    for board in batch:
        assert oracle(mode, _groups(board)) is None


def test_find_second_split_names_the_fours(twin):
    mode = "trivia"
    board = next(
        b
        for b in (connections.generate(s, mode, legacy=True) for s in range(200))
        if oracle(mode, _groups(b)) is not None
    )
    split = find_second_split(board)
    assert split is not None and len(split) == 4
    labels = {c.id: c.label for c in default_library().categories(mode)}
    assert all(labels[f.category_id] == f.label and len(f.codes) == 4 for f in split)
    assert sorted(c for f in split for c in f.codes) == sorted(board.tiles)
    with pytest.raises(TypeError, match="board"):
        find_second_split("not a board")  # type: ignore[arg-type]


# the two kernels over a board's sixteen code indices: the split, and the decoy fours' count
# (tests/connections/test_decoy_fours.py holds the count to a counter of its own)
KERNELS = ("second_split", "decoy_fours")


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(MODES), kernel_name=st.sampled_from(KERNELS), data=st.data())
def test_twins_agree_on_random_tiles(mode, kernel_name, data):
    tables, _ = tables_for(compiled, None, mode)
    tiles = data.draw(st.lists(st.integers(0, tables.n_codes - 1), min_size=16, max_size=16, unique=True))
    got = [getattr(impl, kernel_name)(tables_for(impl, None, mode)[1], tiles) for impl in TWINS]
    assert got[0] == got[1]


@pytest.mark.parametrize("impl", TWINS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("kernel_name", KERNELS)
@pytest.mark.parametrize("bad", [[0] * 15, [0] * 17, [-1] + list(range(1, 16)), [10**6] + list(range(1, 16))])
def test_second_split_bad_tiles(impl, kernel_name, bad):
    _, prep = tables_for(impl, None, "flags")
    with pytest.raises(ValueError, match=f"{kernel_name}: group_tiles must be 16 code indices"):
        getattr(impl, kernel_name)(prep, bad)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_no_second_split_over_many_seeds(mode):
    """The issue's bar: zero boards with a second split over 100,000 seeds per mode at every
    difficulty (the engine's kernel on each, the oracle above on every 100th)."""
    for level in (None, "easy", "normal", "hard"):
        for s in range(sized(100_000, 300)):
            board = connections.generate(s, mode, difficulty=level)
            assert find_second_split(board) is None, (level, s)
            if s % 100 == 0:
                assert oracle(mode, _groups(board)) is None, (level, s)
