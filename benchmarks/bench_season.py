"""The scheduled daily (connections.daily) beside plain generate on the same dates, both twins.

    pytest benchmarks/bench_season.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,mean,max,rounds --benchmark-sort=name --benchmark-group-by=group

Groups (flags and trivia):

* ``one-day``: one public call for one date. ``generate`` is ``generate("daily:DATE")``;
  ``daily-kept`` asks for a day already made (what a server does all day: the schedule keeps the
  boards it made); ``daily-new`` makes the next day of a year of consecutive days not made yet,
  after start-up (a fresh schedule whose plans for the year were computed by ``prepare``, as a
  server's background thread does): each round is a new day, so max is the worst day of the year
  (its CPU time too, in ``extra_info``: the mean, the worst day and the days over 5 ms);
  ``daily-cold`` is a day of a library loaded afresh every round (its load untimed): what a new
  process pays at its first daily, the search's and the model's tables, the schedule and the
  plans around the day, all computed in the timed call (nothing kept from an earlier round).
  ``daily-served`` is what a server's players meet: start-up as ``flagcore serve`` does it
  (the web app's warm-up asks for today's daily, whose background thread then plans the next
  PLAN_AHEAD days and makes their boards; the bench waits for that thread, untimed), then each
  round is the next day of the year asked for on its own day ("today" moved with it, so the
  thread is woken about once a week to plan the week after its horizon, as a server's would,
  beside the requests); ``extra_info`` has the year's
  wall and CPU time per day (mean, p99, worst, days over 5 ms).
* ``year``: the 365 days of 2027 from a fresh schedule (its start-up included), beside plain
  generate on the same dates.

``ref`` runs the same public call on the reference twin (FLAGCORE_IMPL=python).
"""

from __future__ import annotations

import datetime as dt
import itertools
import threading
import time

import pytest

from flagcore import _impl, days
from flagcore.connections import daily, generate
from flagcore.connections.daily import PLAN_AHEAD, forget, prepare, schedule, version_of
from flagcore.connections.daily.ahead import PLANNER, settle
from flagcore.days import day_number
from flagcore.library import load_library
from flagcore.reference import connections as ref_connections
from flagcore.reference import rng as ref_rng

YEAR = [dt.date(2027, 1, 1) + dt.timedelta(days=j) for j in range(365)]
SEEDS = [f"daily:{d.isoformat()}" for d in YEAR]
LIB = load_library()


@pytest.fixture(params=["core", "ref"])
def impl(request, monkeypatch):
    if request.param == "ref":
        monkeypatch.setattr(_impl.core, "connections", ref_connections)
        monkeypatch.setattr(_impl.core, "rng", ref_rng)
    return request.param


def _fresh() -> None:
    forget(LIB)  # the schedules this Library keeps: the next daily() builds anew


MODES = ["flags", "trivia"]


@pytest.mark.parametrize("mode", MODES)
def test_one_day_generate(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    seeds = itertools.cycle(SEEDS)
    benchmark.pedantic(lambda: generate(next(seeds), mode, library=LIB), rounds=200 if impl == "core" else 20)
    if impl == "core":
        start = time.thread_time()  # CPU time, as for daily-new
        for seed in SEEDS:
            generate(seed, mode, library=LIB)
        benchmark.extra_info["cpu_mean"] = (time.thread_time() - start) / len(SEEDS)


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_kept(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    _fresh()
    daily(YEAR[0], mode, library=LIB)
    benchmark.pedantic(lambda: daily(YEAR[0], mode, library=LIB), rounds=200 if impl == "core" else 20)


def _new_days(mode: str, span: list[dt.date]) -> None:
    """Fresh schedules whose plans for ``span`` are computed (start-up, as a server's thread does):
    each schedule version's over the days it schedules (2027 starts on version 2, version 3 from
    2027-02-01; until 2026-12-04 only the latest was prepared, so its first days paid its build)."""
    _fresh()
    first, last = day_number(span[0]), day_number(span[-1])
    for v in sorted({version_of(i) for i in range(first, last + 1)}):
        mine = [i for i in range(first, last + 1) if version_of(i) == v]
        prepare(schedule(LIB, mode, version=v), mine[0], len(mine))


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_new(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    span = YEAR if impl == "core" else YEAR[:40]
    _new_days(mode, span)
    days = iter(span)
    benchmark.pedantic(lambda: daily(next(days), mode, library=LIB), rounds=len(span))
    if impl != "core":
        return
    # CPU time (time.thread_time), compiled: what the call costs, without the preemption a loaded
    # machine adds to wall time. The mean from one timing of all the days in order; the worst day
    # from a second run timing each day alone (each timing adds about 5 us here).
    _new_days(mode, span)
    start = time.thread_time()
    for d in span:
        daily(d, mode, library=LIB)
    mean = (time.thread_time() - start) / len(span)
    _new_days(mode, span)
    each = []
    for d in span:
        start = time.thread_time()
        daily(d, mode, library=LIB)
        each.append(time.thread_time() - start)
    benchmark.extra_info.update(cpu_mean=mean, cpu_max=max(each), cpu_over_5ms=sum(t > 0.005 for t in each))


def _join_planner() -> None:
    """Wait until the planners (connections.daily.ahead: a long-lived thread per schedule, named
    PLANNER) have done what the requests so far asked of them."""
    assert any(thread.name == PLANNER for thread in threading.enumerate())
    assert settle(600)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_served(benchmark, impl, mode, monkeypatch):
    benchmark.group = f"one-day {mode}"
    span = YEAR if impl == "core" else YEAR[:40]
    assert len(span) < PLAN_AHEAD  # the start-up's thread makes them all
    today = [span[0]]
    monkeypatch.setattr(days, "latest_day", lambda: today[0])  # the server's clock, moved day by day

    def start_up() -> None:  # untimed: what flagcore serve does before it takes a request
        _fresh()
        today[0] = span[0]
        daily(span[0], mode, library=LIB)  # the web app's warm-up asks for today's daily
        _join_planner()

    def ask(d: dt.date) -> None:
        today[0] = d
        daily(d, mode, library=LIB)

    start_up()
    rest = iter(span)
    benchmark.pedantic(lambda: ask(next(rest)), rounds=len(span))
    _join_planner()
    start_up()
    wall, cpu = [], []
    for d in span:
        w, c = time.perf_counter(), time.thread_time()
        ask(d)
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - w)
    _join_planner()
    for name, values in (("wall", wall), ("cpu", cpu)):
        benchmark.extra_info.update(
            {
                f"{name}_mean": sum(values) / len(values),
                f"{name}_p99": _percentile(values, 0.99),
                f"{name}_max": max(values),
                f"{name}_over_5ms": sum(v > 0.005 for v in values),
            }
        )


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_cold(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    fresh: list[object] = []

    def new_library() -> None:  # untimed: loading the JSON; everything derived from it is timed
        fresh[:] = [load_library()]

    benchmark.pedantic(
        lambda: daily(YEAR[100], mode, library=fresh[0]), setup=new_library, rounds=5 if impl == "core" else 2
    )


@pytest.mark.parametrize("mode", MODES)
def test_year_daily(benchmark, impl, mode):
    benchmark.group = f"year {mode}"
    benchmark.pedantic(
        lambda: [daily(d, mode, library=LIB) for d in YEAR], setup=_fresh, rounds=5 if impl == "core" else 1
    )


@pytest.mark.parametrize("mode", MODES)
def test_year_generate(benchmark, impl, mode):
    benchmark.group = f"year {mode}"
    benchmark.pedantic(lambda: [generate(s, mode, library=LIB) for s in SEEDS], rounds=5 if impl == "core" else 1)
