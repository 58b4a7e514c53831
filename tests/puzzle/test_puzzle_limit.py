"""The exact par's node budget: ParSearchLimit instead of a silent bound, the same node in both twins.

No test here measures time: the budget is a count of search nodes, identical in the compiled core
and the reference, so a test can say exactly where the search must stop.
"""

import pickle
import random

import numpy as np
import pytest
from twin_sizes import sized

from flagcore import _impl, puzzle
from flagcore import _puzzle as core
from flagcore._args.puzzle import as_classes
from flagcore.reference import puzzle as ref
from flagcore.signatures import bundled_codes, piece_signatures


def _board(sizes, seed):
    rng = random.Random(seed)
    sigs = [c for c, size in enumerate(sizes) for _ in range(size)]
    rng.shuffle(sigs)
    tiles = list(range(len(sigs)))
    rng.shuffle(tiles)
    return np.array(tiles, dtype=np.int32), sigs


def _branching_boards():
    """Boards whose search branches (a node count above 1), small enough for the reference."""
    out = []
    for seed in range(80):
        sizes = [(2,) * 32, (3,) * 16, (2,) * 48, (4,) * 20][seed % 4]
        tiles, sigs = _board(sizes, seed)
        cls, k = as_classes(sigs, len(sigs))
        par, nodes = core.exact_search_nodes(tiles, cls, k)
        if nodes > 1:
            out.append((tiles, sigs, cls, k, par, nodes))
    assert len(out) >= 10
    return out


BRANCHING = _branching_boards()


def test_node_counts_equal_in_both_twins():
    for tiles, _, cls, k, par, nodes in BRANCHING:
        assert ref.exact_search_nodes(tiles, cls, k) == (par, nodes)
    rng = random.Random(11)
    for _ in range(200):
        n, k = rng.randint(2, 30), rng.randint(1, 12)
        sigs = [rng.randrange(k) for _ in range(n)]
        tiles = list(range(n))
        rng.shuffle(tiles)
        cls, kk = as_classes(sigs, n)
        arr = np.array(tiles, dtype=np.int32)
        assert core.exact_search_nodes(arr, cls, kk) == ref.exact_search_nodes(arr, cls, kk)


def test_both_twins_stop_at_the_same_node():
    for tiles, _, cls, k, par, nodes in BRANCHING[:8]:
        for budget in sorted({1, 2, nodes // 2, nodes - 1, nodes, nodes + 1} - {0}):
            outcomes = []
            for impl in (core, ref):
                try:
                    outcomes.append(impl.min_swaps_exact(tiles, cls, k, budget))
                except puzzle.ParSearchLimit as e:
                    outcomes.append(("limit", e.n, e.k, e.max_nodes))
            assert outcomes[0] == outcomes[1], (budget, nodes, outcomes)
            if budget < nodes:
                assert outcomes[0] == ("limit", len(tiles), k, budget)
            else:
                assert outcomes[0] == par


def test_every_budget_agrees_on_one_board():
    tiles, _, cls, k, par, nodes = max((b for b in BRANCHING if b[5] <= 40), key=lambda b: b[5])
    for budget in range(1, nodes + 2):
        got = []
        for impl in (core, ref):
            try:
                got.append(impl.min_swaps_exact(tiles, cls, k, budget))
            except puzzle.ParSearchLimit:
                got.append(None)
        assert got[0] == got[1] == (None if budget < nodes else par)


@pytest.mark.parametrize("impl", ["core", "ref"])
def test_public_api_raises_never_returns_a_bound(impl, monkeypatch):
    if impl == "ref":
        monkeypatch.setattr(_impl.core, "puzzle", ref)
    tiles, sigs, _, k, par, nodes = BRANCHING[0]
    with pytest.raises(puzzle.ParSearchLimit) as info:
        puzzle.min_swaps_to_visual_solve(tiles, sigs, max_nodes=nodes - 1)
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert f"{len(tiles)} tiles" in msg and f"{k} tile classes" in msg
    assert f"max_nodes={nodes - 1}" in msg and "max_nodes=None" in msg
    assert puzzle.min_swaps_to_visual_solve(tiles, sigs, max_nodes=nodes) == par
    assert puzzle.min_swaps_to_visual_solve(tiles, sigs, max_nodes=None) == par
    assert puzzle.min_swaps_to_visual_solve(tiles, sigs) == par  # far inside the default
    # batch: the budget is per board, the error names the first row past it
    easy = np.arange(len(tiles), dtype=np.int32)[::-1].copy()
    rows = np.array([easy, tiles, tiles])
    with pytest.raises(puzzle.ParSearchLimit, match=r"^boards\[1\]: ") as binfo:
        puzzle.min_swaps_batch(rows, sigs, max_nodes=nodes - 1)
    assert binfo.value.row == 1
    want = [puzzle.min_swaps_to_visual_solve(easy, sigs), par, par]
    assert puzzle.min_swaps_batch(rows, sigs, max_nodes=nodes).tolist() == want
    assert puzzle.min_swaps_batch(rows, sigs, max_nodes=None).tolist() == want
    # the spec's enumeration has no search to limit
    assert puzzle.min_swaps_to_visual_solve(tiles, sigs, method="enumerate", max_nodes=1) >= par


@pytest.mark.parametrize("impl", ["core", "ref"])
def test_new_game_and_verify_fail_cleanly(impl, monkeypatch):
    if impl == "ref":
        monkeypatch.setattr(_impl.core, "puzzle", ref)
    sigs = [i // 2 for i in range(64)]  # 32 classes of 2 on an 8x8 grid
    game = None
    for seed in range(50):
        try:
            puzzle.new_game(sigs, (8, 8), seed=seed, max_nodes=1)
        except puzzle.ParSearchLimit:
            game = puzzle.new_game(sigs, (8, 8), seed=seed, max_nodes=None)
            break
    assert game is not None, "no seed gave a branching board"
    tiles = game.tiles_by_slot
    moves = []
    while tiles != sorted(tiles):
        slot = next(i for i, t in enumerate(tiles) if t != i)
        other = tiles.index(slot)
        tiles[slot], tiles[other] = tiles[other], tiles[slot]
        moves.append((slot, other))
        if puzzle.is_visually_solved(tiles, sigs):
            break
    with pytest.raises(puzzle.ParSearchLimit):
        puzzle.verify(game.start, moves, sigs, max_nodes=1)
    assert puzzle.verify(game.start, moves, sigs).min_possible == game.par


def test_adversarial_board_stops_under_the_default():
    """128 classes of 2 on 256 tiles (a 16x16 grid): a long search unlimited; the default stops it.

    Under FLAGCORE_IMPL=python each call runs the twin to its budget (about 25 s at the default):
    the batch and verify calls then stop at an eighth of it, which the twins count alike
    (test_both_twins_stop_at_the_same_node).
    """
    tiles, sigs = _board((2,) * 128, 7)
    with pytest.raises(puzzle.ParSearchLimit, match="256 tiles, 128 tile classes"):
        puzzle.min_swaps_to_visual_solve(tiles, sigs)
    budget = sized(puzzle.DEFAULT_MAX_NODES, puzzle.DEFAULT_MAX_NODES // 8)
    with pytest.raises(puzzle.ParSearchLimit, match="boards\\[0\\]"):
        puzzle.min_swaps_batch(np.array([tiles]), sigs, max_nodes=budget)
    home = list(tiles)
    moves = []
    for slot in range(len(home)):  # a log that solves the board: put every piece home
        if home[slot] != slot:
            other = home.index(slot)
            home[slot], home[other] = home[other], home[slot]
            moves.append((slot, other))
            if puzzle.is_visually_solved(home, sigs):
                break
    with pytest.raises(puzzle.ParSearchLimit):
        puzzle.verify(tiles, moves, sigs, max_nodes=budget)


@pytest.mark.parametrize("grid", sorted(puzzle.GRIDS))
def test_default_budget_is_far_from_every_bundled_flag(grid):
    """Every bundled flag on the shipped grids: 40 random boards each need a tiny part of it."""
    columns, rows = puzzle.GRIDS[grid]
    n = columns * rows
    rng = random.Random(grid)
    worst = 0
    for code in bundled_codes():
        sigs = piece_signatures(code, columns, rows)
        if sigs is None:
            continue
        cls, k = as_classes([int(s) for s in sigs], n)
        for _ in range(40):
            tiles = list(range(n))
            rng.shuffle(tiles)
            arr = np.array(tiles, dtype=np.int32)
            par, nodes = core.exact_search_nodes(arr, cls, k)
            worst = max(worst, nodes)
            assert puzzle.min_swaps_to_visual_solve(arr, sigs) == par
    assert worst * 100 <= puzzle.DEFAULT_MAX_NODES


@pytest.mark.parametrize(
    "bad, exc",
    [
        (0, ValueError),
        (-5, ValueError),
        (1.5, TypeError),
        (True, TypeError),
        ("100", TypeError),
        (np.float64(3), TypeError),
    ],
)
def test_bad_max_nodes(bad, exc):
    tiles, sigs = _board((2, 2, 2), 1)
    with pytest.raises(exc, match="max_nodes"):
        puzzle.min_swaps_to_visual_solve(tiles, sigs, max_nodes=bad)
    with pytest.raises(exc, match="max_nodes"):
        puzzle.min_swaps_batch(np.array([tiles]), sigs, max_nodes=bad)
    with pytest.raises(exc, match="max_nodes"):
        puzzle.new_game(sigs, (3, 2), seed=1, max_nodes=bad)
    with pytest.raises(exc, match="max_nodes"):
        puzzle.verify(tiles, [], sigs, max_nodes=bad)


def test_limit_error_pickles():
    e = puzzle.ParSearchLimit(128, 64, 500, row=3)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is puzzle.ParSearchLimit and str(back) == str(e) and back.row == 3
    assert np.int64(7) and puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], max_nodes=np.int64(7)) == 1
