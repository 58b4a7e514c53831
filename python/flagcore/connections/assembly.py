"""A raw search result (status, category and code indices, counters, trace) as a Board.

Both searches report the same raw tuple; the compiled core builds the Board from its C arrays in
one step, the reference twin and ``BoardBatch`` call :func:`board` here. ``KIT`` is what the
twins are handed so that they import nothing above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields as dataclass_fields
from operator import itemgetter
from typing import Any, NamedTuple, Protocol

from .. import _connections_layout as _layout
from ..errors import NoBoardError
from ..library import Category
from .board import Board, Group, frozen_from_fields


class Tables(Protocol):
    """What a board's assembly reads of its search tables (flagcore.connections.tables.Tables,
    which imports this module for KIT: a Protocol here keeps the two modules out of a circle)."""

    @property
    def mode(self) -> str:
        """The tables' mode, "flags" or "trivia"."""
        ...

    @property
    def codes(self) -> tuple[str, ...]:
        """Every country code of the library, by code index."""
        ...

    @property
    def categories(self) -> tuple[Category, ...]:
        """Every category of the mode, by category index."""
        ...


REASONS = _layout.REASONS
EVENT_KINDS = _layout.EVENT_KINDS


def _stats(tables: Tables, counters: list[int], decoy: list[int], ambiguous: int, arguable: int) -> dict[str, Any]:
    # counters layout: flagcore.reference.connections.COUNTERS (indices spelled out: this runs per board)
    return {
        "moves_tried": counters[0],
        "backtracks": counters[1],
        "decoy_applied": decoy[0] >= 0,
        "decoy": None
        if decoy[0] < 0
        else {"tier": decoy[0], "removed": tables.codes[decoy[1]], "added": tables.codes[decoy[2]]},
        "skips": dict(zip(REASONS, counters[2:7])),
        "tier_entries": counters[7:11],
        "tier_exhaustions": counters[11:15],
        "ambiguous_tiles": ambiguous,
        "arguable_tiles": arguable,
    }


if (
    _layout.C_MOVES,
    _layout.C_BACKTRACKS,
    _layout.C_SKIPS,
    _layout.C_ENTRIES,
    _layout.C_EXHAUSTED,
    _layout.COUNTERS,
) != (0, 1, 2, 7, 11, 15):
    raise ImportError("flagcore.connections.assembly: counters layout changed; update _stats")


def _events(tables: Tables, raw: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The trace as the simulator shows it: one dict per step, in order."""
    return _layout.event_dicts(tables.codes, tables.categories, raw)


def _no_board(tables: Tables, seed: int | str, legacy: bool, counters: Sequence[int]) -> NoBoardError:
    return NoBoardError(_layout.no_board_message(tables.mode, seed, legacy, counters[_layout.C_MOVES]))


# board() sets these fields directly; if board.py gains a field, fail at import rather than build
# incomplete objects.
if {f.name for f in dataclass_fields(Group)} != {"tier", "label", "codes", "category_id"} or {
    f.name for f in dataclass_fields(Board)
} != {"tiles", "groups", "seed", "mode", "legacy", "stats", "events"}:
    raise ImportError("flagcore.connections.assembly: Board/Group fields changed; update board")


def board(tables: Tables, seed: int | str, legacy: bool, raw: Sequence[Any]) -> Board:
    """The Board of one raw search result, or the NoBoardError it reports."""
    status, cats, gt, tiles, decoy, counters, ambiguous, arguable, events = raw
    if status != _layout.STATUS_OK:
        raise _no_board(tables, seed, legacy, counters)
    codes = tables.codes
    gcodes = itemgetter(*gt)(codes)
    groups = []
    for g in range(4):
        cat = tables.categories[cats[g]]
        groups.append(
            frozen_from_fields(
                Group, {"tier": g, "label": cat.label, "codes": gcodes[4 * g : 4 * g + 4], "category_id": cat.id}
            )
        )
    return frozen_from_fields(
        Board,
        {
            "tiles": itemgetter(*tiles)(codes),
            "groups": tuple(groups),
            "seed": seed,
            "mode": tables.mode,
            "legacy": legacy,
            "stats": _stats(tables, counters, decoy, int(ambiguous), int(arguable)),
            "events": None if events is None else _events(tables, events),
        },
    )


class BoardKit(NamedTuple):
    """What a search module needs to build Boards, handed to its ``prepare`` so that the twins
    import nothing above them: the compiled core builds Board and Group itself (one step, in C),
    the reference twin hands its raw result to ``assemble``."""

    board: type
    group: type
    assemble: Any  # (tables, seed, legacy, raw result) -> Board


KIT = BoardKit(Board, Group, board)
