"""How often a board's sixteen tiles split into four fours a second way (issue 31).

    python benchmarks/second_splits.py [BOARDS] [--legacy] [--daily YEAR ...]

A *four* of a category is four tiles of the board that all fit it (certainly or arguably) and hold
every tile that certainly fits it: under some reading of the data its label names exactly those
four. A board has a second split when four disjoint fours of four distinct categories, not all of
them its own groups, hold its sixteen tiles (``flagcore.connections.find_second_split``). Every
play-tester who met one called it a true second answer; the fixed search draws a board's tiles
again until it has none, so the figures for generate are zeros. ``--legacy`` counts the spec's
generator, for comparison; ``--daily`` counts the scheduled dailies of the given years.

Per mode and difficulty (seeds 0..BOARDS-1): boards with a second split, and of them those whose
split keeps none of the board's groups (off-board labels only).
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Iterator

from flagcore.connections import Board, daily, find_second_split, generate


def split_kind(board: Board) -> tuple[bool, bool]:
    """(a second split exists, one exists that keeps none of the board's groups: the first found)."""
    split = find_second_split(board)
    if split is None:
        return False, False
    groups = {frozenset(g.codes) for g in board.groups}
    return True, not any(frozenset(f.codes) in groups for f in split)


def report(name: str, boards: list[Board]) -> None:
    found = [split_kind(b) for b in boards]
    any_split = sum(f[0] for f in found)
    off_only = sum(f[1] for f in found)
    n = len(boards)
    print(
        f"{name:<28} boards {n}: a second split {any_split} ({100 * any_split / n:.2f}%), "
        f"by off-board labels only {off_only} ({100 * off_only / n:.2f}%)"
    )


def board_sets(boards: int, legacy: bool, days: list[tuple[dt.date, int]]) -> Iterator[tuple[str, list[Board]]]:
    """(name, boards) per mode: seeds 0..boards-1 at every difficulty (and legacy when asked), then
    the scheduled dailies of each (first day, days) span; benchmarks/decoy_fours.py reads the same."""
    for mode in ("flags", "trivia"):
        for difficulty in (None, "easy", "normal", "hard"):
            name = f"{mode} {difficulty or 'search alone'}"
            yield name, [generate(s, mode, difficulty=difficulty) for s in range(boards)]
        if legacy:
            yield f"{mode} legacy", [generate(s, mode, legacy=True) for s in range(boards)]
        for start, n in days:
            yield f"{mode} daily {start}+{n}", [daily(start + dt.timedelta(i), mode) for i in range(n)]


def year_span(year: int) -> tuple[dt.date, int]:
    """(1 January, the year's days)."""
    start = dt.date(year, 1, 1)
    return start, (dt.date(year + 1, 1, 1) - start).days


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("boards", nargs="?", type=int, default=2000)
    ap.add_argument("--legacy", action="store_true", help="also the spec's generator (legacy=True)")
    ap.add_argument("--daily", type=int, nargs="*", default=[], metavar="YEAR", help="the scheduled dailies of YEAR")
    args = ap.parse_args()
    for name, boards in board_sets(args.boards, args.legacy, [year_span(y) for y in args.daily]):
        report(name, boards)


if __name__ == "__main__":
    main()
