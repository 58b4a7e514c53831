"""Learned difficulty from play records (docs/ratings.md).

records (PlayRecord, PuzzleRecord, read_records, write_records: the JSON lines schema), fit (the
Plackett-Luce fit per mode), document (Ratings and the ratings file, load_ratings), show (the
table and the chart behind ``flagcore ratings show``), colouring (what the engine does with
ratings: saliences that steer the search and the colours a board shows).
"""

from __future__ import annotations

from ..errors import RatingsError
from .document import FORMAT, BoardRating, CategoryRating, ModelMap, Ratings, load_ratings
from .fit import MIN_PLAYS, PRIOR_SD, fit, spearman
from .records import (
    PlayRecord,
    PuzzleRecord,
    RecordsRead,
    parse_record,
    read_records,
    record_of_game,
    write_records,
)

__all__ = [
    "FORMAT",
    "MIN_PLAYS",
    "PRIOR_SD",
    "BoardRating",
    "CategoryRating",
    "ModelMap",
    "PlayRecord",
    "PuzzleRecord",
    "Ratings",
    "RatingsError",
    "RecordsRead",
    "fit",
    "load_ratings",
    "parse_record",
    "read_records",
    "record_of_game",
    "spearman",
    "write_records",
]
