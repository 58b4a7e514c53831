"""The Puzzle's and the commands' argument rules in flagcore._args: the public call and the rule raise alike."""

import numpy as np
import pytest

from flagcore import puzzle
from flagcore._args import common
from flagcore._args import puzzle as rules
from flagcore.cli import main


def _error(call):
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("grid", ["huge", "0x3", "1x1", "33x2", (3, 2.0), (True, 2), None, 6, [1, 2, 3]])
def test_grid_rule_is_what_resolve_grid_and_new_game_raise(twin, grid):
    expected = _error(lambda: rules.as_grid(grid))
    assert _error(lambda: puzzle.resolve_grid(grid)) == expected
    assert _error(lambda: puzzle.new_game(None, grid, seed=1)) == expected


# new_game's plans: each flag and grid below is dealt once (its plan kept) before the bad input, which
# must still get the rule's error (a plan is keyed on the exact text, so (5.0, 3) finds none).
PLANNED = [("FR", "hard"), ("fr", "easy"), (" GB-eng ", "Elite"), ("FR", "4x3"), ("FR", (5, 3))]


PLAN_BREAKERS = [
    ({"seed": -1}, lambda: common.as_seed(-1)),
    ({"seed": 2**32}, lambda: common.as_seed(2**32)),
    ({"seed": 1.5}, lambda: common.as_seed(1.5)),
    ({"seed": True}, lambda: common.as_seed(True)),
    ({"max_nodes": 0}, lambda: rules.as_max_nodes(0)),
    ({"max_nodes": True}, lambda: rules.as_max_nodes(True)),
    ({"max_nodes": 2.0}, lambda: rules.as_max_nodes(2.0)),
    ({"grid": "huge"}, lambda: rules.as_grid("huge")),
    ({"grid": (5.0, 3)}, lambda: rules.as_grid((5.0, 3))),
    ({"grid": (True, 3)}, lambda: rules.as_grid((True, 3))),
    ({"grid": (0, 3)}, lambda: rules.as_grid((0, 3))),
    ({"grid": (5, 3, 1)}, lambda: rules.as_grid((5, 3, 1))),
    ({"flag": "France"}, lambda: common.as_flag_code("France", "flag")),
    ({"flag": b"FR"}, lambda: rules.as_grid_signatures(b"FR", 5, 3)),
    ({"flag": "fr", "grid": "Hard", "seed": "x", "max_nodes": -1}, lambda: rules.as_max_nodes(-1)),
]


@pytest.mark.parametrize(("kwargs", "rule"), PLAN_BREAKERS, ids=[repr(kwargs) for kwargs, _ in PLAN_BREAKERS])
def test_new_game_plans_keep_every_check(twin, kwargs, rule):
    for flag, grid in PLANNED:
        puzzle.new_game(flag, grid, seed=1)
        puzzle.new_game(flag, grid, seed=2)  # from the plan
    call = {"flag": "FR", "grid": "hard", "seed": 3, **kwargs}
    expected = _error(rule)
    max_nodes = call.get("max_nodes", puzzle.DEFAULT_MAX_NODES)
    assert _error(lambda: puzzle.new_game(call["flag"], call["grid"], call["seed"], max_nodes)) == expected


def test_grid_rule_reads_names_aliases_and_text():
    assert rules.as_grid(" Elite ") == rules.GRIDS["hard"] == puzzle.GRIDS["hard"]
    assert rules.as_grid("6 × 4") == (6, 4)
    assert rules.as_grid((np.int64(2), 5)) == (2, 5)


@pytest.mark.parametrize(
    "index,total,exc",
    [(0, -1, ValueError), (3, 3, ValueError), (-1, 3, ValueError), (1, 1, ValueError), (0.0, 3, TypeError)],
)
def test_tile_index_rule(index, total, exc):
    with pytest.raises(exc, match="index"):
        puzzle.background_percent(index, total)
    assert _error(lambda: puzzle.background_percent(index, total)) == _error(lambda: rules.as_tile_index(index, total))


def test_swap_rule_keeps_the_order_of_its_checks(twin):
    game = puzzle.new_game(None, "easy", seed=1)
    with pytest.raises(ValueError, match="cannot swap slot 2 with itself"):
        game.swap(2, 2)
    # Solve it by putting every piece home, then every further swap is refused, a bad slot first.
    for slot in range(6):
        tiles = game.tiles_by_slot
        if tiles[slot] != slot and not game.solved:
            game.swap(slot, tiles.index(slot))
    assert game.solved
    with pytest.raises(TypeError, match="slot a must be an int"):
        game.swap("0", 1)
    with pytest.raises(ValueError, match="slot b = 6 is outside the board"):
        game.swap(0, 6)
    with pytest.raises(ValueError, match="cannot swap slot 1 with itself"):
        game.swap(1, 1)
    with pytest.raises(ValueError, match="^the board is already solved$"):
        game.swap(0, 1)
    assert game.swap_count == len(game.moves)


def test_new_game_signature_length_rule(twin):
    with pytest.raises(ValueError, match="^flag_or_signatures has 5 entries but a 3x2 grid has 6 tiles$"):
        puzzle.new_game([0, 1, 2, 3, 4], "easy", seed=1)
    assert rules.as_grid_signatures([0, None, 0, 1, 1, 2], 3, 2) == [0, None, 0, 1, 1, 2]


def test_batch_signature_rows_rule():
    boards = np.array([[1, 0, 2], [0, 2, 1]])
    classes, ks = rules.as_class_rows(np.array([[5, 5, 7], [1, 2, 3]]), 2, 3)
    assert classes.tolist() == [[0, 0, 1], [0, 1, 2]] and ks.tolist() == [2, 3]
    assert puzzle.min_swaps_batch(boards, np.array([[5, 5, 7], [1, 2, 3]])).tolist() == [0, 1]
    for bad in (np.zeros((1, 3), dtype=int), np.zeros((2, 3, 1), dtype=int)):
        assert _error(lambda: puzzle.min_swaps_batch(boards, bad)) == _error(lambda: rules.as_class_rows(bad, 2, 3))


@pytest.mark.parametrize("text,value", [("none", None), (" None ", None), ("12", 12), (" 7 ", 7)])
def test_max_nodes_text(text, value):
    assert rules.as_max_nodes_text(text) == value


@pytest.mark.parametrize("text", ["x", "-3", "1.5", "²", ""])
def test_max_nodes_text_refused(capsys, text):
    with pytest.raises(ValueError, match=f"^--max-nodes must be a positive int or 'none', got {text!r}$"):
        rules.as_max_nodes_text(text)
    assert main(["puzzle", "--max-nodes", text]) == 2
    assert "--max-nodes must be a positive int" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["stats", "puzzle", "--seeds", "0"], "--seeds must be >= 1, got 0"),
        (["stats", "connections", "--seeds", "0"], "--seeds must be >= 1, got 0"),
        (["stats", "connections", "--seeds", "1", "--threads", "0"], "--threads must be >= 1, got 0"),
        (["serve", "--port", "65536"], "--port must be in 0..65535, got 65536"),
        (["serve", "--port", "-1"], "--port must be in 0..65535, got -1"),
        (["serve", "--workers", "0"], "--workers must be >= 1, got 0"),
    ],
)
def test_command_counts_use_the_common_rules(capsys, argv, message):
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == f"flagcore: error: {message}"


def test_count_rules_refuse_bools_and_floats():
    for value in (True, 1.0, "1"):
        with pytest.raises(TypeError, match="^n must be an int"):
            common.as_at_least(value, "n", 1)
        with pytest.raises(TypeError, match="^n must be an int"):
            common.as_in_range(value, "n", 0, 9)
    assert common.as_at_least(np.int32(3), "n", 1) == 3 and common.as_in_range(0, "n", 0, 9) == 0
