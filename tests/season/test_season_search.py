"""The search over a caller's candidate order (search_categories): both twins, the fixed search's guarantees."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TWINS
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import find_ambiguities
from flagcore.connections.board import Board, Group
from flagcore.connections.tables import default_library, tables_for

LIB = default_library()
TWINS_CONN = {name: mods["connections"] for name, mods in TWINS.items()}


def _orders(mode: str, rnd: np.random.Generator, keep: float = 1.0) -> list[list[int]]:
    tables, _ = tables_for(TWINS_CONN["compiled"], LIB, mode)
    off = tables.tier_off.tolist()
    out = []
    for t in range(4):
        tier = tables.tier_flat[off[t] : off[t + 1]].tolist()
        rnd.shuffle(tier)
        out.append(tier[: max(1, int(len(tier) * keep))])
    return out


def _flat(orders: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    flat = np.array([c for o in orders for c in o], dtype=np.int32)
    off = np.cumsum([0] + [len(o) for o in orders]).astype(np.int32)
    return flat, off


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["flags", "trivia"]), keep=st.sampled_from([0.1, 0.3, 1.0]))
def test_twins_agree_on_any_order(seed, mode, keep):
    orders = _orders(mode, np.random.default_rng(seed), keep)
    results = []
    for impl in TWINS_CONN.values():
        _, prepared = tables_for(impl, LIB, mode)
        results.append(impl.search_categories(prepared, *_flat(orders)))
    assert results[0] == results[1]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_full_order_always_finds_a_fair_board(mode):
    # every candidate listed: complete, so a board is found whatever the order, and it is the
    # fixed search's: some four certain codes per group fit no other group, even arguably
    rnd = np.random.default_rng(7)
    impl = TWINS_CONN["compiled"]
    tables, prepared = tables_for(impl, LIB, mode)
    for _ in range(200):
        orders = _orders(mode, rnd)
        status, cats, _ = impl.search_categories(prepared, *_flat(orders))
        assert status == 0
        assert [tables.categories[c].tier for c in cats] == [0, 1, 2, 3]
        groups = []
        for g, c in enumerate(cats):
            others = set().union(*(tables.categories[h].pool | tables.categories[h].arguable for h in cats if h != c))
            free = sorted(tables.categories[c].certain - others)
            assert len(free) >= 4
            groups.append(Group(g, tables.categories[c].label, tuple(free[:4]), tables.categories[c].id))
        board = Board(tuple(x for g in groups for x in g.codes), tuple(groups), 0, mode)
        assert find_ambiguities(board, LIB) == []


def test_order_is_tried_as_given():
    # the first category of each tier wins when the four form a board
    impl = TWINS_CONN["compiled"]
    tables, prepared = tables_for(impl, LIB, "trivia")
    rnd = np.random.default_rng(3)
    for _ in range(50):
        orders = _orders("trivia", rnd)
        status, cats, counters = impl.search_categories(prepared, *_flat(orders))
        if counters[1] == 0:  # no backtrack: each tier took its first candidate that fits
            assert cats[0] == orders[0][0]


@pytest.mark.parametrize("twin_name", ["compiled", "python"])
@pytest.mark.parametrize(
    "flat,off,message",
    [
        ([0], [0, 1, 1, 1], "order_off must be 5 offsets"),
        ([0, 1], [0, 1, 1, 1, 3], "order_off must be 5 offsets"),
        ([10**6], [0, 1, 1, 1, 1], "out of range"),
        ([-1], [0, 1, 1, 1, 1], "out of range"),
        (list(range(200)), [0, 200, 200, 200, 200], "tier 0 lists 200 candidates"),
    ],
)
def test_bad_orders_are_refused_alike(twin_name, flat, off, message):
    impl = TWINS_CONN[twin_name]
    _, prepared = tables_for(impl, LIB, "flags")
    with pytest.raises(ValueError, match=message):
        impl.search_categories(prepared, np.array(flat, dtype=np.int32), np.array(off, dtype=np.int32))
