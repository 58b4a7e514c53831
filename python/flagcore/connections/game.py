"""One player's Connections game on a Board: guesses, mistakes, the end, sharing.

Rules (as the original game): MAX_MISTAKES is 4; a "one_away" counts as a mistake; resubmitting a
set that already failed is refused as "already_tried" without costing anything (the set is
compared as a set, so the order of the codes does not matter); the player wins with all four
groups solved and fewer than four mistakes. Guesses after the end are refused. Every check runs
before any state changes, so a rejected guess leaves the game exactly as it was.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Iterable

import flagcore
from flagcore.reference import rng as _ref_rng

from .board import Board, Group
from .grading import ITEMS_PER_CATEGORY, grade, validate_selection
from .ids import board_id

MAX_MISTAKES = 4
TIER_SQUARES = ("\U0001F7E8", "\U0001F7E9", "\U0001F7E6", "\U0001F7EA")  # yellow green blue purple


@dataclass(frozen=True)
class GuessOutcome:
    """What one call of ``ConnectionsGame.guess`` did.

    ``result``: "correct", "one_away", "wrong" or "already_tried"; ``matched``: the solved group
    when correct; the rest is the game's state after the guess.
    """

    result: str
    matched: Group | None
    mistakes: int
    mistakes_left: int
    won: bool
    lost: bool

    @property
    def over(self) -> bool:
        return self.won or self.lost


def _rng_modules() -> list[ModuleType]:
    modules: list[ModuleType] = [_ref_rng]
    try:
        modules.append(importlib.import_module("flagcore._rng"))
    except ImportError:  # a pure-Python install still shuffles with the reference twin
        pass
    return modules


def _validate_board(board: object) -> Board:
    if not isinstance(board, Board):
        raise TypeError(f"board must be a flagcore.connections.Board, not {type(board).__name__}")
    tiles = board.tiles
    if len(tiles) != 4 * ITEMS_PER_CATEGORY or len(set(tiles)) != len(tiles):
        raise ValueError(f"board: needs {4 * ITEMS_PER_CATEGORY} distinct tiles, got {list(tiles)}")
    if len(board.groups) != 4:
        raise ValueError(f"board: needs 4 groups, got {len(board.groups)}")
    grouped: list[str] = []
    for group in board.groups:
        if not isinstance(group, Group) or len(group.codes) != ITEMS_PER_CATEGORY:
            raise ValueError(f"board: every group needs {ITEMS_PER_CATEGORY} codes")
        grouped.extend(group.codes)
    # Disjoint groups covering the tiles are what makes grading order-independent.
    if len(set(grouped)) != len(grouped) or set(grouped) != set(tiles):
        raise ValueError("board: the groups must be disjoint and cover exactly the 16 tiles")
    return board


class ConnectionsGame:
    """A game in progress. ``guess(codes)`` grades four tiles and updates the state."""

    def __init__(self, board: Board) -> None:
        self.board = _validate_board(board)
        self._order: list[str] = list(board.tiles)
        self._on_board = frozenset(board.tiles)
        self._code_sets = tuple(frozenset(g.codes) for g in board.groups)  # graded against every guess
        self._solved: list[Group] = []
        self._solved_tiles: set[str] = set()
        self._mistakes = 0
        self._failed: set[frozenset[str]] = set()
        self._history: list[tuple[str, ...]] = []

    @property
    def mistakes(self) -> int:
        return self._mistakes

    @property
    def mistakes_left(self) -> int:
        return MAX_MISTAKES - self._mistakes

    @property
    def won(self) -> bool:
        return len(self._solved) == len(self.board.groups) and self._mistakes < MAX_MISTAKES

    @property
    def lost(self) -> bool:
        return self._mistakes >= MAX_MISTAKES

    @property
    def over(self) -> bool:
        return self.won or self.lost

    @property
    def solved_groups(self) -> tuple[Group, ...]:
        """The groups found so far, in the order they were solved."""
        return tuple(self._solved)

    @property
    def remaining_tiles(self) -> tuple[str, ...]:
        """The unsolved tiles in their current display order."""
        return tuple(self._order)

    @property
    def guesses(self) -> tuple[tuple[str, ...], ...]:
        """Every graded guess in order (already_tried and rejected guesses are not graded)."""
        return tuple(self._history)

    def guess(self, codes: Iterable[str]) -> GuessOutcome:
        if self.over:
            raise ValueError("guess: the game is over "
                             f"({'won' if self.won else 'lost'}), no more guesses")
        selected = validate_selection(codes, "codes")
        unknown = [c for c in selected if c not in self._on_board]
        if unknown:
            raise ValueError(f"codes: not on this board: {unknown}")
        repeated = [c for c in selected if c in self._solved_tiles]
        if repeated:
            raise ValueError(f"codes: already in a solved group: {repeated}")
        key = frozenset(selected)
        if key in self._failed:
            return self._outcome("already_tried", None)
        graded = grade(self.board.groups, self._code_sets, selected)
        self._history.append(selected)
        if graded.result == "correct":
            assert graded.matched is not None
            self._solved.append(graded.matched)
            self._solved_tiles.update(graded.matched.codes)
            self._order = [c for c in self._order if c not in self._solved_tiles]
        else:
            self._mistakes += 1
            self._failed.add(key)
        return self._outcome(graded.result, graded.matched)

    def _outcome(self, result: str, matched: Group | None) -> GuessOutcome:
        return GuessOutcome(result, matched, self._mistakes, self.mistakes_left, self.won, self.lost)

    def shuffle_remaining(self, rng: object) -> tuple[str, ...]:
        """Shuffle the unsolved tiles with ``rng`` (a flagcore.Rng, or a seed for a new one).

        Uses the spec's Fisher-Yates (flagcore.shuffle), so a client running mulberry32 with
        the same state sees the same order. Returns the new order.
        """
        if isinstance(rng, (int, str)) and not isinstance(rng, bool):
            self._order = flagcore.shuffle(self._order, flagcore.Rng(rng))
            return tuple(self._order)
        # Each Rng class (compiled or reference twin) drives the shuffle of its own module.
        for module in _rng_modules():
            if isinstance(rng, module.Rng):
                self._order = module.shuffle(self._order, rng)
                return tuple(self._order)
        raise TypeError(f"rng must be a flagcore.Rng or a seed (int or str), not {type(rng).__name__}")

    def share(self) -> str:
        """The result as an emoji grid: a title line, then one row per graded guess.

        Each square is the tier colour of the group that tile belongs to (yellow, green, blue,
        purple), the format players of such games paste into chats.
        """
        tier_of = {code: g.tier for g in self.board.groups for code in g.codes}
        title = "flagcore Connections"
        try:
            title += f" {board_id(self.board)}"
        except (TypeError, ValueError):
            pass  # a hand-made board whose seed or mode no id can express still shares its grid
        rows = ["".join(TIER_SQUARES[tier_of[c]] for c in guess) for guess in self._history]
        status = "solved" if self.won else ("lost" if self.lost else "in progress")
        return "\n".join([title, f"{status}, mistakes {self._mistakes}/{MAX_MISTAKES}", *rows])

    def __repr__(self) -> str:
        return (f"<ConnectionsGame solved {len(self._solved)}/4, mistakes {self._mistakes}/"
                f"{MAX_MISTAKES}{', won' if self.won else ', lost' if self.lost else ''}>")
