"""The day clock of the dailies: one epoch, a day's number, and which day has begun.

Every daily (the scheduled Connections board, the Puzzle daily, the web's daily boards) counts its
days from one epoch, ``EPOCH`` (day 0): a daily before it does not exist, and changing it changes
every scheduled board. A day's daily exists from the moment that day has begun somewhere, that is
in the earliest time zone (UTC+14): a player there must find it, a player anywhere else finds it
early rather than late.
"""

from __future__ import annotations

import datetime as _dt
import time

EPOCH = _dt.date(2026, 1, 1)
EARLIEST_ZONE = _dt.timezone(_dt.timedelta(hours=14))

__all__ = ["EARLIEST_ZONE", "EPOCH", "date_of", "day_number", "has_begun", "latest_day", "latest_day_text"]


def day_number(day: _dt.date) -> int:
    """Days from EPOCH to ``day`` (negative before it: no daily exists there)."""
    return (day - EPOCH).days


def date_of(number: int) -> _dt.date:
    """The date of day ``number``."""
    return EPOCH + _dt.timedelta(days=number)


def latest_day() -> _dt.date:
    """Today in the earliest time zone (UTC+14): the latest day that has begun somewhere."""
    return _dt.datetime.now(EARLIEST_ZONE).date()


_latest: list[object] = [0.0, ""]  # [time.time() until which the text holds, latest_day() as text]


def latest_day_text() -> str:
    """latest_day() as YYYY-MM-DD, recomputed at most once a second (a server asks at every request)."""
    now = time.time()
    if now >= _latest[0]:  # type: ignore[operator]
        _latest[:] = [now + 1.0, latest_day().isoformat()]
    return str(_latest[1])


def has_begun(day: _dt.date) -> bool:
    """Whether ``day`` has begun somewhere (on or before latest_day()), so its daily may be shown."""
    return day <= latest_day()
