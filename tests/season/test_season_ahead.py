"""connections.daily's plans computed ahead: prepare() and the background thread of a server's today."""

from __future__ import annotations

import datetime as dt
import gc
import threading

from flagcore import days
from flagcore.connections import daily
from flagcore.connections.daily import PLAN_AHEAD, ahead, forget, prepare, schedule, version_of
from flagcore.connections.daily.ahead import PLANNER, REFILL, settle
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
    planners = [thread for thread in threading.enumerate() if thread.name == PLANNER]
    assert planners and settle(600)
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
    s = schedule(lib, "flags", version=2)  # version 3 plans by families.py: its rotations match nothing
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


def test_a_later_today_wakes_the_same_planner_for_the_days_past_its_horizon(monkeypatch):
    """The planner is one thread per schedule, woken (not restarted) when today's horizon falls
    below PLAN_AHEAD - REFILL days; it plans only the days past the old horizon, and those plans
    give the boards a fresh library's schedule gives."""
    lib = load_library()
    start = dt.date(2031, 3, 1)
    today = [start]
    monkeypatch.setattr(days, "latest_day", lambda: today[0])
    i = days.day_number(start)
    daily(start, "trivia", library=lib)
    assert settle(600)
    s = schedule(lib, "trivia", version=version_of(i))
    planner = ahead._planners[s]
    assert s.ahead == i + PLAN_AHEAD
    for j in range(1, REFILL + 1):  # within the slack: no wake-up
        today[0] = start + dt.timedelta(days=j)
        daily(today[0], "trivia", library=lib)
        assert not s.preparing and s.ahead == i + PLAN_AHEAD
    today[0] = start + dt.timedelta(days=REFILL + 1)
    cycles = [len(rot._cycles) for rot in s.rotations]
    daily(today[0], "trivia", library=lib)
    assert settle(600)
    assert ahead._planners[s] is planner and planner.thread.is_alive()
    assert s.ahead == i + REFILL + 1 + PLAN_AHEAD and not s.preparing
    assert [len(rot._cycles) for rot in s.rotations] >= cycles
    late = i + PLAN_AHEAD + REFILL  # a day only the second wake-up planned and made
    assert s.memo.get(("coloured", late)) is not None
    fresh = load_library()
    assert daily(days.date_of(late), "trivia", library=lib) == daily(days.date_of(late), "trivia", library=fresh)


def test_a_forgotten_schedule_ends_its_planner(monkeypatch):
    lib = load_library()
    monkeypatch.setattr(ahead, "IDLE_CHECK", 0.01)
    today = dt.date(2031, 9, 1)
    monkeypatch.setattr(days, "latest_day", lambda: today)
    daily(today, "flags", library=lib)
    assert settle(600)
    s = schedule(lib, "flags", version=version_of(days.day_number(today)))
    thread = ahead._planners[s].thread
    assert thread.is_alive()
    forget(lib)
    del s, lib
    gc.collect()
    thread.join(60)
    assert not thread.is_alive()
