"""Grading one Connections guess: the spec's checkGuess, with its inputs validated.

The loop is the spec's own: walk the groups in order, return "correct" on a group holding all
four selected tiles and "one_away" on a group holding three. Groups on a board are disjoint, so
at most one group can hold three or more of four selected tiles and the order never matters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .._args.connections import ITEMS_PER_CATEGORY, as_groups, as_selection
from .board import Group

__all__ = ["ITEMS_PER_CATEGORY", "RESULTS", "GuessResult", "check_guess", "grade"]
RESULTS = ("correct", "one_away", "wrong")


@dataclass(frozen=True)
class GuessResult:
    """``result`` is "correct", "one_away" or "wrong"; ``matched`` is the group when correct."""

    result: str
    matched: Group | None = None


def check_guess(groups: Sequence[Group], selected: Iterable[str]) -> GuessResult:
    """Grade four selected codes against the board's groups, exactly as the spec's checkGuess.

    Args:
        groups: the board's groups (``board.groups``), four codes each.
        selected: four distinct country codes, in any order.

    Returns:
        A GuessResult: "correct" with the matched group, "one_away" or "wrong".

    Raises:
        ArgumentError: not exactly four codes, a repeated code, or a group without four codes.
        ArgumentTypeError: groups that are not Group objects, or a selection that is not a list
            of str codes.
    """
    checked_groups = as_groups(groups, Group)
    codes = as_selection(selected)
    return grade(checked_groups, [frozenset(g.codes) for g in checked_groups], codes)


_ONE_AWAY = GuessResult("one_away", None)
_WRONG = GuessResult("wrong", None)


def grade(groups: Sequence[Group], code_sets: Sequence[frozenset[str]], codes: Sequence[str]) -> GuessResult:
    """The checkGuess loop on checked input: ``code_sets[i]`` is the set of ``groups[i].codes``
    (a game builds them once per board), ``codes`` four distinct codes."""
    for group, category_set in zip(groups, code_sets):
        hits = len([code for code in codes if code in category_set])
        if hits == ITEMS_PER_CATEGORY:
            return GuessResult("correct", group)
        if hits == ITEMS_PER_CATEGORY - 1:
            return _ONE_AWAY  # results are frozen: one shared instance per outcome
    return _WRONG
