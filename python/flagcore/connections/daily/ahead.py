"""Plans computed ahead, so that no request pays a block's planning.

A day's board is cheap once the plans of its days are known: the rotations' cycles (each block's
matching runs a fixed search per item and day, a few ms a cycle), the small pools' walks (a
greedy walk over up to 210 subsets) and the difficulty model's tables. ``prepare`` computes them
for a span of days; ``keep_ahead`` runs it in a background thread when a request for today (in
the earliest time zone) finds fewer than PLAN_AHEAD // 2 days planned ahead, so a server plans a
year ahead of its players at its first daily and about twice a year after that. The same thread
then makes the boards of those days as the request asked for them (coloured, or by its ratings):
a day's board is still about seven plain ``generate`` calls of Python (its members, the
second-split check, the colours, the Board), and made ahead no request for a new day pays it.
Every plan and board is a pure function of the schedule and the day, so whichever thread
computes one first, the boards are the same.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ... import days as _days
from ..difficulty import model_tables
from .members import WALK_MAX, member_ring, walk
from .search import LOOKBACK
from .state import Schedule, version_start

PLAN_AHEAD = 400  # days a server keeps planned ahead of today


def prepare(s: Schedule, first: int, days: int = PLAN_AHEAD) -> None:
    """Compute the plans of days ``first`` .. ``first + days`` (and the LOOKBACK days before them):
    each tier's cycles over the span and one on each side (a day's fallback reads the distances to
    the turns of its cycle's neighbours), every small pool's walk, every large pool's member orders
    of those cycles and the difficulty model's tables (the colours)."""
    model_tables(s.impl, s.library, s.mode)
    cycles = []
    for t in s.depth_order:  # the earlier tiers first: a later tier's matching reads their plans
        rot = s.rotations[t]
        low = max(0, (first - LOOKBACK) // rot.n - 1)
        cycles.append((t, low, (first + days) // rot.n + 2))
        for k in range(*cycles[-1][1:]):
            rot.cycle(k)
    for t, low, high in cycles:
        for c in s.placeable[t]:
            if len(s.certain[c]) <= WALK_MAX:
                walk(s, c)
            else:  # a large pool's member orders, one shuffle per lap (a use index is at most its cycle's)
                for u in range(max(0, low - 1), high):
                    member_ring(s, c, u)
    s.ahead = max(s.ahead, first + days)


def keep_ahead(
    s: Schedule,
    i: int,
    successor: Callable[[int], Schedule | None] | None = None,
    make: Callable[[int], object] | None = None,
) -> None:
    """After a request for day i: when i is today (or a day either side, in the earliest time
    zone) and fewer than PLAN_AHEAD // 2 days after it are planned, plan PLAN_AHEAD days from it in
    a background thread (one at a time per schedule). Other days (an archive, a season report)
    plan what they need when asked. ``successor(i)``: the schedule of the version after s when
    one starts within PLAN_AHEAD days of i, else None: the same thread builds it and plans its
    first days, so the first request of a new version pays no build. ``make(j)``: day j's board
    as the request asked for it (kept by its schedule); the thread makes those of the planned
    days, from day i on, after the plans."""
    if s.preparing or s.ahead >= i + PLAN_AHEAD // 2:
        return
    if abs(i - _days.day_number(_days.latest_day())) > 1:
        return
    s.preparing = True
    threading.Thread(
        target=_prepare_then_done, args=(s, i, successor, make), name="flagcore-daily-plans", daemon=True
    ).start()


def _prepare_then_done(
    s: Schedule, i: int, successor: Callable[[int], Schedule | None] | None, make: Callable[[int], object] | None
) -> None:
    try:
        prepare(s, i)
        after = None if successor is None else successor(i)
        if after is not None:
            first = version_start(after.version)
            prepare(after, first, max(1, i + PLAN_AHEAD - first))
        if make is not None:
            for j in range(i, i + PLAN_AHEAD):
                make(j)
    finally:
        s.preparing = False
