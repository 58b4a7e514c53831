"""The daily's greedy repair as a kernel (issue 35): ``repair_members`` of both twins, and the
members' readers it reads (connections/daily/members.py ``reader``).

A reader is members() as data: the twin's ``read_four`` of a category's reader must read what
``members`` reads for every set of codes skipped (hypothesis, both pool kinds, days on and off a
category's turns). The compiled loop is held to the twin's on the bundled schedules' own draws,
with random categories of recent labels and codes left out (hypothesis); a repaired draw has no
fault by the engines' own counts; bad input raises ValueError in both.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _connections as compiled
from flagcore._connections_layout import DECOY_FOURS_CAP
from flagcore._impl import core
from flagcore.connections.daily import schedule
from flagcore.connections.daily.decoys import BEAM, BEAM_STEPS, REPAIRS, TRIES, complete_fours
from flagcore.connections.daily.fours import others_fit
from flagcore.connections.daily.members import WALK_MAX, members, reader
from flagcore.connections.daily.search import daily_categories
from flagcore.connections.tables import tables_for
from flagcore.reference import connections as ref
from flagcore.reference.daily_repair import read_four

V3 = 396  # schedule version 3's first day (days from the epoch)
MODES = ("flags", "trivia")


def _schedule(mode: str):
    """Version 3's schedule of the compiled engine, whichever twin the run uses (FLAGCORE_IMPL):
    the tests below compare the twins' kernels directly on its prepared tables and its draws."""
    previous = core.use("compiled")
    try:
        s = schedule(None, mode, None, 3)
    finally:
        core.use(previous)
    assert s.impl is compiled
    return s


def _case(mode: str, day: int):
    s = _schedule(mode)
    cats = daily_categories(s, V3 + day)[0]
    return s, V3 + day, cats, others_fit(s, cats)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODES), st.integers(0, 700), st.integers(0, 3), st.integers(0, 2**32 - 1), st.booleans())
def test_a_reader_reads_what_members_reads(mode, day, g, seed, elsewhere):
    s, i, cats, taken = _case(mode, day)
    c = cats[g]
    if elsewhere:  # a day off c's turns (its nearest turn's use, read off the plan)
        i += random.Random(seed).randrange(1, 40)
    rng = random.Random(seed)
    pool = sorted(s.certain[c])
    for _ in range(8):
        skip = taken[g] | sum(1 << x for x in rng.sample(pool, rng.randrange(0, len(pool) + 1)))
        assert read_four(reader(s, c, i), skip) == members(s, c, i, skip)


def test_readers_of_both_kinds_are_met():
    """The sample above meets small pools (walks) and large ones (rings) in both modes."""
    for mode in MODES:
        s = _schedule(mode)
        kinds = {len(s.certain[c]) <= WALK_MAX for d in range(0, 60) for c in daily_categories(s, V3 + d)[0]}
        assert kinds == {True, False}, mode


def _both(mode: str, *args, wide: bool = False):
    out = []
    for impl in (compiled, ref):
        _, prep = tables_for(impl, None, mode)
        out.append((impl.wide_repair_members if wide else impl.repair_members)(prep, *args))
    return out


def _no_fault(s, fours, recent):
    tiles = [x for f in fours for x in f]
    assert compiled.decoy_fours(s.prepared, tiles) <= DECOY_FOURS_CAP
    assert compiled.second_split(s.prepared, tiles) == []
    assert complete_fours(s, fours, recent) == []


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MODES), st.integers(0, 700), st.integers(0, 2**32 - 1), st.integers(0, 12), st.integers(0, 3))
def test_the_twins_repair_alike(mode, day, seed, n_recent, n_left):
    s, i, cats, taken = _case(mode, day)
    rng = random.Random(seed)
    others = [c for c in range(len(s.fit_mask)) if c not in cats]
    recent = sorted(rng.sample(others, n_recent))
    left = [0] * 4
    for g in rng.sample(range(4), n_left):  # codes left out before, as a repair gone on from leaves them
        spare = sorted(s.certain[cats[g]])
        left[g] = sum(1 << x for x in rng.sample(spare, min(len(spare) // 3, 3)))
    readers = [reader(s, c, i) for c in cats]
    start = [read_four(readers[g], taken[g] | left[g]) for g in range(4)]
    if any(len(f) < 4 for f in start):
        return
    for repairs, tries in ((REPAIRS, TRIES), (3, 2)):
        fast, twin = _both(mode, readers, taken, recent, start, left, repairs, tries)
        assert fast == twin
        if fast is not None:
            _no_fault(s, fast[0], recent)


def test_the_repair_is_met_on_hard_days():
    """Some drawn days need swaps (a left-out code in the result), some stay as drawn, some fail."""
    seen = set()
    for mode in MODES:
        for day in range(0, 120):
            s, i, cats, taken = _case(mode, day)
            readers = [reader(s, c, i) for c in cats]
            start = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
            recent = [c for c in range(len(s.fit_mask)) if c not in cats][::7]
            fast, twin = _both(mode, readers, taken, recent, start, [0] * 4, REPAIRS, TRIES)
            assert fast == twin
            seen.add("failed" if fast is None else "swapped" if any(fast[1]) else "as drawn")
    assert seen == {"failed", "swapped", "as drawn"}


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(MODES),
    st.integers(0, 700),
    st.integers(0, 2**32 - 1),
    st.integers(5, 40),
    st.integers(1, 4),
    st.integers(0, 3),
    st.integers(1, 3),
)
def test_the_twins_widen_alike(mode, day, seed, n_recent, beam, steps, tries):
    """A small beam (the twin is slow), from the drawn members and a draw a greedy repair left."""
    s, i, cats, taken = _case(mode, day)
    rng = random.Random(seed)
    recent = sorted(rng.sample([c for c in range(len(s.fit_mask)) if c not in cats], n_recent))
    readers = [reader(s, c, i) for c in cats]
    drawn = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
    starts = [(drawn, [0] * 4)]
    other = compiled.repair_members(s.prepared, readers, taken, [], drawn, [0] * 4, REPAIRS, TRIES)
    if other is not None:
        starts.append(other)
    fast, twin = _both(mode, readers, taken, recent, starts, beam, steps, tries, wide=True)
    assert fast == twin
    if fast is not None:
        _no_fault(s, fast[0], recent)


def test_the_wide_repair_clears_what_the_greedy_one_leaves():
    """At the schedule's own width, on drawn days with many recent labels: the beam clears days the
    greedy repair does not, the twins alike."""
    cleared = 0
    for day in range(0, 60, 3):
        s, i, cats, taken = _case("trivia", day)
        recent = [c for c in range(len(s.fit_mask)) if c not in cats][::5]
        readers = [reader(s, c, i) for c in cats]
        drawn = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
        if compiled.repair_members(s.prepared, readers, taken, recent, drawn, [0] * 4, REPAIRS, TRIES):
            continue
        fast, twin = _both("trivia", readers, taken, recent, [(drawn, [0] * 4)], BEAM, BEAM_STEPS, TRIES, wide=True)
        assert fast == twin
        cleared += fast is not None
    assert cleared


@pytest.mark.parametrize("impl", [compiled, ref], ids=["compiled", "python"])
def test_bad_input_raises(impl):
    s, i, cats, taken = _case("flags", 10)
    _, prep = tables_for(impl, None, "flags")
    readers = [reader(s, c, i) for c in cats]
    start = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
    good = (readers, taken, [], start, [0] * 4, REPAIRS, TRIES)
    with pytest.raises(ValueError):
        impl.repair_members(prep, readers[:3], *good[1:])
    with pytest.raises(ValueError):
        impl.repair_members(prep, readers, taken, [10**6], *good[3:])
    with pytest.raises(ValueError):
        impl.repair_members(prep, readers, taken, [], [start[0][:3], *start[1:]], *good[4:])
    with pytest.raises(ValueError):
        impl.wide_repair_members(prep, readers, taken, [], [], BEAM, BEAM_STEPS, TRIES)
