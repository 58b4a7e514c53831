"""The search simulator's data: every step of the Connections search with the state it leaves.

``generate(..., trace=True).events`` lists what the search did (enter a tier, try a category,
skip it and why, place it, undo it, backtrack, draw the tiles, apply the decoy). The simulator
also shows what the search *knows* after each step, so this module replays the events over the
library's pools: the stack of placed tiers, the candidate under test, the codes on the board,
the spill (codes that later groups may not use), attempts, backtracks and depth.

Spill follows each generator, over the sets it searches (see flagcore.reference.connections):
``legacy=True`` keeps the spec's flat set (a placed group forbids the rest of its pool of certain
codes; an undo deletes those codes even when an earlier group still forbids them), the fixed
search counts references over the placed fit sets (pool and arguable codes) and forbids the
codes two of them share. The engine's own "place" events say how many exclusive codes each
placed group keeps; the tests check the spill shown here against them.

This is a teaching tool on raw engine seeds: it shows the answers of ``generate(seed)``, which
are never the answers of a game the server deals (those boards are keyed, see boards.py).
"""

from __future__ import annotations

from typing import Any

from .._args.connections import as_mode
from ..connections import generate
from ..library import Library

MAX_STEPS = 20_000  # the longest trace of seeds 0..9,999 in either mode is far below this


def simulate(seed: int | str, mode: str, legacy: bool, library: Library, difficulty: Any = None) -> dict[str, Any]:
    """The simulator's data for engine ``seed`` on ``library``: the board (tiles, groups) and its search as
    ``steps``, each one event with the stack, candidate, board codes, spill, attempts, backtracks
    and depth after it (at most MAX_STEPS steps). Raises NoBoardError when the seed has no board.
    ``difficulty`` (None: the search alone) steers the board as generate's does; the steps are then
    those of the attempt the model chose, and the groups wear the model's colours."""
    board = generate(seed, as_mode(mode), library=library, legacy=legacy, trace=True, difficulty=difficulty)
    spill = _Spill(library, mode, legacy)
    events = board.events or []
    stack: list[dict[str, Any]] = []  # one frame per tier entered: {"tier", "label", "codes"}
    drawn: list[str] = []
    attempts = backtracks = 0
    steps: list[dict[str, Any]] = []
    for ev in events[:MAX_STEPS]:
        kind, depth = ev["event"], ev["depth"]
        candidate = None
        if kind == "enter":
            del stack[depth:]
            stack.append({"tier": ev["tier"], "label": None, "codes": []})
        elif kind == "try":
            attempts += 1
            candidate = ev["label"]
        elif kind == "skip":
            candidate = ev.get("label")
        elif kind == "place":
            stack[depth]["label"] = ev["label"]
            if legacy:
                stack[depth]["codes"] = list(ev["codes"])
            spill.place(ev)
        elif kind == "undo":
            stack[depth]["label"] = None
            stack[depth]["codes"] = []
            spill.undo(ev)
            backtracks += 1
        elif kind == "backtrack":
            del stack[depth:]
        elif kind == "draw":
            stack[depth]["codes"] = list(ev["codes"])
            drawn.extend(ev["codes"])
        elif kind == "decoy":
            codes = stack[depth]["codes"]
            if ev["removed"] in codes:
                codes[codes.index(ev["removed"])] = ev["added"]
        board_codes = [c for frame in stack for c in frame["codes"]]
        steps.append(
            {
                "event": ev,
                "depth": depth,
                "candidate": candidate,
                "stack": [dict(frame, codes=list(frame["codes"])) for frame in stack],
                "board": board_codes,
                "spill": spill.codes(),
                "attempts": attempts,
                "backtracks": backtracks,
            }
        )
    return {
        "seed": seed,
        "mode": mode,
        "legacy": legacy,
        "tiles": list(board.tiles),
        "groups": [
            {"tier": g.tier, "tier_name": g.tier_name, "label": g.label, "codes": list(g.codes)} for g in board.groups
        ],
        "steps": steps,
    }


class _Spill:
    """The codes later groups may not use, as each generator keeps them: ``legacy`` the spec's flat
    set (a placed group forbids the rest of its pool of certain codes), the fixed search the codes
    two placed fit sets (pool and arguable codes) share."""

    def __init__(self, library: Library, mode: str, legacy: bool) -> None:
        # the sets the search reads, from the library the board came from
        self._certain = {c.id: c.certain for c in library.categories(mode)}
        self._fit_sets = {c.id: c.pool | c.arguable for c in library.categories(mode)}
        self._legacy = legacy
        self._flat: set[str] = set()  # legacy: the spec's flat "forbidden" set
        self._added: list[set[str]] = []  # legacy: the spill each placed group added
        self._refs: dict[str, int] = {}  # fixed: how many placed fit sets hold each code

    def place(self, ev: dict[str, Any]) -> None:
        if self._legacy:
            added = set(self._certain[ev["category_id"]]) - set(ev["codes"])
            self._added.append(added)
            self._flat |= added
        else:
            for code in self._fit_sets[ev["category_id"]]:
                self._refs[code] = self._refs.get(code, 0) + 1

    def undo(self, ev: dict[str, Any]) -> None:
        if self._legacy:
            self._flat -= self._added.pop()  # the spec's bug, shown as it happens
        else:
            for code in self._fit_sets[ev["category_id"]]:
                self._refs[code] -= 1

    def codes(self) -> list[str]:
        return sorted(self._flat) if self._legacy else sorted(c for c, n in self._refs.items() if n >= 2)
