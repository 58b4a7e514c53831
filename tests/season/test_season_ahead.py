"""connections.daily's plans computed ahead: prepare() and the background thread of a server's today."""

from __future__ import annotations

import datetime as dt
import threading

from flagcore import days
from flagcore.connections import daily
from flagcore.connections.daily import PLAN_AHEAD, prepare, schedule, version_of
from flagcore.library import load_library


def test_prepared_days_plan_nothing_more_and_give_the_same_boards():
    lib = load_library()
    s = schedule(lib, "trivia")
    start = dt.date(2028, 3, 1)
    prepare(s, days.day_number(start), 60)
    cycles = [len(rot._cycles) for rot in s.rotations]
    span = [start + dt.timedelta(days=j) for j in range(60)]
    boards = [daily(d, "trivia", library=lib) for d in span]
    assert [len(rot._cycles) for rot in s.rotations] == cycles  # no request computed a cycle
    assert boards == [daily(d, "trivia", library=load_library()) for d in span]  # planned when asked


def test_today_starts_one_thread_that_plans_ahead():
    lib = load_library()
    today = days.latest_day()
    daily(today, "flags", library=lib)
    i = days.day_number(today)
    s = schedule(lib, "flags", version=version_of(i))
    for thread in threading.enumerate():
        if thread.name == "flagcore-daily-plans":
            thread.join()
    assert not s.preparing and s.ahead >= i + PLAN_AHEAD
    # the thread made the boards of the planned days as today's was asked for: a later day's
    # request reads the board it made (the same object), the board the same plans make on demand
    k = i + 5
    kept = schedule(lib, "flags", version=version_of(k))
    ahead = kept.memo.get(("coloured", k))
    assert ahead is not None and daily(days.date_of(k), "flags", library=lib) is ahead
    kept.memo.clear()
    again = daily(days.date_of(k), "flags", library=lib)
    assert again is not ahead and again == ahead
    later = schedule(lib, "flags", version=version_of(i + PLAN_AHEAD))
    if later is not s:  # a version starting within PLAN_AHEAD days: built and planned by the same thread
        assert later.ahead >= i + PLAN_AHEAD
    daily(dt.date(2029, 1, 1), "flags", library=lib)  # not today: an archive day plans only what it needs
    assert later.ahead < days.day_number(dt.date(2029, 1, 1))


def test_plans_keep_the_engine_their_schedule_was_made_with(monkeypatch):
    """A background thread may plan while a test (or a caller) switches twins: every shuffle of a
    schedule uses the Rng engine read when it was built, so a switch in the middle of a cycle's
    planning never hands one twin's Rng to the other's shuffle."""
    from conftest import use_twin

    from flagcore import _impl

    other = "compiled" if _impl.core.rng.__name__.startswith("flagcore.reference") else "python"
    lib = load_library()
    s = schedule(lib, "flags")
    start = dt.date(2031, 6, 1)
    later = s.rotations[s.depth_order[-1]]  # its blocks are matched (fits) between their shuffles
    fits = later.fits
    switched = []

    def switch_then_fit(item, day):
        if not switched:
            use_twin(monkeypatch, other)  # what the main thread of a test does while the planner runs
            switched.append(day)
        return fits(item, day)

    later.fits = switch_then_fit
    try:
        prepare(s, days.day_number(start), 40)
    finally:
        later.fits = fits
        monkeypatch.undo()
    assert switched  # the switch happened in the middle of planning
    span = [start + dt.timedelta(days=j) for j in (0, 20, 39)]
    assert [daily(d, "flags", library=lib) for d in span] == [daily(d, "flags", library=load_library()) for d in span]
