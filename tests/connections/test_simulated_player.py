"""The simulated player (benchmarks/simulated_player.py): falls for tempting phantoms, only for those."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from twin_sizes import sized

from flagcore import Rng, connections

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "simulated_player.py"
_spec = importlib.util.spec_from_file_location("simulated_player", _PATH)
player = importlib.util.module_from_spec(_spec)
sys.modules["simulated_player"] = player  # its dataclasses look their module up
_spec.loader.exec_module(player)


def test_same_boards_same_report():
    assert player.run("flags", "normal", 40) == player.run("flags", "normal", 40)


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_phantoms_fool_it_and_easy_is_easier(mode):
    n = sized(600, 80)
    easy, hard = player.run(mode, "easy", n), player.run(mode, "hard", n)
    assert easy["phantom_mistakes_per_board"] < hard["phantom_mistakes_per_board"]
    assert hard["phantom_mistakes_per_board"] > 0
    assert easy["win_rate"] >= hard["win_rate"]


def test_only_tempting_phantoms_cost_mistakes():
    """A board without tempting phantoms costs no phantom mistake; every game ends won or at 4 mistakes."""
    seen_tempting = 0
    for seed in range(sized(400, 60)):
        board = connections.generate(seed, "flags")
        model = connections.board_difficulty(board)
        game = player.play(board, model, player.named_sets(board), Rng(seed))
        assert game.won or game.mistakes == player.MAX_MISTAKES
        assert sorted(game.solved) == ([0, 1, 2, 3] if game.won else sorted(game.solved))
        if not model.tempting:
            assert game.phantom_mistakes == 0
        seen_tempting += bool(model.tempting)
    assert seen_tempting


def test_board_colours_match_its_order_better_than_library_tiers():
    report = player.run("flags", "normal", sized(500, 80))
    board, library = report["colours"]["board"], report["colours"]["library"]
    assert board["yellow_first"] > library["yellow_first"]
    assert board["purple_last"] > library["purple_last"]
