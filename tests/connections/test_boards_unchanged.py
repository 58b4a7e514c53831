"""generate's boards do not change with the engine's speed (issue 35): digests pinned on main at
43f909e, before the leaf kept its decoy fours' count through the repair instead of recounting.

A board id rebuilds a board from its seed, so a change of the search that is only faster must deal
every seed the same board: tiles, groups, labels, colours and stats (counters, decoy, model). The
compiled core is held to the digests of the larger sample; the twin (FLAGCORE_IMPL=python and the
``twin`` fixture) to those of the smaller one. A change that means to change boards updates them
and says so.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from twin_sizes import ON_TWIN

from flagcore import connections

# (mode, difficulty): digest of seeds 0..n-1, for n = LARGE (compiled) and SMALL (either twin)
LARGE, SMALL = 2000, 16
PINNED = {
    ("flags", None): ("43c8edce919dcee0", "7115206275c36513"),
    ("flags", "normal"): ("6350b680a894b8e7", "1ede89b4a26deac8"),
    ("flags", "hard"): ("63955cccc34db038", "001b8f5029ab733b"),
    ("trivia", None): ("9412a51f833a81ee", "9634671d80b62d7a"),
    ("trivia", "normal"): ("4a8f050fd4c0cfe5", "61a54e6b1f163300"),
    ("trivia", "hard"): ("793a286d47f3579b", "113853fa370a125b"),
}
# generate_many at normal on 2 threads (batch[i] is generate(seeds[i]): the same digests)
BATCHES = {"flags": ("6350b680a894b8e7", "1ede89b4a26deac8"), "trivia": ("4a8f050fd4c0cfe5", "61a54e6b1f163300")}


def digest(boards) -> str:
    """sha256 (16 hex digits) over each board's tiles, groups, seed, mode and stats, in order."""
    h = hashlib.sha256()
    for b in boards:
        groups = [(g.tier, g.label, g.codes, g.category_id) for g in b.groups]
        h.update(json.dumps([b.tiles, groups, b.seed, b.mode, b.legacy, b.stats], sort_keys=True).encode())
    return h.hexdigest()[:16]


def generated(mode: str, difficulty: str | None, n: int) -> str:
    return digest(connections.generate(s, mode, difficulty=difficulty) for s in range(n))


def batch(mode: str, n: int) -> str:
    boards = connections.generate_many(np.arange(n, dtype=np.uint32), mode, threads=2)
    return digest(boards[i] for i in range(n))


@pytest.mark.parametrize(("mode", "difficulty"), list(PINNED))
def test_generate_keeps_its_boards(mode, difficulty):
    large, small = PINNED[mode, difficulty]
    assert generated(mode, difficulty, SMALL if ON_TWIN else LARGE) == (small if ON_TWIN else large)


@pytest.mark.parametrize("mode", list(BATCHES))
def test_generate_many_keeps_its_boards(mode):
    large, small = BATCHES[mode]
    assert batch(mode, SMALL if ON_TWIN else LARGE) == (small if ON_TWIN else large)


@pytest.mark.parametrize(("mode", "difficulty"), list(PINNED))
def test_both_twins_keep_the_small_sample(twin, mode, difficulty):
    assert generated(mode, difficulty, SMALL) == PINNED[mode, difficulty][1]


if __name__ == "__main__":  # print the digests of the tree this runs in (to pin them)
    for key in PINNED:
        print(key, generated(*key, LARGE), generated(*key, SMALL))
    for mode in BATCHES:
        print(mode, batch(mode, LARGE), batch(mode, SMALL))
