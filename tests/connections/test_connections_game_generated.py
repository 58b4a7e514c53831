"""The game and board ids on boards the generator makes (a random library shaped like the real one)."""

from __future__ import annotations

import pytest
from connections_libraries import random_library
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import ConnectionsGame, board_id, check_guess, daily_seed, from_board_id, generate
from flagcore.reference.rng import seed_to_state

LIB = random_library(11)

MODES = ("flags", "trivia")


def same_board(a, b):
    return (a.tiles, a.groups, a.mode, a.legacy) == (b.tiles, b.groups, b.mode, b.legacy)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=20)), mode=st.sampled_from(MODES), legacy=st.booleans()
)
def test_board_id_rebuilds_the_board(seed, mode, legacy):
    board = generate(seed, mode, legacy=legacy, library=LIB)
    again = from_board_id(board_id(board), library=LIB)
    assert same_board(board, again)
    assert again.seed == seed_to_state(seed)
    assert board_id(again) == board_id(board)


def test_daily_board_is_the_str_seed_board():
    seed = daily_seed("2026-11-29")
    assert seed == "daily:2026-11-29"
    board = generate(seed, "flags", library=LIB)
    assert same_board(board, generate(seed_to_state(seed), "flags", library=LIB))
    assert same_board(board, from_board_id(board_id(board), library=LIB))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", [0, 12, 99, "daily:2026-11-29"])
def test_play_generated_boards(seed, mode):
    board = generate(seed, mode, library=LIB)
    for group in board.groups:
        assert check_guess(board.groups, reversed(group.codes)).matched == group
    game = ConnectionsGame(board)
    g0, g1 = board.groups[0].codes, board.groups[1].codes
    assert game.guess([*g0[:3], g1[0]]).result == "one_away"
    assert game.guess([g1[0], *g0[:3]]).result == "already_tried"
    for group in reversed(board.groups):
        assert game.guess(group.codes).result == "correct"
    assert game.won and game.mistakes == 1
    rows = game.share().splitlines()
    assert rows[0].endswith(board_id(board)) and len(rows) == 2 + 5


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", [0, 12, 4242, "daily:2026-11-29"])
@pytest.mark.parametrize("legacy", [False, True])
def test_bundled_library_ids_and_play(seed, mode, legacy):
    board = generate(seed, mode, legacy=legacy)
    assert same_board(board, from_board_id(board_id(board)))
    game = ConnectionsGame(board)
    for group in board.groups:
        game.guess(list(group.codes))
    assert game.won and game.share().count("\n") == 1 + 4
