"""Tiles of a board that fit another group too: ``find_ambiguities``."""

from __future__ import annotations

from typing import NamedTuple

from .._args.connections import as_instance, as_mode, check_category_known
from .._impl import core
from ..library import Library
from .board import Board, Group
from .tables import tables_for


class Ambiguity(NamedTuple):
    """A tile that also fits a group it is not in: ``group`` is that other group.

    ``kind`` is "rule" when the tile certainly fits that group (its pool, not doubtful), "arguable"
    when it arguably does (its arguable set or a doubtful pool code); ``reasons`` are then the
    category's reasons for that code (empty for "rule").
    """

    tile: str
    group: Group
    kind: str = "rule"
    reasons: tuple[str, ...] = ()


def find_ambiguities(board: Board, library: Library | None = None) -> list[Ambiguity]:
    """Every (tile, group) where the tile fits that group but belongs to another one.

    Both kinds: "rule" when the tile certainly fits the group (in its pool, not doubtful),
    "arguable" when a player could argue it does (in its arguable set or a doubtful pool code, with
    the category's reasons). The sets are those of ``library`` (None:
    the bundled one) for ``board.mode``, looked up by each group's category_id. An empty list means
    every tile fits (certainly or arguably) only the group it is in.
    """
    as_instance(board, Board, "board", "a flagcore.connections.Board")
    tables, _ = tables_for(core.connections, library, as_mode(board.mode))
    cats = [tables.categories[check_category_known(g.category_id, tables.index, board.mode)] for g in board.groups]
    out = []
    for gi, g in enumerate(board.groups):
        for tile in g.codes:
            for hi, h in enumerate(board.groups):
                if hi == gi:
                    continue
                cat = cats[hi]
                if tile in cat.doubtful:
                    out.append(Ambiguity(tile, h, "arguable", tuple(cat.doubtful_reasons.get(tile, ()))))
                elif tile in cat.pool:
                    out.append(Ambiguity(tile, h, "rule"))
                elif tile in cat.arguable:
                    out.append(Ambiguity(tile, h, "arguable", tuple(cat.arguable_reasons.get(tile, ()))))
    return out
