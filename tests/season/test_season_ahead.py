"""connections.daily's plans computed ahead: prepare() and the background thread of a server's today."""

from __future__ import annotations

import datetime as dt
import threading

from flagcore import days
from flagcore.connections import daily
from flagcore.connections.daily import PLAN_AHEAD, prepare, schedule
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
    s = schedule(lib, "flags")
    for thread in threading.enumerate():
        if thread.name == "flagcore-daily-plans":
            thread.join()
    assert not s.preparing and s.ahead >= days.day_number(today) + PLAN_AHEAD
    daily(dt.date(2029, 1, 1), "flags", library=lib)  # not today: an archive day plans only what it needs
    assert s.ahead < days.day_number(dt.date(2029, 1, 1))
