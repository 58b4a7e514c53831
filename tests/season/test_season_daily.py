"""connections.daily and puzzle.daily: the schedule's guarantees, determinism and twin parity."""

from __future__ import annotations

import collections
import datetime as dt
import itertools

import pytest
from conftest import use_twin
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import puzzle
from flagcore.connections import board_difficulty, daily, find_ambiguities, generate
from flagcore.connections.daily import daily_categories, schedule
from flagcore.connections.daily.members import WALK_MAX, member_order, members
from flagcore.connections.daily.members import walk as _walk
from flagcore.connections.daily.members import walk_members as _walk_members
from flagcore.connections.daily.search import first_draft, planned_search
from flagcore.connections.daily.search import search_day as _search
from flagcore.connections.daily.turns import own_turn, planned_at, uses_in_a_year
from flagcore.days import day_number
from flagcore.library import load_library
from flagcore.season import EPOCH, WEEKLY_GRIDS, Rotation, block_size, by_weekday, puzzle_flags, puzzle_plan

# the first year of the latest schedule version (3, from 2027-02-01: connections.daily.VERSIONS)
YEAR = [dt.date(2027, 2, 1) + dt.timedelta(days=j) for j in range(365)]


def _ids(board):
    return [g.category_id for g in board.groups]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_year_of_dailies_is_fair_and_rotates(mode):
    boards = [daily(d, mode) for d in YEAR]
    sched = schedule(None, mode)
    for b in boards:
        assert b.mode == mode and len(set(b.tiles)) == 16
        assert find_ambiguities(b) == []  # neither rule nor arguable
    # no category from the day before (the README's figure for 2027)
    assert all(not set(_ids(boards[j])) & set(_ids(boards[j - 1])) for j in range(1, len(boards)))
    # every category that can be placed has turns in the year (version 2 shares a large family's
    # turns, so a category may have only a few); one missing from the boards had none of its
    # planned days able to form a board with it ("Has red" crowds the other groups out)
    first = day_number(YEAR[0])
    planned = collections.Counter(planned_at(sched, t, first + j) for j in range(len(YEAR)) for t in range(4))
    placeable = {c for t in range(4) for c in sched.placeable[t]}
    # (version 3: a tier's cell of small pools has one use in 56 days, so its categories take turns
    # over years, not within one)
    rare = {c for cell in sched.pattern.cells if cell.family < 0 for c in cell.order}
    assert all(planned[c] for c in placeable - rare)
    assert sum(planned[c] for c in rare) >= 6 * len({cell.tier for cell in sched.pattern.cells if cell.family < 0})
    ids = [set(_ids(b)) for b in boards]
    cats = {cat.id: cat for cat in sched.tables.categories}
    for c in placeable:
        if not any(sched.tables.categories[c].id in day for day in ids):
            t = sched.tier_of[c]
            for j in range(len(YEAR)):
                if planned_at(sched, t, first + j) == c:
                    four = [planned_at(sched, d, first + j) for d in range(4)]
                    # (version 3 also leaves a plan whose label the past 7 days showed)
                    shown = {cats[g.category_id].identity for b in boards[max(0, j - 7) : j] for g in b.groups}
                    assert (
                        planned_search(sched, four)[0] != 0
                        or boards[j].stats["split_redraw"] == 2
                        or sched.tables.categories[c].identity in shown
                    ), (c, j)
    # no category more than twice as often as its turns, plus two (a fallback takes a category
    # near its turns)
    counts = collections.Counter(c for b in boards for c in _cat_indices(sched, b))
    assert all(counts[c] <= 2 * planned[c] + 2 for c in placeable - rare), max(
        (counts[c] - 2 * planned[c], c) for c in placeable - rare
    )
    if sched.min_facts:  # and the days hold their fact groups (a few off-plan days cannot)
        fact_ids = {sched.tables.categories[c].id for c in range(len(sched.fact)) if sched.fact[c]}
        facts = [sum(g.category_id in fact_ids for g in b.groups) for b in boards]
        assert sum(f >= sched.min_facts for f in facts) >= 0.95 * len(boards)


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_planned_four_shortcut_is_the_full_search(mode):
    # daily_categories returns the planned four without the drafts of the days before when they
    # form a board: the full search (planned first in every tier) must find exactly them.
    sched = schedule(None, mode)
    on_plan = 0
    for d in YEAR[:120]:
        i = (d - EPOCH).days
        cats, planned, _ = daily_categories(sched, i)
        if cats != planned:
            continue
        on_plan += 1
        recent = frozenset(c for j in range(i - 7, i) for c in first_draft(sched, j))
        assert _search(sched, i, recent)[0] == planned
    # the shortcut is the common case (version 3 since its labels read in laps, 2026-12-03: 69 of
    # 120 days in flags, 75 in trivia; 41 in flags before)
    assert on_plan > 60


def test_same_day_same_board_with_a_fresh_library():
    a = daily("2027-05-06", "trivia")
    b = daily("2027-05-06", "trivia", library=load_library())
    assert a == b and a.tiles == b.tiles
    assert a.seed == "season:2027-05-06" and a.stats["scheduled"]


def test_plain_daily_seed_keeps_its_meaning():
    # generate("daily:...") is a plain seed: not the scheduled board
    plain = generate("daily:2027-01-01")
    assert plain.seed == "daily:2027-01-01" and not plain.stats.get("scheduled")
    assert plain.groups != daily("2027-01-01").groups


@pytest.mark.parametrize("day", ["2026-01-01", "2026-03-15", "2027-07-04", "2031-12-31"])
@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_twins_schedule_the_same_board(monkeypatch, mode, day):
    boards = {}
    for name in ("compiled", "python"):
        use_twin(monkeypatch, name)
        boards[name] = daily(day, mode, library=load_library())  # a fresh Library: nothing cached
    assert boards["compiled"] == boards["python"]
    assert boards["compiled"].tiles == boards["python"].tiles
    assert boards["compiled"].stats == boards["python"].stats


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 80), k=st.integers(0, 40))
def test_rotation_gap_bound(n, k):
    rot = Rotation(list(range(n)), f"test|{n}")
    days = [rot.at(i) for i in range(k * n, (k + 3) * n)]
    for item in range(n):
        where = [i for i, x in enumerate(days) if x == item]
        assert len(where) == 3  # once per cycle
        gaps = [b - a for a, b in zip(where, where[1:])]
        assert min(gaps) >= n - block_size(n) + 1 >= 0.8 * n


def test_rotation_match_keeps_blocks_and_fits_where_it_can():
    n = 13
    odd_days = Rotation(list(range(n)), "test|fits", fits=lambda item, day: item % 2 == day % 2)
    plain = Rotation(list(range(n)), "test|fits")
    for k in range(4):
        order, _ = odd_days.cycle(k)
        assert sorted(order) == list(range(n))
        for block, start in zip(plain.blocks, range(0, n, block_size(n))):  # each item stays in its block
            assert set(order[start : start + len(block)]) == set(block)


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_members_keep_at_most_two_of_the_previous_window(mode):
    # with every certain code free, a return keeps at most 2 of the codes its previous use read first
    sched = schedule(None, mode)
    for t in range(4):
        for c in sched.placeable[t]:
            if len(sched.certain[c]) < 6:
                continue
            for i in range(700, 760, 7):
                four = members(sched, c, i, sched.certain[c])
                assert len(four) == 4
                for u in range(1, 12):
                    now = member_order(sched, c, u)
                    before = set(member_order(sched, c, u - 1)[:4])
                    ranked = [x for x in now if x not in before] + [x for x in now if x in before]
                    assert len(set(ranked[:4]) & before) <= 2


def test_puzzle_daily_rotates_every_named_flag_before_a_repeat():
    named = puzzle_flags()
    first = [puzzle_plan(EPOCH + dt.timedelta(days=j))[0] for j in range(2 * len(named))]
    assert sorted(first[: len(named)]) == sorted(named)  # the first cycle: each once
    assert sorted(first[len(named) :]) == sorted(named)
    for day in YEAR[:14]:
        flag, grid, seed = puzzle_plan(day)
        assert grid == WEEKLY_GRIDS[day.weekday()] and seed == f"puzzle:{day.isoformat()}"


def test_puzzle_daily_deals_the_plan():
    game = puzzle.daily("2027-03-05")  # a Friday: hard
    flag, grid, seed = puzzle_plan("2027-03-05")
    assert (game.flag, game.grid, game.seed) == (flag, puzzle.GRIDS[grid], seed)
    assert game.grid == puzzle.GRIDS["hard"]
    again = puzzle.daily(dt.date(2027, 3, 5))
    assert again.start == game.start and again.par == game.par


def test_by_weekday_puts_the_easier_items_first_in_the_week():
    # 2027-01-04 is a Monday; days 0..5 of the block are Mon..Sat; ease is the item itself
    first = (dt.date(2027, 1, 6) - EPOCH).days  # a Wednesday: the block's Monday is its 6th day
    out = by_weekday([3, 9, 1, 7, 5, 8, 2], first, lambda x: x)
    weekdays = [(EPOCH + dt.timedelta(days=first + d)).weekday() for d in range(7)]
    by_day = dict(zip(weekdays, out))
    assert [by_day[w] for w in range(7)] == [9, 8, 7, 5, 3, 2, 1]


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_the_week_runs_from_easier_to_harder(mode):
    # the difficulty model's board score, averaged per weekday over YEAR: the weekend is harder
    # than the start of the week, by a margin (the plain daily: seeds show no such rhythm). Version
    # 2 matched each block by its best total grade (the rests a player sees), which kept the
    # weekday order only among equals: flags' weekend was 8% harder than Monday-Tuesday (over 10% before)
    score = collections.defaultdict(list)
    for d in YEAR:
        score[d.weekday()].append(sum(g.score for g in board_difficulty(daily(d, mode)).groups))
    mean = {w: sum(v) / len(v) for w, v in score.items()}
    # version 3 (families.Layout.rhythm: a Monday's or Tuesday's cell swaps with an easier one of the
    # weekend where no family's rest breaks) over its first year: flags 9.9% harder, trivia 14.2%
    # (since its labels read in laps, 2026-12-03; flags 3.7% before); flags 9.5% since its families
    # of two showings a week keep their weekdays (families.weekdays puts the easiest on Monday, 2026-12-04)
    assert (mean[5] + mean[6]) / 2 > 1.08 * (mean[0] + mean[1]) / 2, mean


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_displaced_small_pool_group_is_no_group_of_another_use_that_year(mode):
    # a small pool's use whose own walk entry another group blocks takes an entry that no use within
    # a year reads as its own; with nothing blocked it takes its own
    sched = schedule(None, mode)
    checked = 0
    for c in (c for tier in sched.placeable for c in tier if 6 <= len(sched.certain[c]) <= WALK_MAX):
        _, masks, _ = _walk(sched, c)
        n, year = len(masks), uses_in_a_year(sched, c)
        for u in range(5, 25):
            as_mask = lambda four: sum(1 << x for x in four)  # noqa: E731
            if (masks[u % n] & masks[(u - 1) % n]).bit_count() <= 2:  # the walk's step keeps at most 2
                assert as_mask(members(sched, c, _day_of_use(sched, c, u), 0)) == masks[u % n]
            blocked = masks[u % n] & -masks[u % n]  # one code of its own entry
            w = masks.index(as_mask(_walk_members(sched, c, u, blocked, False)))
            assert not masks[w] & blocked
            far = [(u + d) % n for d in range(year + 1, n - year)]  # entries no use of u's year reads
            if any(not masks[x] & blocked for x in far):
                assert w in far, (sched.tables.categories[c].id, u, w)
                checked += 1
    assert checked > 100


def _cat_indices(sched, board):
    index = {cat.id: c for c, cat in enumerate(sched.tables.categories)}
    return [index[g.category_id] for g in board.groups]


def _day_of_use(sched, c, u):
    return next(day for day in itertools.count() if own_turn(sched, c, day) == u)


def test_trivia_labels_keep_their_tiers_gap():
    # version 2's trivia tiers share turns by label identity (turns.identity_shares): over 2027 a
    # label comes back in its tier no sooner than 0.8 x the tier's turns per cycle, whichever
    # category shows it (version 2 schedules January 2027; its planner, over the whole year)
    from flagcore.cli.season_shown import shown_figures
    from flagcore.connections.daily import categories
    from flagcore.connections.daily.tiles import made

    sched = schedule(None, "trivia", version=2)
    assert any(len({sched.identity[c] for c in share}) == 1 and len(share) > 1 for t in sched.shares for share in t)
    first = day_number(dt.date(2027, 1, 1))
    # the planner's boards, January's computed too (not the stored ones: the data may have changed since)
    boards = [made(sched, first + j)[0] for j in range(365)]
    figures = shown_figures(boards, categories(sched), [r.n for r in sched.rotations])
    for tier in figures["tiers"]:
        assert tier["min_gap"] >= tier["target_gap"], tier


@settings(max_examples=60, deadline=None)
@given(kinds=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=60))
def test_spread_blocks_deals_a_family_to_far_blocks(kinds):
    from flagcore.season import spread_blocks

    items = list(range(len(kinds)))
    b = block_size(len(items))
    out = spread_blocks(items, b, lambda x: kinds[x])
    assert sorted(out) == items
    blocks = [out[j : j + b] for j in range(0, len(out), b)]
    assert all(block == sorted(block) for block in blocks)  # each block keeps the given order
    block_of = {x: j for j, block in enumerate(blocks) for x in block}
    for family in {f for f, _ in kinds}:
        members = [x for x in items if kinds[x][0] == family]
        if len(members) <= len(blocks):  # a family no larger than the blocks:
            per_block = collections.Counter(block_of[x] for x in members)
            if len(items) % b == 0:  # blocks of one size: one item a block
                assert max(per_block.values()) == 1, family
            else:  # a shorter last block fills first and the deal skips it: two a block at most
                assert max(per_block.values()) <= 2, family


def test_the_days_before_version_3_keep_their_boards():
    # published boards never change: every daily of 2026-11-01 .. 2027-01-31 (versions 1 and 2),
    # both modes, as main scheduled them before version 3 existed (its digest then)
    import hashlib

    h = hashlib.sha256()
    for mode in ("flags", "trivia"):
        for j in range(92):
            b = daily(dt.date(2026, 11, 1) + dt.timedelta(days=j), mode)
            groups = [(g.tier, g.label, g.codes, g.category_id) for g in b.groups]
            h.update(repr((b.tiles, groups, sorted(b.stats.items()))).encode())
    assert h.hexdigest() == "320a70318c77ce6f44264b899326616e891a0d1a60e7b046b8e9bb5ab0e2389f"


def test_days_keep_the_schedule_version_they_were_first_scheduled_by():
    # published boards never change: a day before version 2's first day is scheduled by version 1
    # (its blocks the plain shuffle's, as before version 2 existed); from that day on by version 2,
    # and from 2027-02-01 (day 396) by version 3
    from flagcore.connections.daily import VERSIONS, version_of
    from flagcore.connections.daily.tiles import board_of_day

    (_, v1), (start, v2), (third, v3) = VERSIONS
    assert (third, v3) == (day_number(dt.date(2027, 2, 1)), 3) == (396, 3)
    assert (version_of(third - 1), version_of(third)) == (v2, v3)
    assert (version_of(0), version_of(start - 1), version_of(start)) == (v1, v1, v2)
    for mode in ("flags", "trivia"):
        old, new = schedule(None, mode, version=v1), schedule(None, mode, version=v2)
        for t, rot in enumerate(old.rotations):  # version 1: the rotation as made before versions (no spread)
            shared = {c for share in old.shares[t] for c in share}
            items = [c for c in old.placeable[t] if c not in shared] + [-1 - j for j in range(len(old.shares[t]))]
            assert rot.blocks == Rotation(items, rot.key).blocks
        assert [r.blocks for r in old.rotations] != [r.blocks for r in new.rotations]
        for i, s in ((start - 30, old), (start - 1, old), (start, new), (start + 30, new), (third - 1, new)):
            board = daily(EPOCH + dt.timedelta(days=i), mode)
            plain = board_of_day(s, i)  # before the colours (which order the groups)
            assert (board.tiles, sorted(_ids(board))) == (plain.tiles, sorted(_ids(plain)))
