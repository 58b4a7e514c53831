"""Board and Group: what the Connections generator returns.

A Board holds what a client may see (the mode and the 16 tiles) plus what only the server may
know: the groups (the answers), the seed (which rebuilds the answers), the category ids (from
which the pools are looked up in the library), stats and the trace. ``to_dict()`` is the
client's JSON view, without answers; ``to_dict(reveal=True)`` adds them. Neither holds a pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from .._args.connections import as_instance
from .._connections_layout import TIER_NAMES
from ..types import Mode
from .ids import encode_board_id

_set_attr = object.__setattr__
T = TypeVar("T")


def frozen_from_fields(cls: type[T], fields: dict[str, Any]) -> T:
    """A frozen dataclass instance from all of its fields, without the per-field object.__setattr__
    calls of its generated __init__ (a few hundred ns each: a large share of generate() and of a
    guess). Only for values the caller built itself: every field must be set, since equality, hash
    and repr read the same attributes."""
    obj = object.__new__(cls)
    _set_attr(obj, "__dict__", fields)
    return obj


@dataclass(frozen=True)
class Group:
    """One answer: four codes that share a category, its label and its tier (difficulty)."""

    tier: int  # 0 yellow .. 3 purple
    label: str
    codes: tuple[str, str, str, str]
    category_id: str  # the .id of a Category in library.categories(mode)

    @property
    def tier_name(self) -> str:
        """ "yellow", "green", "blue" or "purple" (easiest to hardest)."""
        return TIER_NAMES[self.tier]

    def to_dict(self) -> dict[str, Any]:
        """{"tier", "label", "codes", "category_id"}: plain JSON types."""
        return {"tier": self.tier, "label": self.label, "codes": list(self.codes), "category_id": self.category_id}


@dataclass(frozen=True)
class Board:
    """A generated Connections board: 16 shuffled tiles and the four groups that answer it."""

    tiles: tuple[str, ...]  # the 16 codes, shuffled
    groups: tuple[Group, Group, Group, Group]  # in tier order
    seed: int | str
    mode: Mode
    legacy: bool = False
    stats: dict[str, Any] = field(default_factory=dict, compare=False)  # moves_tried, backtracks, decoy_applied, ...
    events: list[dict[str, Any]] | None = field(default=None, compare=False)  # when generate(trace=True)

    def to_dict(self, *, reveal: bool = False) -> dict[str, Any]:
        """The JSON view: {"mode", "tiles"} for a client, which cannot work out the answers.

        ``reveal=True`` adds what only the server may hold: "seed", "board_id" and "groups"
        (each {"tier", "label", "codes", "category_id"}). The seed is left out of the client's
        view because it rebuilds the answers; so is the board id, which holds the seed.
        """
        view: dict[str, Any] = {"mode": self.mode, "tiles": list(self.tiles)}
        if reveal:
            view.update(seed=self.seed, board_id=board_id(self), groups=[g.to_dict() for g in self.groups])
        return view


def board_id(board: Board) -> str:
    """The compact id that rebuilds ``board`` (with the same library) via ``from_board_id``."""
    as_instance(board, Board, "board", "a flagcore.connections.Board")
    model = board.stats.get("model") if isinstance(board.stats, dict) else None
    difficulty = model.get("difficulty") if isinstance(model, dict) else None
    ratings = model.get("ratings") if isinstance(model, dict) else None
    return encode_board_id(
        board.seed, board.mode, bool(board.legacy), "normal" if board.legacy else difficulty, ratings=ratings
    )
