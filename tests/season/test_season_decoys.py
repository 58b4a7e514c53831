"""Few decoy fours on the scheduled dailies, none of a recent label (issue 31): step 4c of
connections.daily (daily/decoys.py), from schedule version 3.

Counted by the tests' own counter (tests/second_split_oracle.py: the Library's fit sets, not the
engines' tables), on the boards as ``daily`` deals them (the twin in use: CI runs this a second
time under FLAGCORE_IMPL=python, on fewer days).
"""

from __future__ import annotations

import collections
import datetime as dt

import pytest
from conftest import use_twin
from second_split_oracle import decoy_fours, oracle
from twin_sizes import sized

from flagcore._connections_layout import DECOY_FOURS_CAP
from flagcore.connections import daily
from flagcore.connections.daily import schedule
from flagcore.connections.daily.decoys import complete_fours, repair, settled, shown_before
from flagcore.connections.daily.fours import draws
from flagcore.connections.daily.search import daily_categories
from flagcore.connections.tables import default_library
from flagcore.days import day_number
from flagcore.library import load_library

FIRST = dt.date(2027, 2, 1)  # schedule version 3's first day
WEEK = 7


def _groups(board):
    return [tuple(g.codes) for g in board.groups]


def _recent_label_fours(mode, boards):
    """Per board (after the first WEEK), the complete off-board fours of a category whose label
    identity a board of the WEEK before showed: (category id, its four tiles)."""
    cats = default_library().categories(mode)
    identity = {c.id: c.identity for c in cats}
    out = []
    for j in range(WEEK, len(boards)):
        shown = {identity[g.category_id] for b in boards[j - WEEK : j] for g in b.groups}
        tiles = set(boards[j].tiles)
        own = {frozenset(g) for g in _groups(boards[j])}
        found = []
        for c in cats:
            fit = frozenset((c.pool | c.arguable) & tiles)
            if c.identity in shown and len(fit) == 4 and fit not in own:
                found.append((c.id, fit))
        out.append(found)
    return out


def _days(first, n):
    return [first + dt.timedelta(days=j) for j in range(n)]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_version_3_dailies_deal_at_most_the_cap_and_were_over_it_as_first_drawn(mode):
    days = _days(FIRST, sized(120, 21))
    boards = [daily(d, mode) for d in days]
    counts = [decoy_fours(mode, _groups(b)) for b in boards]
    assert max(counts) <= DECOY_FOURS_CAP, counts
    # the step is exercised: the members of step 4 as first drawn deal more on most days
    s = schedule(None, mode)
    first = []
    for d in days:
        i = day_number(d)
        fours = next(draws(s, i, daily_categories(s, i)[0]))
        first.append(decoy_fours(mode, [tuple(s.tables.codes[x] for x in f) for f in fours]))
    assert sum(c > DECOY_FOURS_CAP for c in first) >= len(days) // 3, first
    # and the boards keep every other rule of the search: no second split
    assert all(oracle(mode, _groups(b)) is None for b in boards)


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_no_decoy_four_fits_a_label_of_the_past_week(mode):
    boards = [daily(d, mode) for d in _days(FIRST, sized(120, 28))]
    recent = _recent_label_fours(mode, boards)
    assert not any(recent), [r for r in recent if r]


def _greedy_leaves(s, i):
    """Whether the greedy repair alone leaves day i a complete four of a label its week settled on."""
    (cats, _, _), draw, _ = settled(s, i)
    recent = [c for c in range(len(s.identity)) if s.identity[c] in shown_before(s, i) and c not in cats]
    if draw is None or not complete_fours(s, draw[0], recent):
        return False
    return repair(s, i, cats, recent) is None and repair(s, i, cats, recent, draw) is None


def _hard_days(monkeypatch, mode):
    """The days of version 3's first 120 that the greedy repair leaves (found by the compiled core)."""
    use_twin(monkeypatch, "compiled")
    s = schedule(load_library(), mode)
    return [d for d in _days(FIRST, 120) if _greedy_leaves(s, day_number(d))]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_days_the_greedy_repair_leaves_deal_no_decoy_of_a_recent_label(monkeypatch, mode):
    hard = _hard_days(monkeypatch, mode)
    assert hard  # the case is exercised (flags 3 days, trivia 2 when this was written)
    for d in hard:
        boards = [daily(x, mode) for x in _days(d - dt.timedelta(days=WEEK), WEEK + 1)]
        assert _recent_label_fours(mode, boards) == [[]]
        assert decoy_fours(mode, _groups(boards[-1])) <= DECOY_FOURS_CAP
        assert oracle(mode, _groups(boards[-1])) is None
        assert boards[-1].stats["split_redraw"] in (1, 2)


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_twins_clear_the_first_such_day_alike(monkeypatch, mode):
    day = _hard_days(monkeypatch, mode)[0]
    boards = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        boards[name] = daily(day, mode, library=load_library())  # nothing cached
    assert boards["compiled"] == boards["python"]


def test_the_week_before_version_3_is_read_from_the_published_boards():
    """The first days of version 3 read the labels of version 2's last days, as a player saw them."""
    s = schedule(None, "flags")
    idx = {c.id: k for k, c in enumerate(s.tables.categories)}
    week = [daily(d) for d in _days(FIRST - dt.timedelta(days=WEEK), WEEK)]
    assert shown_before(s, day_number(FIRST)) == {s.identity[idx[g.category_id]] for b in week for g in b.groups}


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_complete_fours_match_the_counter_and_the_kernel(mode):
    s = schedule(None, mode)
    for d in _days(FIRST, 10):
        i = day_number(d)
        fours = next(draws(s, i, daily_categories(s, i)[0]))
        codes = [tuple(s.tables.codes[x] for x in f) for f in fours]
        listed = complete_fours(s, fours, list(range(len(s.fit_mask))))
        assert len(listed) == decoy_fours(mode, codes) == s.impl.decoy_fours(s.prepared, [x for f in fours for x in f])


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_twins_deal_the_same_capped_dailies(monkeypatch, mode):
    days = _days(FIRST + dt.timedelta(days=40), 6)
    boards = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        lib = load_library()  # nothing cached
        boards[name] = [daily(d, mode, library=lib) for d in days]
    assert boards["compiled"] == boards["python"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_year_of_version_3_dailies_deals_at_most_the_cap(mode):
    """The first year of version 3 (365 days): every daily at most the cap, no second split, and no
    decoy four of a label of the past week (flags 3 days, trivia 10 under the greedy repair alone)."""
    boards = [daily(d, mode) for d in _days(FIRST, sized(365, 60))]
    assert max(decoy_fours(mode, _groups(b)) for b in boards) <= DECOY_FOURS_CAP
    assert all(oracle(mode, _groups(b)) is None for b in boards)
    recent = _recent_label_fours(mode, boards)
    assert not any(recent), collections.Counter(c for r in recent for c, _ in r)
