"""Board and Group: what the Connections generator returns.

A Board holds what a client may see (tiles, groups' labels and codes) plus server-side facts
(the category ids, from which the pools are looked up in the library; stats; the trace).
``to_dict()`` is the client's JSON view and never contains a pool.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TIER_NAMES = ("yellow", "green", "blue", "purple")


@dataclass(frozen=True)
class Group:
    tier: int  # 0 yellow .. 3 purple
    label: str
    codes: tuple[str, str, str, str]
    category_id: str  # the .id of a Category in library.categories(mode)

    @property
    def tier_name(self) -> str:
        return TIER_NAMES[self.tier]

    def to_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "label": self.label, "codes": list(self.codes),
                "category_id": self.category_id}


@dataclass(frozen=True)
class Board:
    tiles: tuple[str, ...]  # the 16 codes, shuffled
    groups: tuple[Group, Group, Group, Group]  # in tier order
    seed: int | str
    mode: str
    legacy: bool = False
    stats: dict[str, Any] = field(default_factory=dict, compare=False)  # moves_tried, backtracks, decoy_applied, ...
    events: list[dict[str, Any]] | None = field(default=None, compare=False)  # when generate(trace=True)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "mode": self.mode, "tiles": list(self.tiles),
                "groups": [g.to_dict() for g in self.groups]}
