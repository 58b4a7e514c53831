"""generate_many steered by a difficulty: each board is generate's, on both twins (issue 30, item 7)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import connections
from flagcore.connections.batch import generate_many_with
from flagcore.reference import connections as ref

ARRAYS = ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous", "arguable", "model")


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_default_batch_is_generates_default(mode, twin):
    seeds = [*range(40), "a", "daily:2027-03-01", 2**32 - 1]
    batch = connections.generate_many(seeds, mode, threads=2)
    assert batch.difficulty == "normal"
    for i, s in enumerate(seeds):
        one = connections.generate(s, mode)
        assert batch[i] == one and batch[i].stats == one.stats
        assert connections.board_id(batch[i]) == connections.board_id(one)


@settings(max_examples=15, deadline=None)
@given(
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=12),
    mode=st.sampled_from(["flags", "trivia"]),
    difficulty=st.sampled_from(["easy", "normal", "hard", 0, 2, 5, None]),
    decoy=st.booleans(),
)
def test_compiled_batch_equals_reference_batch(seeds, mode, difficulty, decoy):
    a = connections.generate_many(seeds, mode, difficulty=difficulty, decoy=decoy, threads=1)
    b = generate_many_with(ref, seeds, mode, difficulty=difficulty, decoy=decoy)
    for name in ARRAYS:
        x, y = getattr(a, name, None), getattr(b, name, None)
        assert (x is None and y is None) or np.array_equal(x, y), name
    for i, s in enumerate(seeds[:4]):
        one = connections.generate(s, mode, difficulty=difficulty, decoy=decoy)
        assert a[i] == b[i] == one and a[i].stats == one.stats


def test_threads_do_not_change_a_steered_batch():
    seeds = np.arange(1200, dtype=np.uint32)
    one = connections.generate_many(seeds, "trivia", threads=1, difficulty="hard")
    four = connections.generate_many(seeds, "trivia", threads=4, difficulty="hard")
    for name in ARRAYS:
        assert np.array_equal(getattr(one, name), getattr(four, name)), name
    assert one.ok.all() and not one.ambiguous.any() and not one.arguable.any()


def test_bad_difficulty_is_refused_like_generate():
    with pytest.raises(ValueError, match="difficulty") as a:
        connections.generate_many([1], difficulty="brutal")
    with pytest.raises(ValueError, match="difficulty") as b:
        connections.generate(1, difficulty="brutal")
    assert str(a.value) == str(b.value)
