"""Grading (the spec's checkGuess) and ConnectionsGame: every transition and every bad input."""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import flagcore
from flagcore.connections import MAX_MISTAKES, Board, ConnectionsGame, Group, GuessResult, check_guess
from flagcore.reference import rng as ref_rng

CODES = ["AR", "BR", "CA", "DE", "EG", "FR", "GH", "HR", "IT", "JP", "KE", "LT", "MX", "NG", "PE", "RU"]


def make_board(codes=CODES, order=None, seed=7, mode="flags"):
    groups = tuple(Group(t, f"label {t}", tuple(codes[4 * t : 4 * t + 4]), f"cat{t}") for t in range(4))
    tiles = (
        tuple(order)
        if order is not None
        else tuple(codes[i] for i in (3, 9, 14, 0, 5, 12, 1, 10, 7, 15, 2, 11, 6, 13, 4, 8))
    )
    return Board(tiles=tiles, groups=groups, seed=seed, mode=mode)


BOARD = make_board()
Y, G, B, P = (list(g.codes) for g in BOARD.groups)


def oracle(groups, selected):
    """Brute force: correct iff the selection is a group; one_away iff some group holds 3."""
    best = max(len(set(g.codes) & set(selected)) for g in groups)
    if best == 4:
        return "correct"
    return "one_away" if best == 3 else "wrong"


# ---------------------------------------------------------------- grading


def test_check_guess_every_selection_matches_oracle():
    for sel in itertools.combinations(BOARD.tiles, 4):
        got = check_guess(BOARD.groups, sel)
        assert got.result == oracle(BOARD.groups, sel)
        if got.result == "correct":
            assert set(got.matched.codes) == set(sel)
        else:
            assert got.matched is None


def test_check_guess_is_the_spec_loop():
    assert check_guess(BOARD.groups, Y) == GuessResult("correct", BOARD.groups[0])
    assert check_guess(BOARD.groups, Y[:3] + [G[0]]) == GuessResult("one_away", None)
    assert check_guess(BOARD.groups, Y[:2] + G[:2]).result == "wrong"
    # codes outside every group simply do not intersect
    assert check_guess(BOARD.groups, ["ZZ", "YY", "XX", "WW"]).result == "wrong"
    assert check_guess(list(BOARD.groups), tuple(reversed(P))).matched == BOARD.groups[3]


@st.composite
def boards_and_selections(draw):
    pool = draw(st.lists(st.sampled_from([f"C{i:02d}" for i in range(40)]), min_size=16, max_size=16, unique=True))
    groups = [Group(t, f"g{t}", tuple(pool[4 * t : 4 * t + 4]), f"c{t}") for t in range(4)]
    outside = [f"X{i}" for i in range(4)]
    selected = draw(st.lists(st.sampled_from(pool + outside), min_size=4, max_size=4, unique=True))
    perm = draw(st.permutations(groups))
    return groups, perm, selected


@settings(max_examples=300, deadline=None)
@given(boards_and_selections())
def test_grading_is_order_independent_for_disjoint_groups(case):
    groups, permuted, selected = case
    a, b = check_guess(groups, selected), check_guess(permuted, selected)
    assert a == b
    assert a.result == oracle(groups, selected)


@settings(max_examples=300, deadline=None)
@given(boards_and_selections())
def test_game_grades_as_the_spec_loop(case):
    """The game grades with packed integers; its verdict must be check_guess's on every board."""
    groups, _, selected = case
    tiles = tuple(sorted(c for g in groups for c in g.codes))
    game = ConnectionsGame(Board(tiles=tiles, groups=tuple(groups), seed=1, mode="flags"))
    if any(c not in tiles for c in selected):
        with pytest.raises(ValueError, match="not on this board"):
            game.guess(selected)
        return
    expected = check_guess(groups, selected)
    out = game.guess(selected)
    assert (out.result, out.matched) == (expected.result, expected.matched)
    assert out.mistakes == (expected.result != "correct")


BAD_SELECTIONS = [
    (None, TypeError, "selected"),
    ("ARBRCADE", TypeError, "selected"),
    (b"ARBR", TypeError, "selected"),
    (1234, TypeError, "selected"),
    ({"AR": 1, "BR": 2, "CA": 3, "DE": 4}, TypeError, "selected"),
    ([1, 2, 3, 4], TypeError, "int"),
    (["AR", "BR", "CA", None], TypeError, "NoneType"),
    (["AR", "BR", "CA"], ValueError, "exactly 4"),
    (["AR", "BR", "CA", "DE", "EG"], ValueError, "exactly 4"),
    ([], ValueError, "exactly 4"),
    (["AR", "AR", "CA", "DE"], ValueError, "distinct"),
]


@pytest.mark.parametrize("selected,exc,words", BAD_SELECTIONS)
def test_check_guess_bad_selection(selected, exc, words):
    with pytest.raises(exc, match=words):
        check_guess(BOARD.groups, selected)


@pytest.mark.parametrize(
    "groups,exc",
    [
        (None, TypeError),
        ("groups", TypeError),
        ([1, 2], TypeError),
        ([{"codes": Y}], TypeError),
        ([Group(0, "short", ("AR", "BR", "CA"), "c")], ValueError),  # type: ignore[arg-type]
    ],
)
def test_check_guess_bad_groups(groups, exc):
    with pytest.raises(exc, match="groups"):
        check_guess(groups, Y)


# ---------------------------------------------------------------- the game


def snapshot(game):
    return (
        game.mistakes,
        game.won,
        game.lost,
        game.solved_groups,
        game.remaining_tiles,
        game.guesses,
        copy.deepcopy(game._failed),
    )


def wrong_guesses():
    """Distinct failing sets: each one_away or wrong, never the same set twice."""
    return [Y[:3] + [G[0]], Y[:2] + G[:2], Y[:3] + [B[0]], Y[:1] + G[:1] + B[:1] + P[:1], G[:3] + [P[0]]]


@pytest.mark.parametrize("mistakes", range(MAX_MISTAKES))
def test_win_with_0_to_3_mistakes(mistakes):
    game = ConnectionsGame(BOARD)
    for sel in wrong_guesses()[:mistakes]:
        out = game.guess(sel)
        assert out.result in ("one_away", "wrong") and not out.over
    for i, group in enumerate(BOARD.groups):
        out = game.guess(list(group.codes))
        assert out.result == "correct" and out.matched == group
        assert out.won == (i == 3)
    assert game.won and not game.lost and game.over
    assert game.mistakes == mistakes and game.mistakes_left == MAX_MISTAKES - mistakes
    assert game.solved_groups == BOARD.groups and game.remaining_tiles == ()
    with pytest.raises(ValueError, match="over"):
        game.guess(Y)


@pytest.mark.parametrize("solved_first", range(3))  # with 3 solved, the only legal guess is the 4th
def test_loss_on_the_fourth_mistake(solved_first):
    game = ConnectionsGame(BOARD)
    for group in BOARD.groups[3 : 3 - solved_first : -1] if solved_first else ():
        assert game.guess(group.codes).result == "correct"
    fails = [[Y[0], Y[1], Y[2], G[0]], [Y[0], Y[1], Y[3], G[0]], [Y[0], Y[2], Y[3], G[0]], [Y[1], Y[2], Y[3], G[0]]]
    for n, sel in enumerate(fails, 1):
        out = game.guess(sel)
        assert out.result == "one_away"
        assert out.mistakes == n and out.lost == (n == MAX_MISTAKES) and not out.won
    assert game.lost and not game.won and game.over
    before = snapshot(game)
    with pytest.raises(ValueError, match="over"):
        game.guess(Y)
    assert snapshot(game) == before


def test_one_away_and_wrong_both_cost_a_mistake():
    game = ConnectionsGame(BOARD)
    assert game.guess(Y[:3] + [G[0]]).result == "one_away"
    assert game.mistakes == 1
    assert game.guess(Y[:2] + G[:2]).result == "wrong"
    assert game.mistakes == 2


def test_already_tried_costs_nothing_and_ignores_order():
    game = ConnectionsGame(BOARD)
    first = Y[:3] + [G[0]]
    assert game.guess(first).result == "one_away"
    before = snapshot(game)
    for sel in itertools.permutations(first):
        out = game.guess(list(sel))
        assert out.result == "already_tried" and out.mistakes == 1 and out.matched is None
    assert game.guess(set(first)).result == "already_tried"
    assert snapshot(game) == before
    # only failed sets are "tried": three strikes then a resubmit still leaves the player alive
    game.guess(Y[:2] + G[:2])
    game.guess(Y[:1] + G[:3])
    assert game.guess(tuple(reversed(first))).result == "already_tried"
    assert game.mistakes == 3 and not game.over
    assert game.guess(Y).result == "correct"


def test_remaining_tiles_keep_display_order():
    game = ConnectionsGame(BOARD)
    game.guess(G)
    assert game.remaining_tiles == tuple(c for c in BOARD.tiles if c not in G)


def _bad_guesses():
    return [
        (None, TypeError, "codes"),
        ("ARBRCADE", TypeError, "codes"),
        (12, TypeError, "codes"),
        ([1, 2, 3, 4], TypeError, "int"),
        ([Y[0], Y[1], Y[2], 7], TypeError, "int"),
        (Y[:3], ValueError, "exactly 4"),
        (Y + [G[0]], ValueError, "exactly 4"),
        ([Y[0], Y[0], Y[1], Y[2]], ValueError, "distinct"),
        ([Y[0], Y[1], Y[2], "ZZ"], ValueError, "not on this board"),
        ([y.lower() for y in Y], ValueError, "not on this board"),
        ([G[0], G[1], G[2], B[0]], ValueError, "already in a solved group"),  # G solved below
    ]


@pytest.mark.parametrize("codes,exc,words", _bad_guesses())
def test_bad_guess_raises_and_leaves_state(codes, exc, words):
    game = ConnectionsGame(BOARD)
    game.guess(Y[:3] + [B[0]])  # a mistake and a tried set on record
    game.guess(G)  # a solved group on record
    game.shuffle_remaining(3)
    before = snapshot(game)
    with pytest.raises(exc, match=words):
        game.guess(codes)
    assert snapshot(game) == before
    assert game.guess(Y[:3] + [B[0]]).result == "already_tried"


@pytest.mark.parametrize(
    "board,exc",
    [
        (None, TypeError),
        ("board", TypeError),
        (BOARD.to_dict(), TypeError),
        (Board(tiles=BOARD.tiles[:15], groups=BOARD.groups, seed=1, mode="flags"), ValueError),
        (Board(tiles=BOARD.tiles[:15] + ("AR",), groups=BOARD.groups, seed=1, mode="flags"), ValueError),
        (Board(tiles=BOARD.tiles[:15] + ("ZZ",), groups=BOARD.groups, seed=1, mode="flags"), ValueError),
        (Board(tiles=BOARD.tiles, groups=BOARD.groups[:3], seed=1, mode="flags"), ValueError),  # type: ignore[arg-type]
        (Board(tiles=BOARD.tiles, groups=(BOARD.groups[0],) * 4, seed=1, mode="flags"), ValueError),
    ],
)
def test_game_rejects_bad_boards(board, exc):
    with pytest.raises(exc, match="board"):
        ConnectionsGame(board)


# ---------------------------------------------------------------- shuffle and share


def test_shuffle_remaining_is_the_spec_shuffle():
    game = ConnectionsGame(BOARD)
    game.guess(P)
    remaining = list(game.remaining_tiles)
    assert game.shuffle_remaining(flagcore.Rng(99)) == tuple(flagcore.shuffle(remaining, flagcore.Rng(99)))
    again = ConnectionsGame(BOARD)
    again.guess(P)
    assert again.shuffle_remaining(99) == game.remaining_tiles  # a seed makes the same Rng
    third = ConnectionsGame(BOARD)
    third.guess(P)
    assert third.shuffle_remaining(ref_rng.Rng(99)) == game.remaining_tiles  # the twin agrees
    assert sorted(game.remaining_tiles) == sorted(remaining)
    # shuffling never changes what is solved or counted
    assert game.solved_groups == (BOARD.groups[3],) and game.mistakes == 0


def test_shuffle_draws_from_a_shared_rng():
    rng = flagcore.Rng(5)
    game = ConnectionsGame(BOARD)
    first = game.shuffle_remaining(rng)
    second = game.shuffle_remaining(rng)
    check = flagcore.Rng(5)
    expect1 = tuple(flagcore.shuffle(BOARD.tiles, check))
    assert first == expect1 and second == tuple(flagcore.shuffle(expect1, check))


@pytest.mark.parametrize("rng", [None, 1.5, True, [1], object()])
def test_shuffle_bad_rng(rng):
    game = ConnectionsGame(BOARD)
    with pytest.raises(TypeError, match="rng"):
        game.shuffle_remaining(rng)
    assert game.remaining_tiles == BOARD.tiles


@pytest.mark.parametrize("seed,exc", [(-1, ValueError), (2**32, ValueError)])
def test_shuffle_bad_seed(seed, exc):
    game = ConnectionsGame(BOARD)
    with pytest.raises(exc, match="seed"):
        game.shuffle_remaining(seed)
    assert game.remaining_tiles == BOARD.tiles


SQ = dict(zip(("y", "g", "b", "p"), ("\U0001f7e8", "\U0001f7e9", "\U0001f7e6", "\U0001f7ea")))


def test_share_grid_one_row_per_graded_guess():
    game = ConnectionsGame(BOARD)
    game.guess([Y[0], Y[1], Y[2], G[0]])
    game.guess([G[0], Y[1], Y[2], Y[0]])  # already tried: no row
    game.guess(B)
    game.guess([P[0], G[1], Y[3], P[1]])
    for group in (BOARD.groups[0], BOARD.groups[1], BOARD.groups[3]):
        game.guess(group.codes)
    lines = game.share().splitlines()
    assert lines[0] == f"flagcore Connections {flagcore.connections.board_id(BOARD)}"
    assert lines[1] == "solved, mistakes 2/4"
    assert lines[2:] == [
        SQ["y"] * 3 + SQ["g"],
        SQ["b"] * 4,
        SQ["p"] + SQ["g"] + SQ["y"] + SQ["p"],
        SQ["y"] * 4,
        SQ["g"] * 4,
        SQ["p"] * 4,
    ]


def test_share_lost_and_in_progress():
    game = ConnectionsGame(BOARD)
    assert game.share().splitlines()[1:] == ["in progress, mistakes 0/4"]
    for sel in wrong_guesses()[:4]:
        game.guess(sel)
    assert game.share().splitlines()[1] == "lost, mistakes 4/4"
    assert len(game.share().splitlines()) == 6


# ---------------------------------------------------------------- random play against a model


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.lists(st.sampled_from(CODES), min_size=4, max_size=4, unique=True),
            st.sampled_from([list(g.codes) for g in BOARD.groups]),
        ),
        max_size=14,
    )
)
def test_random_play_matches_a_model(guesses):
    """Every transition, checked against an independent model of the rules."""
    game = ConnectionsGame(BOARD)
    solved: set[str] = set()
    failed: set[frozenset[str]] = set()
    mistakes = 0
    for sel in guesses:
        over = mistakes >= MAX_MISTAKES or len(solved) == 16
        before = snapshot(game)
        if over or solved & set(sel):
            with pytest.raises(ValueError):
                game.guess(sel)
            assert snapshot(game) == before
            continue
        out = game.guess(sel)
        if frozenset(sel) in failed:
            expected = "already_tried"
        else:
            expected = oracle(BOARD.groups, sel)
            if expected == "correct":
                solved |= set(sel)
            else:
                mistakes += 1
                failed.add(frozenset(sel))
        assert out.result == expected
        assert game.mistakes == out.mistakes == mistakes <= MAX_MISTAKES
        assert game.lost == out.lost == (mistakes == MAX_MISTAKES)
        assert game.won == out.won == (len(solved) == 16 and mistakes < MAX_MISTAKES)
        assert set(game.remaining_tiles) == set(CODES) - solved
        assert {c for g in game.solved_groups for c in g.codes} == solved


def test_a_copy_is_an_independent_game_in_the_same_state():
    game = ConnectionsGame(make_board())
    game.guess(wrong_guesses()[0])
    twin = game.copy()
    assert snapshot(twin) == snapshot(game) and twin.board is game.board
    twin.guess(Y)
    assert twin.solved_groups and not game.solved_groups  # the copy's guess is its own
    game.guess(wrong_guesses()[4])
    assert (twin.mistakes, game.mistakes) == (1, 2)
    assert game.guess(wrong_guesses()[0]).result == "already_tried"  # each keeps its tried sets
    assert twin.guess(wrong_guesses()[4]).result == "one_away" and twin.mistakes == 2
