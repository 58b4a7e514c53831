"""Where a board could be read another way: tiles that fit another group too (``find_ambiguities``)
and a second way to split its sixteen tiles into four fours (``find_second_split``)."""

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


class Four(NamedTuple):
    """Four tiles of a board that a category of the library (on the board or not) could name alone."""

    category_id: str
    label: str
    codes: tuple[str, str, str, str]  # in the board's group order


def find_second_split(board: Board, library: Library | None = None) -> tuple[Four, Four, Four, Four] | None:
    """A split of the board's sixteen tiles into four fours other than its own groups, or None.

    A four of a category is four tiles that all fit it (certainly or arguably) and hold every tile
    of the board that certainly fits it: under some reading of the data its label names exactly
    those four. The fours of a split are disjoint, of four distinct categories, and not all of them
    the board's own groups (some may be). ``library`` (None: the bundled one) is the one the board
    was made from. The fixed search never makes such a board (``generate``, at every difficulty);
    this finds one where a board came from elsewhere (a schedule, a hand-made board).
    """
    as_instance(board, Board, "board", "a flagcore.connections.Board")
    impl = core.connections
    tables, prepared = tables_for(impl, library, as_mode(board.mode))
    for g in board.groups:
        check_category_known(g.category_id, tables.index, board.mode)
    known = {code: i for i, code in enumerate(tables.codes)}
    group_codes = [code for g in board.groups for code in g.codes]
    unknown = sorted({code for code in group_codes if code not in known})
    if unknown or len(group_codes) != 16:
        raise ValueError(f"board: tiles {unknown} are not countries of the library" if unknown else "board: 16 tiles")
    split = impl.second_split(prepared, [known[c] for c in group_codes])
    if not split:
        return None
    fours = []
    for c, mask in split:
        cat = tables.categories[c]
        codes = tuple(group_codes[i] for i in range(16) if mask >> i & 1)
        fours.append(Four(cat.id, cat.label, codes))  # type: ignore[arg-type]
    return tuple(fours)  # type: ignore[return-value]
