"""Version 3's cells read their labels in weighted laps, and their uses fill each tier within the caps (issue 31).

connections/daily/families.py (Cell.use, label_uses, allocate) and allot.py (the flow that makes the
uses whole): a label comes back no sooner than its cell's other labels allow, and no category is
planned more often a year than it has fours.
"""

from __future__ import annotations

import collections
import datetime as dt
import itertools
import math

import pytest
from conftest import use_twin
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections.daily import schedule
from flagcore.connections.daily.allot import fill
from flagcore.connections.daily.families import PER_LABEL, Cell
from flagcore.connections.daily.turns import plan
from flagcore.days import day_number
from flagcore.library import load_library

FIRST = day_number(dt.date(2027, 2, 1))


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    weights=st.data(),
    n=st.integers(0, 120),
)
def test_a_cells_uses_take_each_label_its_weight_a_lap(sizes, weights, n):
    # label g has sizes[g] categories; its weight: its uses in each lap of the labels
    order = tuple(10 * g + j for g, size in enumerate(sizes) for j in range(size))
    labels = tuple(g for g, size in enumerate(sizes) for _ in range(size))
    w = tuple(weights.draw(st.lists(st.integers(1, PER_LABEL), min_size=len(sizes), max_size=len(sizes))))
    cell = Cell(0, 0, order, False, labels, w)
    lap = len(cell.lap)
    assert lap == sum(w)
    counts: collections.Counter[int] = collections.Counter()
    seen = []
    for m in range(n + 2 * lap):
        c, u = cell.use(m)
        assert u == counts[c]  # a category's use index counts its uses
        counts[c] += 1
        seen.append(c // 10)
    for start in range(n):  # every lap of uses holds each label its weight
        window = collections.Counter(seen[start : start + lap])
        assert all(window[g] == w[g] for g in range(len(sizes)))
    for g, size in enumerate(sizes):  # a label's uses read its categories in turn
        mine = [c for c in (cell.use(m)[0] for m in range(n + 2 * lap)) if c // 10 == g]
        assert mine == [10 * g + j % size for j in range(len(mine))]
    for c in set(order):  # uses_of finds every use of c near use n, and only those
        near = set(cell.uses_of(c, n))
        assert {m for m in range(n + 1) if cell.use(m)[0] == c and m >= n - 1} <= near
        assert all(cell.use(m)[0] == c for m in near)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_fill_reaches_the_most_uses_the_caps_allow(data):
    cells = data.draw(st.integers(1, 5))
    tier = [data.draw(st.integers(0, 1)) for _ in range(cells)]
    family = [data.draw(st.integers(0, 2)) for _ in range(cells)]
    cap = [data.draw(st.integers(1, 4)) for _ in range(cells)]
    family_cap = {f: data.draw(st.integers(1, 6)) for f in set(family)}
    days = data.draw(st.integers(1, 6))
    start = [1] * cells
    if any(sum(1 for x in range(cells) if tier[x] == t) > days for t in set(tier)):
        return  # one use a cell already overfills a tier
    if any(sum(1 for x in range(cells) if family[x] == f) > c for f, c in family_cap.items()):
        return
    uses = list(start)
    missing = fill(uses, tier, family, cap, family_cap, days, [0.0] * cells)
    assert all(1 <= u <= c for u, c in zip(uses, cap))
    assert all(sum(u for u, g in zip(uses, family) if g == f) <= c for f, c in family_cap.items())
    assert all(sum(u for u, s in zip(uses, tier) if s == t) <= days for t in set(tier))
    assert missing == sum(days for _ in set(tier)) - sum(uses)
    best = max(  # every assignment within the caps, by brute force
        sum(choice)
        for choice in itertools.product(*[range(1, c + 1) for c in cap])
        if all(sum(u for u, s in zip(choice, tier) if s == t) <= days for t in set(tier))
        and all(sum(u for u, g in zip(choice, family) if g == f) <= c for f, c in family_cap.items())
    )
    assert sum(uses) == best


@pytest.mark.parametrize("mode", ["flags", "trivia"])
@pytest.mark.parametrize("twin_name", ["compiled", "python"])
def test_no_category_is_planned_more_often_a_year_than_it_has_fours(monkeypatch, mode, twin_name):
    # on main before this, flags planned tag:arabic_script (6 certain codes: 15 fours) 21 times in
    # 2027-02-01 .. 2028-01-31, and its fours came back within 180 days
    use_twin(monkeypatch, twin_name)
    s = schedule(load_library(), mode)  # a fresh Library: built on this twin
    uses = collections.Counter(c for i in range(FIRST, FIRST + 365) for c, _ in plan(s, i))
    over = {
        s.tables.categories[c].id: n
        for c, n in uses.items()
        if len(s.certain[c]) >= 6 and n > math.comb(len(s.certain[c]), 4)
    }
    assert not over
    for x, cell in enumerate(s.pattern.cells):  # and no label more than PER_LABEL times a cycle
        if cell.weights:
            assert all(s.pattern.uses(x) * w <= PER_LABEL * len(cell.lap) for w in cell.weights)
