"""The scheduled daily (connections.daily) beside plain generate on the same dates, both twins.

    pytest benchmarks/bench_season.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,mean,max,rounds --benchmark-sort=name --benchmark-group-by=group

Groups (flags and trivia):

* ``one-day``: one public call for one date. ``generate`` is ``generate("daily:DATE")``;
  ``daily-kept`` asks for a day already made (what a server does all day: the schedule keeps the
  boards it made); ``daily-new`` makes the next day of a year of consecutive days not made yet,
  after start-up (a fresh schedule whose plans for the year were computed by ``prepare``, as a
  server's background thread does): each round is a new day, so max is the worst day of the year;
  ``daily-cold`` is a day in a fresh schedule every round (a new process: the schedule, the plans
  around the day and the model's tables are computed first).
* ``year``: the 365 days of 2027 from a fresh schedule (its start-up included), beside plain
  generate on the same dates.

``ref`` runs the same public call on the reference twin (FLAGCORE_IMPL=python).
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from flagcore import _impl
from flagcore.connections import daily, generate
from flagcore.connections.daily import forget, prepare, schedule
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


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_kept(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    _fresh()
    daily(YEAR[0], mode, library=LIB)
    benchmark.pedantic(lambda: daily(YEAR[0], mode, library=LIB), rounds=200 if impl == "core" else 20)


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_new(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    _fresh()
    prepare(schedule(LIB, mode), day_number(YEAR[0]), len(YEAR))  # start-up: the year's plans
    days = iter(YEAR)
    rounds = len(YEAR) if impl == "core" else 40
    benchmark.pedantic(lambda: daily(next(days), mode, library=LIB), rounds=rounds)


@pytest.mark.parametrize("mode", MODES)
def test_one_day_daily_cold(benchmark, impl, mode):
    benchmark.group = f"one-day {mode}"
    benchmark.pedantic(lambda: daily(YEAR[100], mode, library=LIB), setup=_fresh, rounds=10 if impl == "core" else 2)


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
