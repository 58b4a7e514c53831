"""Tens of thousands of games (Connections and Puzzle) in one process do not grow its memory (issue 7, "Memory").

A child process warms up (imports, caches, the bundled library, pymalloc arenas), reads its
resident set size from /proc/self/statm, plays tens of thousands more games and batches
through every compiled path (including the error paths, where a missed DECREF or free would
leak per call), and reads it again. The growth must stay under a small bound: a leak of even
one 64-byte board per game would show as megabytes. This is a result assertion on memory; it
times nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from twin_sizes import sized

# Under FLAGCORE_IMPL=python the child plays the pure-Python twin (no C reference counting to get
# wrong); a tenth of the games still shows a leak of a Board's size (about 1.4 KB) per game.
GAMES = int(os.environ.get("FLAGCORE_MEMORY_GAMES", str(sized(30000, 3000))))
WARM_UP = sized(3000, 300)
GROWTH_LIMIT_KB = 4096


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _round(start: int, count: int) -> None:
    import numpy as np

    import flagcore
    from flagcore import connections, puzzle, signatures

    image = _round.image  # type: ignore[attr-defined]
    for seed in range(start, start + count):
        board = connections.generate(seed, "trivia" if seed % 3 == 0 else "flags", legacy=seed % 7 == 0)
        game = connections.ConnectionsGame(board)
        wrong = [g.codes[0] for g in board.groups]
        game.guess(wrong)
        game.guess(wrong)  # already_tried
        for group in board.groups:
            if not game.over:
                game.guess(group.codes)
        game.share()
        pz = puzzle.new_game(("FR", "US", None)[seed % 3], ("easy", "hard")[seed % 2], seed=seed)
        start = pz.tiles_by_slot
        for slot in range(len(start)):
            here = pz.tiles_by_slot.index(slot)
            if here != slot and not pz.solved:
                pz.swap(slot, here)
        puzzle.verify(start, pz.moves, pz.signatures)
        if seed % 10 == 0:
            connections.from_board_id(connections.board_id(board))
            flagcore.shuffle(board.tiles, flagcore.Rng(seed))
            signatures.tile_signatures(image, 5, 3)
            signatures.hash_pixel_data(image, 8)
            signatures.piece_signatures("FR", 4, 3)
            for bad in (
                lambda: connections.generate(-1),
                lambda: game.guess(["ZZ"] * 4),
                lambda: signatures.tile_signatures(image, 0, 3),
                lambda: signatures.hash_pixel_data(image.astype(float)),
                lambda: flagcore.Rng(seed).below(0),
                lambda: puzzle.count_cycles([0, 0]),
                lambda: pz.swap(0, 0),
                lambda: puzzle.verify(start, [(0, 99)], None),
            ):
                try:
                    bad()
                except (TypeError, ValueError):
                    pass
        if seed % 1000 == 0:
            batch = connections.generate_many(range(seed, seed + 1000), threads=2)
            batch[0], batch[999]
            boards = np.array([np.roll(np.arange(15), k) for k in range(1, 200)])
            puzzle.min_swaps_batch(boards, puzzle.new_game("US", "hard", seed=1).signatures)


def _child() -> None:
    import gc

    import numpy as np

    from flagcore import signatures

    globals()["np"] = np
    _round.image = signatures.render_flag("KI", 5)  # type: ignore[attr-defined]
    _round(10**6, WARM_UP)
    gc.collect()
    before = _rss_kb()
    _round(0, GAMES)
    gc.collect()
    after = _rss_kb()
    print(json.dumps({"games": GAMES, "before_kb": before, "after_kb": after, "growth_kb": after - before}))


@pytest.mark.slow
def test_thirty_thousand_games_do_not_grow_memory():
    env = dict(os.environ)
    # the child imports the shared helpers in tests/ (twin_sizes), which is not the script's folder
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH")]))
    if "libasan" in env.get("LD_PRELOAD", ""):
        # AddressSanitizer parks freed blocks in a quarantine (256 MB by default) that would read
        # as growth; without it freed memory is reused as in a normal build.
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
    proc = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True, timeout=1200, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.splitlines()[-1])
    print(result)
    assert result["growth_kb"] < GROWTH_LIMIT_KB, result


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child()
