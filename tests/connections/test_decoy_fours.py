"""A cap on complete off-board decoy fours (issue 31): no board deals more than DECOY_FOURS_CAP.

A complete off-board four: a category whose members (certain or arguable) on the board are
exactly four tiles, not all of one group. The counter (tests/second_split_oracle.py) is one of its
own, over the Library's categories as code sets (not the engines' tables, nor their masks); the
engines' kernel (``decoy_fours``, both twins) counts over per-code lists and 16-bit masks. Every
generated board of both twins at every difficulty, decoy or not, is held to the cap with its second
split in tests/connections/test_second_split.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from second_split_oracle import decoy_fours as count
from twin_sizes import sized

from flagcore import _connections as compiled
from flagcore import connections
from flagcore._connections_layout import DECOY_FOURS_CAP
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
