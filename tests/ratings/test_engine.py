"""generate / daily / from_board_id with ratings: both twins agree, ids name the ratings, the
learned colours follow the learned order, and every board stays unambiguous (issue 30, item 3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synth import games, hidden
from twin_sizes import sized

from flagcore import connections
from flagcore.connections.batch import generate_many
from flagcore.ratings import Ratings, fit, spearman

MODES = ("flags", "trivia")


@pytest.fixture(scope="module")
def rated() -> dict[str, tuple[Ratings, dict[str, float]]]:
    out = {}
    for mode in MODES:
        truth = hidden(mode, seed=7)
        out[mode] = (fit(games(mode, 8000, truth, seed=8), mode), truth)
    return out


def test_ids_name_the_ratings_and_rebuild(rated) -> None:
    for mode in MODES:
        ratings, _ = rated[mode]
        for seed in (0, 17, 2**32 - 1):
            board = connections.generate(seed, mode, ratings=ratings)
            bid = connections.board_id(board)
            assert bid.endswith("-" + ratings.digest)
            assert connections.from_board_id(bid, ratings=ratings) == board
            with pytest.raises(ValueError, match=f"dealt with ratings {ratings.digest}"):
                connections.from_board_id(bid)
            other = Ratings(categories={mode: {}})
            with pytest.raises(ValueError, match="dealt with ratings"):
                connections.from_board_id(bid, ratings=other)
            # an id dealt without ratings ignores them
            plain = connections.board_id(connections.generate(seed, mode))
            assert connections.from_board_id(plain, ratings=ratings) == connections.generate(seed, mode)


def test_empty_ratings_colour_as_the_model() -> None:
    # no category rated: every category takes the model's prediction, so the colours are the model's
    empty = Ratings(categories={"flags": {}, "trivia": {}})
    for mode in MODES:
        for seed in range(40):
            assert connections.generate(seed, mode, ratings=empty) == connections.generate(seed, mode)
        assert connections.daily("2027-03-01", mode, ratings=empty) == connections.daily("2027-03-01", mode)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    mode=st.sampled_from(MODES),
    difficulty=st.sampled_from(["easy", "normal", "hard", 1, 4]),
)
def test_twins_agree_with_ratings(rated, seed, mode, difficulty) -> None:
    from flagcore.connections.search import generate_with
    from flagcore.reference import connections as ref

    ratings, _ = rated[mode]
    a = connections.generate(seed, mode, difficulty=difficulty, ratings=ratings)
    b = generate_with(ref, seed, mode, difficulty=difficulty, ratings=ratings)
    assert a == b and a.stats == b.stats


def test_daily_with_ratings_on_both_twins(rated, twin) -> None:
    for mode in MODES:
        ratings, truth = rated[mode]
        day = connections.daily("2027-05-04", mode, ratings=ratings)
        plain = connections.daily("2027-05-04", mode)
        assert sorted(g.category_id for g in day.groups) == sorted(g.category_id for g in plain.groups)
        assert day.stats["model"]["ratings"] == ratings.digest
        assert connections.daily("2027-05-04", mode, ratings=ratings) is day  # cached, frozen for the day


def test_learned_colours_follow_the_learned_order(rated) -> None:
    for mode in MODES:
        ratings, truth = rated[mode]
        learned = ratings.categories[mode]
        exact = model_exact = 0
        n = sized(300, 60)
        for seed in range(n):
            board = connections.generate(seed, mode, ratings=ratings)
            d = [truth[g.category_id] for g in board.groups]
            exact += d == sorted(d)
            base = [truth[g.category_id] for g in connections.generate(seed, mode).groups]
            model_exact += base == sorted(base)
            rated_groups = [
                g for g in board.groups if learned.get(g.category_id) and learned[g.category_id].plays >= 30
            ]
            if len(rated_groups) == 4:
                assert [learned[g.category_id].difficulty for g in board.groups] == sorted(
                    learned[g.category_id].difficulty for g in board.groups
                )
        assert exact / n >= 0.5 and exact > 3 * model_exact
        assert spearman([v.difficulty for v in learned.values()], [truth[c] for c in learned]) > 0.8


def test_generate_refuses_what_is_not_ratings() -> None:
    with pytest.raises(TypeError, match="ratings must be a flagcore.ratings.Ratings"):
        connections.generate(1, ratings={"format": 1})


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_zero_ambiguity_with_ratings_100k(rated, mode, difficulty) -> None:
    ratings, _ = rated[mode]
    assert ratings.steering == 2  # the steered search (its own tiers and steps)
    n = sized(100_000, 2_000)
    for seed in range(n):
        board = connections.generate(seed, mode, difficulty=difficulty, ratings=ratings)
        assert board.stats["ambiguous_tiles"] == 0 and board.stats["arguable_tiles"] == 0
        if seed % 100 == 0:
            assert connections.find_ambiguities(board) == []
            assert connections.find_second_split(board) is None
    # the boards are those of the search (ratings only steer among its boards): the batch agrees
    batch = generate_many(np.arange(1000), mode, difficulty=None)
    assert batch.ok.all()
