"""The scheduled daily Connections board: ``daily(date, mode)``, categories and flags in rotation.

``generate("daily:YYYY-MM-DD")`` is a plain seed: each day's board is drawn alone, so a category
can come back the next day and a group (the same category, the same four flags) comes back whole.
``daily`` schedules instead. The board of day i (days from ``flagcore.days.EPOCH``) is computed
from its date, the mode and the library alone; nothing before it is replayed. Five steps, a
module each (their docstrings say how):

1. :mod:`.turns`: per tier the categories rotate, one turn each per cycle, in blocks (the gap
   bound); small pools share turns, in trivia the look categories share turns in pairs.
2. :mod:`.plan`: each later tier's block matched to the days of the tiers planned before it, so
   each day's planned four form a board and keep their own members.
3. :mod:`.search`: the fixed search over the day's preferred order, the plan first, a complete
   fallback order after it (what the last LOOKBACK days took, from their first drafts, last).
4. :mod:`.members`: a category's use picks its four flags (a walk of 4-subsets for a small pool,
   a shuffled order for a large one), so a return keeps at most 2 of the previous four;
   :mod:`.fours` (4b) draws them again where the sixteen tiles split a second way, and from
   version 3 :mod:`.decoys` (4c) repairs them to at most three decoy fours, none of a label the
   week before showed (either may give the day other categories).
5. :mod:`.tiles`: the Board, its tiles shuffled by the Rng of ``season:MODE:YYYY-MM-DD``, no
   decoy, coloured by the difficulty model.

:mod:`.state` holds the Schedule and its one bounded cache; :mod:`.build` makes a Schedule once
per (library, mode, engine); :mod:`.ahead` computes the plans and the boards of the days ahead (at
start-up, or in the background for a server), so that no request pays a block's planning or a
new day's board. Everything random is
the twins' mulberry32 and every step is a
function of (date, mode, library), so both twins and every machine give the same board. A library
with other categories gives another schedule, for every day.

The published days (schedule versions 1 and 2, before 2027-02-01) of the public schedule and the
bundled library are stored instead (:mod:`.published`): ``daily`` returns them as they were dealt,
whatever the flags data in use.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from ... import days as _days
from ... import season as _season
from ..._args.connections import as_mode
from ...days import EPOCH
from ...library import Library
from ...ratings.document import as_ratings
from ...types import Mode
from ..board import Board
from ..tables import default_library
from . import published
from .ahead import PLAN_AHEAD, keep_ahead, prepare
from .build import forget, schedule
from .search import daily_categories
from .state import LATEST, VERSIONS, Schedule, version_of
from .tiles import board_of_day, coloured_board

__all__ = ["EPOCH", "Schedule", "board_of_day", "daily", "daily_categories", "forget", "schedule"]
__all__ += ["PLAN_AHEAD", "prepare", "categories", "placeable_ids", "never_ids", "usable_codes"]
__all__ += ["LATEST", "VERSIONS", "version_of"]


def daily(
    date: _dt.date | str | None = None,
    mode: Mode = "flags",
    *,
    library: Library | None = None,
    key: bytes | None = None,
    ratings: Any = None,
) -> Board:
    """The scheduled Connections board of ``date`` (a date, 'YYYY-MM-DD', None: today in UTC).

    key: a season key (bytes, at least 16): the schedule a server serves, every random stream of
    it (the categories' rotations, the members' orders, the tiles' shuffle) keyed by HMAC-SHA256
    under it (flagcore.season.keyed), so no board of it can be computed without the key. None (the
    default): the public schedule, for offline play and tests.

    Categories rotate per tier and members rotate per category (see this package's docstring);
    the board is a board of the fixed search (no tile fits another group, even arguably).
    ``generate(daily_seed(date))`` is unchanged: a plain seed, no schedule. Raises TypeError/
    ValueError naming ``date`` (not a day, or before ``EPOCH``) or ``mode``.

    ratings: None, or a flagcore.ratings.Ratings (docs/ratings.md): the same categories and
    tiles, coloured by learned difficulty; kept per day and ratings, so a day's board does not
    change while the server runs.

    A published day (before 2027-02-01) with no key and the bundled library is the stored board
    (connections.daily.published), coloured as stored for the ratings that coloured it; with a key
    or another library every day is computed (docs/season.md, "Published dailies are stored").
    """
    i = _season.day_index(date)
    rated = None if ratings is None else as_ratings(ratings)
    stored = _stored(i, as_mode(mode), library, key, rated)
    if stored is not None:
        return stored
    s = schedule(library, mode, key, version_of(i))  # a day keeps the version it was first scheduled by
    board = coloured_board(s, i, library, rated)
    # a server's request for today: the plans of the days ahead and their boards, as this one
    keep_ahead(
        s,
        i,
        lambda i: _next_version(library, mode, key, i),
        lambda j: coloured_board(schedule(library, mode, key, version_of(j)), j, library, rated),
    )
    return board


def _stored(i: int, mode: Mode, library: Library | None, key: bytes | None, rated: Any) -> Board | None:
    """Day i's stored board when it needs no schedule, else None: a published day (published.py)
    of the public schedule and the bundled library, not within a day of today (whose request
    plans the days ahead, version 3's too), coloured as the file holds."""
    if key is not None or i >= published.END or not (library is None or library is default_library()):
        return None
    if abs(i - _days.day_number(_days.latest_day())) <= 1:
        return None
    if rated is None:
        return published.model_board(mode, i)
    return published.coloured_board(mode, i, rated.for_day(_days.date_of(i)).digest)


def _next_version(library: Library | None, mode: Mode, key: bytes | None, i: int) -> Schedule | None:
    """The schedule of the version of day i + PLAN_AHEAD when it is not day i's, else None; every
    version starting between them is built too (so the first day of each pays no build)."""
    later = version_of(i + PLAN_AHEAD)
    if later == version_of(i):
        return None
    for first, v in VERSIONS:
        if i < first <= i + PLAN_AHEAD and v != later:
            schedule(library, mode, key, v)
    return schedule(library, mode, key, later)


def categories(s: Schedule) -> dict[str, Any]:
    """The schedule's categories (each with its id, label and library tier) by id."""
    return {c.id: c for c in s.tables.categories}


def placeable_ids(s: Schedule) -> list[list[str]]:
    """Per tier, the ids of the categories some board can hold (the ones the rotation deals)."""
    return [[s.tables.categories[c].id for c in tier] for tier in s.placeable]


def never_ids(s: Schedule) -> list[list[str]]:
    """Per tier, the ids of the categories no board of this library can hold."""
    return [[s.tables.categories[c].id for c in tier] for tier in s.never]


def usable_codes(s: Schedule) -> list[str]:
    """The flags (codes) some placeable category holds for certain: those a daily can deal, sorted."""
    codes = s.tables.codes
    return sorted({codes[x] for tier in s.placeable for c in tier for x in s.certain[c]})
