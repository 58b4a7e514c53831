"""Argument rules of the season's dailies (``connections.daily``, ``puzzle.daily``, ``flagcore season``).

A day is a ``datetime.date`` (a datetime counts by its date), a "YYYY-MM-DD" str, or None for
today in UTC (UTC so that every server agrees on which board is today's). Days before the
schedule's epoch have no scheduled board: the rotation counts its cycles from the epoch.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from .common import as_in_range

# The first day of the schedule: day 0 of every rotation. Changing it changes every board.
EPOCH = _dt.date(2026, 1, 1)
MAX_DAYS = 100_000  # a season report's span (about 274 years): bounded work per command
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def as_day(value: Any, name: str = "date") -> _dt.date:
    """A day on or after EPOCH; TypeError/ValueError naming ``name`` for anything else."""
    if value is None:
        day = _dt.datetime.now(_dt.timezone.utc).date()
    elif isinstance(value, _dt.datetime):
        day = value.date()
    elif isinstance(value, _dt.date):
        day = value
    elif isinstance(value, str):
        text = value.strip()
        if not _DATE_RE.fullmatch(text):
            raise ValueError(f"{name} must be YYYY-MM-DD, got {value[:40]!r}")
        try:
            day = _dt.date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{name} {value!r} is not a calendar date") from None
    else:
        raise TypeError(f"{name} must be a datetime.date, a 'YYYY-MM-DD' str or None, not {type(value).__name__}")
    if day < EPOCH:
        raise ValueError(f"{name} {day.isoformat()} is before the schedule's epoch {EPOCH.isoformat()}")
    return day


def as_days(value: Any, name: str = "days") -> int:
    """A span of days: an int in 1..MAX_DAYS."""
    return as_in_range(value, name, 1, MAX_DAYS)


def as_days_text(text: str, name: str = "--days") -> int:
    """A span of days as typed on the command line: ASCII digits, then as_days."""
    if not (text.strip().isascii() and text.strip().isdigit()):
        raise ValueError(f"{name} must be a positive int, got {text!r}")
    return as_days(int(text), name)


def as_mode(value: Any, modes: tuple[str, ...], name: str = "mode") -> str:
    """One of ``modes``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, one of {modes}, not {type(value).__name__}")
    if value not in modes:
        raise ValueError(f"{name} must be one of {modes}, got {value[:40]!r}")
    return value
