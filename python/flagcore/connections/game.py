"""One player's Connections game on a Board: guesses, mistakes, the end, sharing.

Rules (as in the original game): MAX_MISTAKES is 4; a "one_away" counts as a mistake; resubmitting a
set that already failed is refused as "already_tried" without costing anything (the set is
compared as a set, so the order of the codes does not matter); the player wins with all four
groups solved and fewer than four mistakes. Guesses after the end are refused. Every check runs
before any state changes, so a rejected guess leaves the game exactly as it was.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType

from .._args.connections import (
    ITEMS_PER_CATEGORY,
    as_instance,
    as_selection,
    check_board_shape,
    check_game_open,
    check_groups_cover,
    check_playable,
    rng_error,
)
from .._impl import core
from .board import Board, Group, board_id, frozen_from_fields
from .grading import RESULTS

MAX_MISTAKES = 4
TIER_SQUARES = ("\U0001f7e8", "\U0001f7e9", "\U0001f7e6", "\U0001f7ea")  # yellow green blue purple


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
        """True when this guess ended the game (won or lost)."""
        return self.won or self.lost


def _rng_module(rng: object) -> ModuleType | None:
    # The module whose Rng class ``rng`` is (the compiled one or the reference twin's, whichever the
    # caller built): that module's shuffle drives it. Neither twin is imported here.
    module = sys.modules.get(type(rng).__module__)
    if module is not None and getattr(module, "Rng", None) is type(rng) and hasattr(module, "shuffle"):
        return module
    return None


# Grading in a few integer operations. Code i of the board's groups (tier order, four per group)
# gets the value 1 << (12 + i) | 1 << (3 * group): the values of four codes add up to their places
# above bit 12 (four bits set iff the codes are distinct: a repeated place carries) and, below, how
# many of the four fall in each group, 3 bits per group. The spec's checkGuess loop (grading.grade)
# on disjoint groups depends only on those counts, so every possible sum has its verdict in a table.
# Every value stays below 2**30, CPython's one-digit ints, the cheap ones.
_COUNT_BITS = 12
_VALUES = tuple(1 << (_COUNT_BITS + i) | 1 << (3 * (i // ITEMS_PER_CATEGORY)) for i in range(4 * ITEMS_PER_CATEGORY))
_COUNTS = (1 << _COUNT_BITS) - 1


def _verdicts() -> dict[int, tuple[str, int]]:
    table = {}
    for picked in itertools.combinations_with_replacement(range(4), ITEMS_PER_CATEGORY):
        best = max(picked.count(g) for g in range(4))
        result = (
            RESULTS[0] if best == ITEMS_PER_CATEGORY else RESULTS[1] if best == ITEMS_PER_CATEGORY - 1 else RESULTS[2]
        )
        table[sum(1 << (3 * g) for g in picked)] = (result, picked[0] if best == ITEMS_PER_CATEGORY else -1)
    return table


_VERDICTS = _verdicts()  # packed group counts -> (result, index of the matched group or -1)


def _board_values(board: object) -> dict[str, int]:
    """Check a board and return each code's grading value (see _VALUES)."""
    # A game is made per request on a server: the checks here are the cheap form of the rules in
    # _args.connections, which are called only to raise the precise error.
    checked: Board = (
        board if isinstance(board, Board) else as_instance(board, Board, "board", "a flagcore.connections.Board")
    )
    tiles = checked.tiles
    tile_set = set(tiles)
    ok = len(tiles) == 4 * ITEMS_PER_CATEGORY == len(tile_set) and len(checked.groups) == 4
    grouped: list[str] = []
    for group in checked.groups:
        if not isinstance(group, Group) or len(group.codes) != ITEMS_PER_CATEGORY:
            ok = False
            break
        grouped.extend(group.codes)
    if not ok:
        check_board_shape(checked, Group)
    values = dict(zip(grouped, _VALUES))
    if len(values) != len(grouped) or values.keys() != tile_set:
        check_groups_cover(False)
    return values


class ConnectionsGame:
    """A game in progress. ``guess(codes)`` grades four tiles and updates the state."""

    def __init__(self, board: Board) -> None:
        self._values = _board_values(board)  # code -> its grading value
        self.board = board
        self._groups = board.groups
        self._order: list[str] = list(board.tiles)  # display order; solved tiles leave it lazily
        self._solved: list[Group] = []
        self._solved_places = 0  # the places (as in _VALUES, shifted down) of the solved tiles
        self._mistakes = 0
        self._over = False
        self._failed: set[int] = set()  # the places of every failed guess: order never matters
        self._history: list[tuple[str, ...]] = []

    @property
    def mistakes(self) -> int:
        """Mistakes made so far ("wrong" and "one_away" guesses; "already_tried" costs nothing)."""
        return self._mistakes

    @property
    def mistakes_left(self) -> int:
        """Mistakes still allowed before the game is lost (MAX_MISTAKES minus mistakes)."""
        return MAX_MISTAKES - self._mistakes

    @property
    def won(self) -> bool:
        """True when all four groups are found with fewer than MAX_MISTAKES mistakes."""
        return len(self._solved) == len(self._groups) and self._mistakes < MAX_MISTAKES

    @property
    def lost(self) -> bool:
        """True once MAX_MISTAKES mistakes have been made."""
        return self._mistakes >= MAX_MISTAKES

    @property
    def over(self) -> bool:
        """True once the game has ended, won or lost: ``guess`` then raises."""
        return self._over

    @property
    def solved_groups(self) -> tuple[Group, ...]:
        """The groups found so far, in the order they were solved."""
        return tuple(self._solved)

    @property
    def remaining_tiles(self) -> tuple[str, ...]:
        """The unsolved tiles in their current display order."""
        return tuple(self._remaining())

    @property
    def guesses(self) -> tuple[tuple[str, ...], ...]:
        """Every graded guess in order (already_tried and rejected guesses are not graded)."""
        return tuple(self._history)

    def _remaining(self) -> list[str]:
        if self._solved_places:
            values, solved = self._values, self._solved_places << _COUNT_BITS
            self._order = [c for c in self._order if not values[c] & solved]
        return self._order

    def guess(self, codes: Iterable[str]) -> GuessOutcome:
        """Grade four tile codes (any order) and update the game; return what happened.

        Args:
            codes: four distinct codes of unsolved tiles on this board.

        Returns:
            A GuessOutcome: the result, the group solved if any, and whether the game is over.

        Raises:
            ArgumentError: not four distinct codes, a code not on the board or already solved, or
                a guess after the game ended. The game is left unchanged.
            ArgumentTypeError: codes that are not a list of str.
        """
        if self._over:
            check_game_open(True, self.won)
        values = self._values
        try:
            # what clients send: a list or tuple of four codes on the board
            if type(codes) is list:
                selected = tuple(codes)
            elif type(codes) is tuple:
                selected = codes
            else:
                raise KeyError
            a, b, c, d = selected
            total = values[a] + values[b] + values[c] + values[d]
            places = total >> _COUNT_BITS
            if places.bit_count() != ITEMS_PER_CATEGORY or places & self._solved_places:
                raise KeyError  # a repeated or solved code: the checks below name it
        except (KeyError, TypeError, ValueError):
            selected, total = self._checked(codes)
            places = total >> _COUNT_BITS
        if places in self._failed:
            return self._outcome("already_tried", None)
        result, g = _VERDICTS[total & _COUNTS]
        self._history.append(selected)
        if g < 0:
            matched = None
            self._mistakes += 1
            self._failed.add(places)
            self._over = self._mistakes >= MAX_MISTAKES
        else:
            matched = self._groups[g]
            self._solved.append(matched)
            self._solved_places |= places
            self._over = len(self._solved) == len(self._groups)
        return self._outcome(result, matched)

    def _checked(self, codes: object) -> tuple[tuple[str, ...], int]:
        """(the four codes, the sum of their values), or the error that names what is wrong."""
        selected = as_selection(codes, "codes")
        values = self._values
        solved = self._solved_places << _COUNT_BITS
        unknown = [c for c in selected if c not in values]
        repeated = [] if unknown else [c for c in selected if values[c] & solved]
        if unknown or repeated:
            check_playable(unknown, repeated)
        return selected, sum(values[c] for c in selected)

    def _outcome(self, result: str, matched: Group | None) -> GuessOutcome:
        mistakes = self._mistakes
        return frozen_from_fields(
            GuessOutcome,
            {
                "result": result,
                "matched": matched,
                "mistakes": mistakes,
                "mistakes_left": MAX_MISTAKES - mistakes,
                "won": len(self._solved) == len(self._groups) and mistakes < MAX_MISTAKES,
                "lost": mistakes >= MAX_MISTAKES,
            },
        )

    def copy(self) -> ConnectionsGame:
        """An independent game in the same state, without checking the board again.

        What a server keeps per board: one new game, copied for each request (about a third of
        the cost of ``ConnectionsGame(board)``, which checks the board). A guess on either game
        never changes the other.
        """
        twin = object.__new__(ConnectionsGame)
        state = twin.__dict__
        state.update(self.__dict__)  # the board, its groups and grading table are shared: read only
        state.update(
            _order=list(self._order),
            _solved=list(self._solved),
            _failed=set(self._failed),
            _history=list(self._history),
        )
        return twin

    def shuffle_remaining(self, rng: object) -> tuple[str, ...]:
        """Shuffle the unsolved tiles with ``rng`` (a flagcore.Rng, or a seed for a new one).

        Uses the spec's Fisher-Yates (flagcore.shuffle), so a client running mulberry32 with
        the same state sees the same order. Returns the new order.
        """
        if isinstance(rng, (int, str)) and not isinstance(rng, bool):
            self._order = core.rng.shuffle(self._remaining(), core.rng.Rng(rng))
            return tuple(self._order)
        module = _rng_module(rng)
        if module is not None:
            self._order = module.shuffle(self._remaining(), rng)
            return tuple(self._order)
        raise rng_error(rng)  # neither kind of rng: the message lives with the other rules

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
        return (
            f"<ConnectionsGame solved {len(self._solved)}/4, mistakes {self._mistakes}/"
            f"{MAX_MISTAKES}{', won' if self.won else ', lost' if self.lost else ''}>"
        )
