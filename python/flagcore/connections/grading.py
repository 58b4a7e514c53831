"""Grading one Connections guess: the spec's checkGuess, with its inputs validated.

The loop is the spec's own: walk the groups in order, return "correct" on a group holding all
four selected tiles and "one_away" on a group holding three. Groups on a board are disjoint, so
at most one group can hold three or more of four selected tiles and the order never matters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .board import Group

ITEMS_PER_CATEGORY = 4
RESULTS = ("correct", "one_away", "wrong")


@dataclass(frozen=True)
class GuessResult:
    """``result`` is "correct", "one_away" or "wrong"; ``matched`` is the group when correct."""

    result: str
    matched: Group | None = None


def validate_selection(selected: object, name: str = "selected") -> tuple[str, ...]:
    """Return ``selected`` as a tuple of 4 distinct codes, or raise TypeError/ValueError naming it.

    Shared by check_guess and ConnectionsGame.guess so both reject the same inputs the same way.
    """
    if type(selected) is list or type(selected) is tuple:  # what clients send: skip the type probes
        codes = tuple(selected)
    else:
        if selected is None or isinstance(selected, (str, bytes, bytearray)) or not isinstance(selected, Iterable):
            raise TypeError(
                f"{name} must be a list of {ITEMS_PER_CATEGORY} country codes, not {type(selected).__name__}"
            )
        if isinstance(selected, dict):
            raise TypeError(f"{name} must be a list of {ITEMS_PER_CATEGORY} country codes, not dict")
        codes = tuple(selected)
    for code in codes:
        if not isinstance(code, str):
            raise TypeError(f"{name} must hold country codes (str), found {type(code).__name__} {code!r}")
    if len(codes) != ITEMS_PER_CATEGORY:
        raise ValueError(f"{name} must hold exactly {ITEMS_PER_CATEGORY} codes, got {len(codes)}")
    if len(set(codes)) != len(codes):
        dupes = sorted({c for c in codes if codes.count(c) > 1})
        raise ValueError(f"{name} must hold {ITEMS_PER_CATEGORY} distinct codes, repeated: {dupes}")
    return codes


def _validate_groups(groups: object) -> tuple[Group, ...]:
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Iterable):
        raise TypeError(f"groups must be a sequence of Group, not {type(groups).__name__}")
    out = tuple(groups)
    for g in out:
        if not isinstance(g, Group):
            raise TypeError(f"groups must hold Group objects, found {type(g).__name__}")
        if len(g.codes) != ITEMS_PER_CATEGORY:
            raise ValueError(f"groups: group {g.label!r} has {len(g.codes)} codes, needs {ITEMS_PER_CATEGORY}")
    return out


def check_guess(groups: Sequence[Group], selected: Iterable[str]) -> GuessResult:
    """Grade four selected codes against the board's groups, exactly as the spec's checkGuess."""
    checked_groups = _validate_groups(groups)
    codes = validate_selection(selected)
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
