"""Plans computed ahead, so that no request pays a block's planning.

A day's board is cheap once the plans of its days are known: the rotations' cycles (each block's
matching runs a fixed search per item and day, a few ms a cycle), the small pools' walks (a
greedy walk over up to 210 subsets) and the difficulty model's tables. ``prepare`` computes them
for a span of days. ``keep_ahead`` hands them to the schedule's planner: one long-lived daemon
thread per schedule (named PLANNER), started by the first request for today (in the earliest time
zone, a server's start-up) and woken by an Event whenever a request for today finds fewer than
PLAN_AHEAD - REFILL days planned ahead. Its first wake-up plans PLAN_AHEAD days; each later one
plans only the days not yet planned (about a week), so the work is spread over the year instead
of a restart every 200 days, and no request starts a thread. The same thread then makes the
boards of those days as the request asked for them (coloured, or by its ratings): a day's board
is still about seven plain ``generate`` calls of Python, and made ahead no request for a new day
pays it. It yields the GIL between cycles, pools and boards (``time.sleep(0)``): otherwise a
request arriving while it works waits for CPython's switch interval (5 ms) before it runs.
Every plan and board is a pure function of the schedule and the day, so whichever thread
computes one first, the boards are the same.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable

from ... import days as _days
from ..difficulty import model_tables
from .members import WALK_MAX, member_ring, walk
from .search import LOOKBACK
from .state import Schedule, version_start

PLAN_AHEAD = 400  # days a server keeps planned ahead of today
REFILL = 7  # the planner wakes when fewer than PLAN_AHEAD - REFILL days are planned ahead
PLANNER = "flagcore-daily-plans"  # the planners' thread name
IDLE_CHECK = 10.0  # seconds an idle planner waits before it checks that its schedule still lives

log = logging.getLogger(__name__)
Successor = Callable[[int], Schedule | None]
Make = Callable[[int], object]
Job = tuple[int, Successor | None, Make | None]


def _no_pause() -> None:
    pass


def prepare(s: Schedule, first: int, days: int = PLAN_AHEAD, pause: Callable[[], None] = _no_pause) -> None:
    """Compute the plans of days ``first`` .. ``first + days`` (and the LOOKBACK days before them):
    each tier's cycles over the span and one on each side (a day's fallback reads the distances to
    the turns of its cycle's neighbours), every small pool's walk, every large pool's member orders
    of those cycles and the difficulty model's tables (the colours). ``pause`` is called between
    pieces (a planner yields the GIL there)."""
    model_tables(s.impl, s.library, s.mode)
    if s.pattern is not None:  # version 3: its cycles of families (families.py), which plan the days
        s.pattern.prepare(first - LOOKBACK, first + days)
    cycles = []
    for t in s.depth_order:  # the earlier tiers first: a later tier's matching reads their plans
        rot = s.rotations[t]
        low = max(0, (first - LOOKBACK) // rot.n - 1)
        cycles.append((t, low, (first + days) // rot.n + 2))
        for k in range(*cycles[-1][1:]):
            rot.cycle(k)
            pause()
    for t, low, high in cycles:
        for c in s.placeable[t]:
            if len(s.certain[c]) <= WALK_MAX:
                walk(s, c)
            else:  # a large pool's member orders, one shuffle per lap (a use index is at most its cycle's)
                for u in range(max(0, low - 1), high):
                    member_ring(s, c, u)
            pause()
    s.ahead = max(s.ahead, first + days)


class _Planner:
    """One schedule's planning thread. It holds its schedule weakly (a schedule forgotten is not
    kept alive by its thread, which ends at its next idle check) and runs one job at a time: the
    schedule's ``preparing`` is set when a job is posted and cleared when it is done, so
    ``keep_ahead`` posts no other meanwhile."""

    def __init__(self, s: Schedule) -> None:
        self.schedule = weakref.ref(s)
        self.wake = threading.Event()
        self.idle = threading.Event()  # no job posted or running
        self.first = threading.Event()  # the first job is done
        self.lock = threading.Lock()  # a job posted and the idle flag change together
        self.job: Job | None = None
        self.made = -1  # the last day whose board this planner made
        self.idle.set()
        self.thread = threading.Thread(target=self._run, name=PLANNER, daemon=True)
        self.thread.start()

    def post(self, job: Job) -> None:
        with self.lock:
            self.job = job
            self.idle.clear()
        self.wake.set()

    def _run(self) -> None:
        while True:
            if not self.wake.wait(IDLE_CHECK):
                if self.schedule() is None:
                    return
                continue
            self.wake.clear()
            with self.lock:
                job, self.job = self.job, None
            s = self.schedule()
            try:
                if s is not None and job is not None:
                    self._plan(s, *job)
            except Exception:  # a planner keeps serving: the days it missed are planned on demand
                log.exception("planning the days ahead failed")
            finally:
                if s is not None:
                    s.preparing = False
                del s
                with self.lock:
                    if self.job is None:
                        self.idle.set()
                self.first.set()

    def _plan(self, s: Schedule, i: int, successor: Successor | None, make: Make | None) -> None:
        pause = _pause
        end = i + PLAN_AHEAD
        first = max(i, s.ahead)  # the days already planned are not walked again
        prepare(s, first, end - first, pause)
        after = None if successor is None else successor(i)
        if after is not None:
            first = max(version_start(after.version), after.ahead)
            prepare(after, first, max(1, end - first), pause)
        if make is not None:
            for j in range(max(i, self.made + 1), end):
                make(j)
                pause()
            self.made = max(self.made, end - 1)


def _pause() -> None:
    time.sleep(0)  # releases the GIL: a waiting request runs now, not after the switch interval


_planners: weakref.WeakKeyDictionary[Schedule, _Planner] = weakref.WeakKeyDictionary()
_planners_lock = threading.Lock()


def keep_ahead(
    s: Schedule,
    i: int,
    successor: Callable[[int], Schedule | None] | None = None,
    make: Callable[[int], object] | None = None,
) -> None:
    """After a request for day i: when i is today (or a day either side, in the earliest time
    zone) and fewer than PLAN_AHEAD - REFILL days after it are planned, wake the schedule's
    planner (started at the first such request) to plan up to PLAN_AHEAD days from it. Other days
    (an archive, a season report) plan what they need when asked. ``successor(i)``: the schedule
    of the version after s when one starts within PLAN_AHEAD days of i, else None: the same
    thread builds it and plans its first days, so the first request of a new version pays no
    build. ``make(j)``: day j's board as the request asked for it (kept by its schedule); the
    thread makes those of the planned days, from day i on, after the plans."""
    if s.preparing or s.ahead >= i + PLAN_AHEAD - REFILL:
        return
    if abs(i - _days.day_number(_days.latest_day())) > 1:
        return
    with _planners_lock:
        if s.preparing:
            return
        s.preparing = True
        planner = _planners.get(s)
        if planner is None:
            planner = _planners[s] = _Planner(s)
    planner.post((i, successor, make))


def settle(timeout: float | None = None) -> bool:
    """Wait until every planner has done the jobs posted so far (tests and benchmarks: the
    threads never end while their schedules live, so they are not joined). False on a timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    for planner in list(_planners.values()):
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not planner.idle.wait(left):
            return False
    return True


def planning() -> tuple[threading.Event, ...]:
    """The events of the planners whose first plans are not done yet (each is set when they are):
    a server's start-up reads them to answer not-ready until its dailies are planned."""
    return tuple(p.first for p in list(_planners.values()) if not p.first.is_set())
