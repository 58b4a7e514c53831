"""The Puzzle game: new_game (dealt as the original game deals), swaps, the result screen, verify, grids, rendering."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_oracles import bfs_min_swaps

from flagcore import _impl, _puzzle, puzzle
from flagcore.reference import puzzle as ref

PATTERNS = {
    "distinct": lambda n: list(range(n)),
    "tricolour_rows": lambda n: [i * 3 // n for i in range(n)],
    "two_classes": lambda n: [i % 2 for i in range(n)],
    "one_odd_tile": lambda n: [0] * (n - 1) + [1],
    "four_classes": lambda n: [i % 4 for i in range(n)],
}


@pytest.fixture
def impl(twin):
    """Both twins behind the public API (conftest.use_twin)."""
    return twin


def test_grids():
    assert puzzle.GRIDS == {"easy": (3, 2), "medium": (4, 3), "hard": (5, 3)}
    for alias, name in [("regular", "easy"), ("pro", "medium"), ("elite", "hard")]:
        assert puzzle.resolve_grid(alias) == puzzle.GRIDS[name]
    assert puzzle.resolve_grid("6x4") == (6, 4)
    assert puzzle.resolve_grid((2, 5)) == (2, 5)


@pytest.mark.parametrize("grid", ["easy", "medium", "hard", "2x1", "7x5"])
@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_start_never_solved_and_par_positive(impl, grid, pattern):
    c, r = puzzle.resolve_grid(grid)
    sigs = PATTERNS[pattern](c * r)
    for seed in range(25):
        g = puzzle.new_game(sigs, grid, seed=seed)
        assert not puzzle.is_strictly_solved(g.tiles_by_slot)
        assert not g.solved
        if not g.identity_mode:
            assert not puzzle.is_visually_solved(g.tiles_by_slot, sigs)
        assert g.par >= 1
        assert g.par == puzzle.min_swaps_to_visual_solve(g.tiles_by_slot, sigs)


def test_same_seed_same_board_in_both_impls(monkeypatch):
    sigs = PATTERNS["tricolour_rows"](15)
    boards = [puzzle.new_game(sigs, "hard", seed=s).tiles_by_slot for s in range(20)]
    monkeypatch.setattr(_impl.core, "puzzle", ref)
    import flagcore.reference.rng as ref_rng

    monkeypatch.setattr("flagcore.Rng", ref_rng.Rng)
    monkeypatch.setattr("flagcore.shuffle", ref_rng.shuffle)
    assert boards == [puzzle.new_game(sigs, "hard", seed=s).tiles_by_slot for s in range(20)]
    assert (
        puzzle.new_game(sigs, "hard", seed="daily:2026-11-29").tiles_by_slot
        == puzzle.new_game(sigs, "hard", seed="daily:2026-11-29").tiles_by_slot
    )


def test_seed_none_is_recorded_and_replays():
    g = puzzle.new_game(None, "medium")
    assert isinstance(g.seed, int)
    assert puzzle.new_game(None, "medium", seed=g.seed).tiles_by_slot == g.tiles_by_slot


def test_first_board_follows_the_spec_shuffle():
    import flagcore

    rng = flagcore.Rng(42)
    want = flagcore.shuffle(list(range(15)), rng)
    while want == list(range(15)):
        want = flagcore.shuffle(list(range(15)), rng)
    assert puzzle.new_game(None, "hard", seed=42).tiles_by_slot == want


def test_identity_mode_when_all_tiles_look_alike():
    g = puzzle.new_game([3] * 6, "easy", seed=1)
    assert g.identity_mode
    assert g.par == puzzle.min_swaps_to_identity(g.tiles_by_slot) >= 1
    g2 = puzzle.new_game(None, "easy", seed=1)
    assert not g2.identity_mode and g2.signatures is None


def test_break_solved_layout_is_reached():
    # one odd tile on 2x1: every shuffle that is not the identity is [1, 0], which is not visually
    # solved; on 3x1 with [0, 0, 1] many shuffles are visually solved and need reshuffles.
    for seed in range(200):
        g = puzzle.new_game([0, 0, 0, 0, 0, 1], "3x2", seed=seed)
        assert not g.solved and g.par == 1


def test_swaps_and_result_all_distinct_overshoot_is_even():
    rng = random.Random(0)
    for seed in range(30):
        g = puzzle.new_game(None, "easy", seed=seed)
        while not g.solved:
            a, b = rng.sample(range(6), 2)
            g.swap(a, b)
        res = g.result()
        assert res.solved and res.swaps == g.swap_count >= g.par
        assert res.swaps_over_min % 2 == 0
        assert res.perfect == (res.swaps_over_min == 0)
        assert puzzle.verify(g.start, g.moves, None) == res


def test_optimal_play_is_perfect_and_matches_bfs():
    sigs = [0, 0, 1, 1, 2, 3]
    for seed in range(20):
        g = puzzle.new_game(sigs, "easy", seed=seed)
        assert g.par == bfs_min_swaps(g.tiles_by_slot, sigs)
        # play a BFS-optimal sequence: greedily take any swap that lowers par
        while not g.solved:
            cur = puzzle.min_swaps_to_visual_solve(g.tiles_by_slot, sigs)
            for a, b in itertools.combinations(range(6), 2):
                t = g.tiles_by_slot
                t[a], t[b] = t[b], t[a]
                if puzzle.min_swaps_to_visual_solve(t, sigs) == cur - 1:
                    g.swap(a, b)
                    break
        res = g.result()
        assert res.perfect and res.swaps == g.par
        assert puzzle.verify(g.start, g.moves, sigs).perfect


def test_rejected_swap_leaves_state_unchanged():
    g = puzzle.new_game(None, "easy", seed=3)
    before = (g.tiles_by_slot, g.swap_count, list(g.moves))
    for a, b, exc in [
        (0, 0, ValueError),
        (-1, 2, ValueError),
        (0, 6, ValueError),
        (1.0, 2, TypeError),
        ("1", 2, TypeError),
        (None, 1, TypeError),
        (True, 2, TypeError),
    ]:
        with pytest.raises(exc):
            g.swap(a, b)
        assert (g.tiles_by_slot, g.swap_count, list(g.moves)) == before


def test_verify_rejections():
    start = [1, 0, 2, 3]
    assert puzzle.verify(start, [(0, 1)], None).perfect
    assert puzzle.verify(start, [(0, 2), (1, 2), (0, 1), (0, 2), (1, 2)], None).swaps == 5
    with pytest.raises(ValueError, match="do not solve"):
        puzzle.verify(start, [(2, 3)], None)
    with pytest.raises(ValueError, match="outside"):
        puzzle.verify(start, [(0, 4)], None)
    with pytest.raises(ValueError, match="itself"):
        puzzle.verify(start, [(1, 1), (0, 1)], None)
    with pytest.raises(ValueError, match="already solved"):
        puzzle.verify(start, [(0, 1), (2, 3), (2, 3)], None)
    with pytest.raises(ValueError, match="already solved"):
        puzzle.verify([0, 1, 2, 3], [], None)
    with pytest.raises(ValueError, match="pair"):
        puzzle.verify(start, [(0, 1, 2)], None)
    with pytest.raises(TypeError):
        puzzle.verify(start, "01", None)
    with pytest.raises(TypeError):
        puzzle.verify(start, [(0.0, 1)], None)
    # look-alike tiles: a single swap of two slots of different colour solves it
    assert puzzle.verify([1, 2, 0, 3], [(0, 1)], [0, 1, 0, 1]).swaps == 1


def test_background_percent():
    assert puzzle.background_percent(0, 1) == "0%"
    assert puzzle.background_percent(0, 3) == "0%"
    assert puzzle.background_percent(1, 3) == "50%"
    assert puzzle.background_percent(2, 3) == "100%"
    assert puzzle.background_percent(1, 4) == "33.33333333333333%"
    assert puzzle.background_percent(2, 4) == "66.66666666666666%"
    assert puzzle.background_percent(1, 2_000_000_001) == "5.0000000000000004e-8%"  # as node prints it
    with pytest.raises(ValueError):
        puzzle.background_percent(3, 3)
    with pytest.raises(TypeError):
        puzzle.background_percent(1.0, 3)


def test_flag_code_uses_piece_signatures(monkeypatch):
    import flagcore.signatures as sig

    calls = []

    def fake(code, columns, rows):
        calls.append((code, columns, rows))
        return None if code == "XX" else [0, 0, 1, 1, 2, 2]

    monkeypatch.setattr(sig, "piece_signatures", fake)
    g = puzzle.new_game("gh", "easy", seed=1)
    assert calls[-1] == ("GH", 3, 2) and g.flag == "GH" and g.signatures == [0, 0, 1, 1, 2, 2]
    g = puzzle.new_game("XX", "easy", seed=1)
    assert g.signatures is None and not g.identity_mode


@settings(max_examples=150, deadline=None)
@given(
    st.permutations(range(6)),
    st.lists(st.tuples(st.integers(-1, 6), st.integers(-1, 6)), max_size=8),
    st.sampled_from([None, [0, 0, 1, 1, 2, 2], [0, 1, 2, 3, 4, 5]]),
)
def test_verify_reads_a_json_log_as_a_log_of_tuples(start, log, sigs):
    """A swap log straight from JSON ([a, b] lists) gets the same result, or the same error, as
    the same log of tuples, in the compiled core and in the twin."""

    def outcome(impl, moves):
        try:
            return impl.checked_verify(list(start), moves, sigs, puzzle.DEFAULT_MAX_NODES)
        except (TypeError, ValueError) as exc:
            return type(exc).__name__, str(exc)

    as_lists = [list(move) for move in log]
    for moves in (log, as_lists):  # the twins agree on each form, messages included
        assert outcome(_puzzle, moves) == outcome(ref, moves)
    # and the forms agree, but for how an error message quotes the move: [a, b] or (a, b)
    assert repr(outcome(_puzzle, as_lists)).replace("[", "(").replace("]", ")") == repr(outcome(_puzzle, log)).replace(
        "[", "("
    ).replace("]", ")")


def _fields(obj):
    """An object's attributes in order, arrays as lists (dataclass == would compare them elementwise)."""
    return [(name, value.tolist() if hasattr(value, "tolist") else value) for name, value in vars(obj).items()]


def _rebuilt(game: puzzle.PuzzleGame, seed: int) -> puzzle.PuzzleGame:
    """The game built again by PuzzleGame's own __init__ from its public fields."""
    return puzzle.PuzzleGame(
        start=game.start,
        signatures=game.signatures,
        par=game.par,
        identity_mode=game.identity_mode,
        seed=seed,
        flag=game.flag,
        grid=game.grid,
    )


@pytest.mark.parametrize(
    ("flag", "grid"),
    [
        ("FR", "hard"),
        (" fr ", "Elite"),
        ("JP", (4, 3)),
        ([0, 0, 1, 1, 2, None], "easy"),
        ([7, 7, 7, 7, 7, 7], "easy"),
        (None, "3x2"),
    ],
    ids=repr,
)
def test_new_game_builds_what_puzzle_game_builds(impl, flag, grid):
    """new_game writes the game's fields without PuzzleGame's __init__: the same fields, in the same
    order, as __init__ makes of them; the second call (from the plan the first made) the same again,
    with lists of its own."""
    game, again = puzzle.new_game(flag, grid, seed=9), puzzle.new_game(flag, grid, seed=9)
    built = _rebuilt(game, 9)
    assert _fields(game) == _fields(again) == _fields(built)
    assert game.identity_mode == (flag == [7] * 6)
    for name in ("signatures", "moves", "_tiles"):
        if getattr(game, name) is not None:
            assert getattr(game, name) is not getattr(again, name)
    game.swap(0, 1)
    assert again.tiles_by_slot == list(again.start) and again.moves == []


@pytest.mark.parametrize(("swaps", "par", "solved"), [(13, 13, True), (15, 13, True), (3, 5, False), (0, 0, False)])
def test_result_is_what_puzzle_result_builds(swaps, par, solved):
    import dataclasses

    got = puzzle._result(swaps, par, solved)
    over = max(0, swaps - par)
    want = puzzle.PuzzleResult(
        swaps=swaps, min_possible=par, swaps_over_min=over, perfect=solved and over == 0, solved=solved
    )
    assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
    assert list(vars(got).items()) == list(vars(want).items())
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.swaps = 1  # type: ignore[misc]


def test_new_game_plans_are_bounded(impl, monkeypatch):
    monkeypatch.setattr(puzzle, "MAX_PLANS", 3)
    for text in ("FR", "fr", " FR", "FR ", "Fr"):
        assert puzzle.new_game(text, "easy", seed=4).start == puzzle.new_game("FR", (3, 2), seed=4).start
        assert len(puzzle._plans) <= 3


def test_games_compare_by_their_fields_not_their_class_arrays():
    """Two games of the same deal whose dense classes are different array objects are equal (the
    classes are derived from the signatures, so they are not compared); a swap makes them differ."""
    a = puzzle.PuzzleGame(start=(2, 1, 0, 3), signatures=[4, 4, 5, 6], par=1, identity_mode=False, grid=(2, 2))
    b = puzzle.PuzzleGame(start=(2, 1, 0, 3), signatures=[4, 4, 5, 6], par=1, identity_mode=False, grid=(2, 2))
    assert a._classes is not b._classes
    assert a == b
    game = puzzle.new_game("FR", "hard", seed=5)
    assert game == _rebuilt(game, 5)
    b.swap(0, 2)
    assert a != b
