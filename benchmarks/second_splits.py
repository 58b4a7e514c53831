"""How often a board's sixteen tiles split into four fours in a second way.

    python benchmarks/second_splits.py [BOARDS]

The fixed search guarantees that no tile fits two groups of the board, so a careful player checks
a candidate split: every answer's label fits exactly its four tiles. A decoy of four that leaves
the other twelve without such a split gives itself away (the blind play-tests, README). A board
whose tiles also split completely by categories *not* on the board (off-board fours only, or mixed
with some of the real groups) holds a red herring that survives that check. This counts such
boards per mode and difficulty (seeds 0..BOARDS-1): a measurement for the design question of
whether hard boards should look for them, not something the engine steers toward.
"""

from __future__ import annotations

import itertools
import sys

from flagcore.connections import Board, board_difficulty, generate

FULL = (1 << 16) - 1


def second_splits(board: Board) -> tuple[bool, bool]:
    """(a second split by off-board fours alone exists, one exists with some real groups in it)."""
    where = {code: i for i, code in enumerate(board.tiles)}
    real = {sum(1 << where[c] for c in g.codes) for g in board.groups}
    fours = {sum(1 << where[c] for c in p.codes) for p in board_difficulty(board).phantoms if len(p.codes) == 4}
    off_only = mixed = False
    for combo in itertools.combinations(sorted(fours | real), 4):
        if sum(combo) == FULL and (combo[0] | combo[1] | combo[2] | combo[3]) == FULL:  # disjoint, all 16
            kept = sum(1 for m in combo if m in real)
            if kept < 4:
                mixed = True
                off_only = off_only or kept == 0
    return off_only, mixed


def main(boards: int) -> None:
    for mode in ("flags", "trivia"):
        for difficulty in (None, "normal", "hard"):
            found = [second_splits(generate(seed, mode, difficulty=difficulty)) for seed in range(boards)]
            off_only = sum(f[0] for f in found)
            mixed = sum(f[1] for f in found)
            print(
                f"{mode:<6} {difficulty or 'none':<6} boards {boards}: a second split by off-board fours only "
                f"{off_only} ({100 * off_only / boards:.1f}%), any second split {mixed} ({100 * mixed / boards:.1f}%)"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
