"""Argument rules of the season's dailies (``connections.daily``, ``puzzle.daily``, ``flagcore season``).

A day is a ``datetime.date`` (a datetime counts by its date), a "YYYY-MM-DD" str, or None for
today in UTC (UTC so that every server agrees on which board is today's). Days before the
schedule's epoch (``flagcore.days.EPOCH``) have no daily: the rotation counts its cycles from it.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from ..days import EPOCH
from ..errors import ArgumentError
from .common import as_in_range
from .connections import as_date

MAX_DAYS = 100_000  # a season report's span (about 274 years): bounded work per command


def as_day(value: Any, name: str = "date") -> _dt.date:
    """A day on or after EPOCH (as_date's day: a date, a datetime, 'YYYY-MM-DD' or None for today
    in UTC); TypeError/ValueError naming ``name`` for anything else."""
    day = as_date(value, name)
    if day < EPOCH:
        raise ArgumentError(f"{name} {day.isoformat()} is before the schedule's epoch {EPOCH.isoformat()}")
    return day


def as_days(value: Any, name: str = "days") -> int:
    """A span of days: an int in 1..MAX_DAYS."""
    return as_in_range(value, name, 1, MAX_DAYS)


def as_days_text(text: str, name: str = "--days") -> int:
    """A span of days as typed on the command line: ASCII digits, then as_days."""
    if not (text.strip().isascii() and text.strip().isdigit()):
        raise ArgumentError(f"{name} must be a positive int, got {text!r}")
    return as_days(int(text), name)
