"""Step 5, the tiles and the board: day i's groups as a Board, its tiles shuffled, coloured by the model.

The tiles are shuffled by the Rng of ``season:MODE:YYYY-MM-DD``; no decoy. The board records
``seed="season:YYYY-MM-DD"``; its board id would name a plain seed, so a scheduled daily is shared
by its date. The colours a player sees are the difficulty model's, as for generate
(docs/difficulty.md).
"""

from __future__ import annotations

from typing import Any

from ... import days as _days
from ...library import Library
from ...ratings.colouring import rated_model, recolour
from ..board import Board, Group, frozen_from_fields
from ..difficulty import colour_by_model, model_tables
from . import published
from .decoys import capped_fours
from .fours import day_fours
from .search import daily_categories
from .state import TIERS, Schedule

Made = tuple[Board, list[int], list[int]]  # (the Board, its groups' category indices, their code indices)


def board_of_day(s: Schedule, i: int) -> Board:
    """The scheduled Board of day i before the model's colours (its groups in search-tier order);
    a published day's as stored (published.py)."""
    if published.stores(s, i):
        return published.plain_board(s.mode, i)
    return made(s, i)[0]


def made(s: Schedule, i: int) -> Made:
    """(day i's Board, its groups' category indices, its groups' code indices in group order), kept."""
    hit = s.memo.get(("board", i))
    if hit is None:
        hit = s.memo.put(("board", i), _make_board(s, i))
    return hit  # type: ignore[no-any-return]


def _make_board(s: Schedule, i: int) -> Made:
    if s.version >= 3:  # step 4c: the decoy fours capped, none of a label of the week before
        (cats, planned, counters), fours, redrawn = capped_fours(s, i)
    else:
        (cats, planned, counters), fours, redrawn = day_fours(s, i, daily_categories(s, i))
    day = _days.date_of(i).isoformat()
    groups: list[Group] = []
    tiles: list[str] = []
    code_indices: list[int] = []
    table_codes = s.tables.codes
    for g, c in enumerate(cats):
        cat = s.tables.categories[c]
        four = fours[g]
        code_indices.extend(four)
        codes = tuple([table_codes[x] for x in four])
        # every field set here, as assembly.board does (the dataclass __init__ costs a few us a board)
        groups.append(frozen_from_fields(Group, {"tier": g, "label": cat.label, "codes": codes, "category_id": cat.id}))
        tiles.extend(codes)
    stats = {
        "scheduled": True,
        "day": i,
        "planned": [s.tables.categories[c].id for c in planned],
        "off_plan_tiers": [g for g in range(TIERS) if cats[g] != planned[g]],
        "moves_tried": counters[0],
        "backtracks": counters[1],
        "split_redraw": redrawn,  # steps 4b-c: 0 the members as drawn, 1 another draw, 2 other categories
        "decoy_applied": False,
        "ambiguous_tiles": 0,
        "arguable_tiles": 0,
    }
    shuffled = s.engine_rng.shuffle(tiles, s.rng(f"season:{s.mode}:{day}"))
    fields = {"tiles": tuple(shuffled), "groups": tuple(groups), "seed": f"season:{day}", "mode": s.mode}
    board = frozen_from_fields(Board, {**fields, "legacy": False, "stats": stats, "events": None})
    return board, cats, code_indices


def coloured_board(s: Schedule, i: int, library: Library | None, ratings: Any = None) -> Board:
    """Day i's Board coloured by the difficulty model (what a player sees), kept; with ``ratings``
    (a flagcore.ratings.Ratings) coloured by learned difficulty instead (docs/ratings.md). A
    published day's as stored, where the file holds its colouring (published.py)."""
    stored = published.stores(s, i)
    if ratings is not None:
        ratings = ratings.for_day(_days.date_of(i))  # a refit never recolours a published daily
        board = s.memo.get(("rated", ratings.digest, i))
        if board is None:
            board = published.coloured_board(s.mode, i, ratings.digest) if stored else None
            if board is None:
                board = _rated(s, i, library, ratings, stored)
            board = s.memo.put(("rated", ratings.digest, i), board)
        return board  # type: ignore[no-any-return]
    if stored:
        return published.model_board(s.mode, i)
    board = s.memo.get(("coloured", i))
    if board is None:
        board = s.memo.put(("coloured", i), _model_coloured(s, i, library))
    return board  # type: ignore[no-any-return]


def _model_coloured(s: Schedule, i: int, library: Library | None) -> Board:
    # the plain board is not kept as well: a day is asked for coloured, and fewer objects kept
    # a day means fewer garbage collections (board_of_day and ratings keep theirs)
    plain, cats, code_indices = s.memo.get(("board", i)) or _make_board(s, i)
    # coloured(board, library) without its checks: the schedule made the board and knows its indices
    mt = model_tables(s.impl, library, s.mode)
    raw = s.impl.board_model(mt.prepared, code_indices, cats)
    return colour_by_model(plain, mt, cats, raw)


def _rated(s: Schedule, i: int, library: Library | None, ratings: Any, stored: bool) -> Board:
    """Day i's Board coloured by ``ratings`` through the library in use: a published day's stored
    groups where the library still holds their categories and flags (else its stored model colours)."""
    if not stored:
        return computed(s, i, library, ratings)
    found = published.indices(s, i)
    if found is None:
        return published.model_board(s.mode, i)
    return _recoloured(s, library, ratings, published.plain_board(s.mode, i), *found)


def computed(s: Schedule, i: int, library: Library | None, ratings: Any = None) -> Board:
    """Day i's Board coloured as coloured_board colours it, always computed (never the stored
    one): scripts/write_published_dailies.py. ``ratings``: those of the day (``for_day``)."""
    if ratings is None:
        return _model_coloured(s, i, library)
    return _recoloured(s, library, ratings, *made(s, i))


def _recoloured(
    s: Schedule, library: Library | None, ratings: Any, plain: Board, cats: Any, code_indices: Any
) -> Board:
    rm = rated_model(s.impl, library, s.mode, ratings)
    raw = s.impl.board_model(rm.mt.prepared, code_indices, cats)
    return recolour(colour_by_model(plain, rm.mt, cats, raw), rm)
