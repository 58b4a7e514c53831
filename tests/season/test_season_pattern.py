"""Schedule version 3 (from 2027-02-01): each day's four families first, across the tiers (issue 31).

connections/daily/families.py: cells (a family's categories in one tier), their uses a cycle, the
layout of 56 days that rests families, each cycle's wander from it, and a cell's use counting.
"""

from __future__ import annotations

import collections
import datetime as dt

import pytest
from conftest import use_twin
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.cli.season_shown import shown_figures
from flagcore.connections import daily
from flagcore.connections.daily import categories, schedule
from flagcore.connections.daily.families import PATTERN, WEEK, Cell, Layout, weekdays
from flagcore.connections.daily.turns import planned_at, turn_at, turns
from flagcore.days import day_number
from flagcore.library import load_library

FIRST = day_number(dt.date(2027, 2, 1))
YEAR = [dt.date(2027, 2, 1) + dt.timedelta(days=j) for j in range(365)]


def _crowded(days):
    """A family's breaks over these days' families: (on the day before, 7-day windows with it 3 times)."""
    before = sum(1 for j in range(1, len(days)) if set(days[j]) & set(days[j - 1]))
    windows = sum(
        1
        for j in range(len(days))
        if max(collections.Counter(f for d in days[max(0, j - 6) : j + 1] for f in d).values()) > 2
    )
    return before, windows


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_plan_rests_families(mode):
    # the plans (before any board is searched): one cell per tier a day, families kept apart; trivia
    # keeps nearly every rest, flags most (its seven families of two showings a week keep their
    # weekdays, families.weekdays; the layout breaks a few other rests: Pattern.broken)
    s = schedule(None, mode)
    assert s.version == 3 and s.pattern is not None
    fams = [[s.family[planned_at(s, t, FIRST + j)] for t in range(4)] for j in range(365)]
    before, windows = _crowded(fams)
    if mode == "trivia":
        # broken also counts a cell's label spacing (LABEL_GAP) since 2026-12-03: 60 measured
        assert before <= 2 and windows <= 5 and s.pattern.broken < 80
    else:  # version 2's boards over the same days: 129 and 325 (flagcore season); 5 and 28 measured
        # (10 and 193 before the weekdays and the deal, 2026-12-04)
        assert before <= 8 and windows <= 50
        assert len(s.pattern.due) == 7
        for due in s.pattern.due.values():  # each such family on its two weekdays, 3 days apart
            first, second = sorted({d % WEEK for d in due})
            assert second - first in (3, 4) and len(due) == 2 * PATTERN // WEEK
    assert all(len(set(day)) == 4 for day in fams)  # four families a day
    if s.min_facts:
        assert all(sum(s.fact[planned_at(s, t, FIRST + j)] for t in range(4)) >= s.min_facts for j in range(365))


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_cells_uses_count_each_categorys_turns(mode):
    # a category's use index counts its turns: consecutive on the days its cell gives it (outside
    # a tier's cell of small pools, which picks by the families around), and turns() finds them
    s = schedule(None, mode)
    rare = {c for cell in s.pattern.cells if cell.family < 0 for c in cell.order}
    seen = collections.defaultdict(list)
    for j in range(3 * PATTERN):
        for t in range(4):
            c, u = turn_at(s, t, FIRST + j)
            seen[(c, t)].append((FIRST + j, u))
    for (c, _t), where in seen.items():
        if c in rare:
            continue
        assert [u for _, u in where] == list(range(len(where))), s.tables.categories[c].id
        for day, u in where:
            assert (day, u) in turns(s, c, day)


@settings(max_examples=30, deadline=None)
@given(uses=st.lists(st.integers(1, 6), min_size=2, max_size=6), n=st.integers(0, 200))
def test_cell_use_reads_its_order_a_lap_at_a_time(uses, n):
    order = tuple(x for x, k in enumerate(uses) for _ in range(min(k, 2)))
    cell = Cell(0, 0, order, False)
    counts = collections.Counter()
    for m in range(n):
        c, u = cell.use(m)
        assert c == order[m % len(order)] and u == counts[c]
        counts[c] += 1


def test_a_layout_counts_the_rests_it_breaks():
    # two cells of one family in two tiers: on one day (4), on consecutive days (2), a WEEK apart (0)
    cells = [Cell(0, 7, (0,), False), Cell(1, 7, (1,), False), Cell(0, 8, (2,), False), Cell(1, 9, (3,), False)]
    identity = (0, 1, 2, 3)
    apart = [[0] * 4 for _ in range(4)]

    def layout(one, other):
        days = [[2, 3] for _ in range(PATTERN)]
        days[one][0], days[other][1] = 0, 1
        return Layout(cells, identity, 0, days, apart)

    assert layout(10, 10).cost[7] == 4
    assert layout(10, 11).cost[7] == 2
    assert layout(10, 10 + WEEK).cost[7] == 0
    lay = layout(10, 11)
    assert lay.cost[7] == 2
    lay.keep(11, 30, 1)  # moving one away mends family 7's rest
    assert lay.cost[7] == 0 and lay.days[30][1] == 1 and lay.days[11][1] == 3


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_pattern_is_the_same_on_both_twins_and_keeps_its_engine(monkeypatch, mode):
    patterns = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        s = schedule(load_library(), mode)  # a fresh Library: built on this twin
        other = "python" if name == "compiled" else "compiled"
        use_twin(monkeypatch, other)  # a cycle computed after a switch still uses the build's engine
        patterns[name] = (s.pattern.base, [s.pattern.cycle(k) for k in (0, 3, 11)])
    assert patterns["compiled"] == patterns["python"]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_year_of_version_3_by_what_a_player_sees(mode):
    # the figures by label and family over the first year of version 3, against version 2
    # over 2027-02-01 .. 2027-12-31 (flagcore season): families of the day before 129 / 60 (flags /
    # trivia), 7-day windows with a family 3 times 325 / 145, labels of the past 7 days 153 / 31
    s = schedule(None, mode)
    boards = [daily(d, mode) for d in YEAR]
    shown = shown_figures(boards, categories(s), [r.n for r in s.rotations])
    # (2026-12-04, the weekdays and the deal: flags 7 / 56 / 166, from 14 / 212 / 148; trivia 2 / 9 / 16)
    if mode == "trivia":
        assert shown["family_repeat_within_1"] <= 3 and shown["family_more_than_twice_in_7"] <= 15
        assert shown["identity_repeat_within_7"] <= 20
    else:
        assert shown["family_repeat_within_1"] <= 10 and shown["family_more_than_twice_in_7"] <= 70
        assert shown["identity_repeat_within_7"] <= 180
    assert shown["identity_repeat_within_1"] == 0
    assert all(b.stats["scheduled"] for b in boards)


def test_a_servers_thread_builds_every_version_starting_ahead():
    # a request for today plans ahead in a thread, which builds the schedule of every version that
    # starts within PLAN_AHEAD days (on 2026-12-03: versions 2 and 3), so the first day of each
    # pays no build
    from flagcore import days
    from flagcore.connections.daily import PLAN_AHEAD, VERSIONS, version_of
    from flagcore.connections.daily.ahead import settle

    lib = load_library()
    today = days.latest_day()
    daily(today, "flags", library=lib)
    assert settle(600)  # the planner threads live on: wait for the jobs posted
    i = days.day_number(today)
    built = {kept[3] for kept in lib.__dict__["_flagcore_season"] if kept[0] == "flags"}
    ahead = {v for first, v in VERSIONS if i < first <= i + PLAN_AHEAD}
    assert {version_of(i)} | ahead <= built


def test_the_families_of_two_showings_a_week_take_two_weekdays_apart():
    # seven families of 16 uses a cycle (twice a week, no slack), one cell each in a tier of its
    # own but two: each takes two weekdays 3 days apart, each weekday two of them, and the two of
    # one weekday are never the two that share tier 0; the easiest on Monday and Tuesday
    cells = [Cell(0 if f < 2 else 1 + f % 3, f, (f,), False) for f in range(7)] + [Cell(0, 9, (9,), False)]
    uses = [16] * 7 + [8]
    ease = [float(f) for f in range(7)] + [0.0]
    due = weekdays(cells, uses, list(range(10)), ease)
    assert sorted(due) == list(range(7))
    per_weekday = collections.Counter(d % WEEK for days in due.values() for d in days)
    assert set(per_weekday.values()) == {2 * PATTERN // WEEK}
    for days in due.values():
        ds = sorted(days)
        assert len(ds) == 16 and all(b - a in (3, 4) for a, b in zip(ds, ds[1:]))
    assert not due[0] & due[1]  # the two of tier 0 on no day together
    monday = {f for f, days in due.items() if 0 in days}
    sunday = {f for f, days in due.items() if 6 in days}
    assert sum(ease[f] for f in monday) > sum(ease[f] for f in sunday)
