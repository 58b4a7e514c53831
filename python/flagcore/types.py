"""The names of the public API's closed sets of values, as types: ``Mode``, ``Difficulty``, ``Grid``.

A type checker rejects ``generate(1, "flag")`` or ``new_game("FR", grid="elite ")`` before the code
runs; at run time flagcore._args checks the same sets (ArgumentError, ArgumentTypeError). This
module imports nothing, so any module may use it.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["Mode", "DifficultyLevel", "Difficulty", "GridName", "Grid"]

Mode = Literal["flags", "trivia"]
"""A Connections mode: "flags" (groups of flags that look alike) or "trivia" (facts about the countries)."""

DifficultyLevel = Literal["easy", "normal", "hard"]
"""A named Connections difficulty (docs/difficulty.md)."""

Difficulty = DifficultyLevel | int
"""A Connections difficulty: a level, or an int 0..8, the number of tempting phantom groups asked for.
Where a function also takes None, None is the search alone (no difficulty model)."""

GridName = Literal["easy", "medium", "hard", "regular", "pro", "elite"]
"""A named Puzzle grid: easy 3x2, medium 4x3, hard 5x3 (regular, pro and elite are their aliases)."""

Grid = GridName | tuple[int, int]
"""A Puzzle grid: a name, or (columns, rows), each side 1..32. ``resolve_grid`` also reads the
text forms a person types ("4x3", " Hard")."""
