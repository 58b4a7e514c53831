"""The Plackett-Luce fit recovers a hidden difficulty, is skill-robust and deterministic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from synth import games, hidden

from flagcore.ratings import MIN_PLAYS, fit, spearman
from flagcore.ratings.fit import fit_arrays


def test_spearman_matches_its_definition() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9486832980505138)
    assert math.isnan(spearman([1], [2]))


def test_fit_recovers_the_hidden_order() -> None:
    truth = hidden("flags")
    r = fit(games("flags", 6000, truth), "flags")
    rated = {c: v for c, v in r.categories["flags"].items() if v.plays >= MIN_PLAYS}
    assert len(rated) > 100
    assert spearman([v.difficulty for v in rated.values()], [truth[c] for c in rated]) > 0.9
    # sd shrinks with plays, and about 95% of the truths (centred as the fit's prior centres) lie within 1.96 sd
    offset = np.mean([truth[c] - v.difficulty for c, v in rated.items()])
    inside = np.mean([abs(truth[c] - offset - v.difficulty) <= 1.96 * v.sd for c, v in rated.items()])
    assert 0.85 <= inside <= 1.0


def test_a_strong_or_weak_population_ranks_alike() -> None:
    truth = hidden("flags", seed=3)
    strong = fit(games("flags", 5000, truth, seed=4, skill=3.0), "flags").categories["flags"]
    weak = fit(games("flags", 5000, truth, seed=5, skill=-0.5), "flags").categories["flags"]
    common = [c for c in strong if c in weak and strong[c].plays >= MIN_PLAYS and weak[c].plays >= MIN_PLAYS]
    assert spearman([strong[c].difficulty for c in common], [weak[c].difficulty for c in common]) >= 0.85
    # a strong player solving everything does not make every category look easy: the scale stays centred
    assert abs(np.mean([strong[c].difficulty for c in common])) < 0.3


def test_unsolved_groups_rank_behind_the_solved() -> None:
    # category 0 always solved first, 1 second, 2 and 3 never: 2 and 3 tie, harder than 0 and 1
    cats = np.array([[0, 1, 2, 3]] * 200)
    ranks = np.array([[1, 2, 0, 0]] * 200)
    d, sd = fit_arrays(cats, ranks, 4)
    assert d[0] < d[1] < d[2]
    assert d[2] == pytest.approx(d[3])
    assert (sd > 0).all()


def test_fit_is_deterministic_and_counts_unknown_categories() -> None:
    truth = hidden("trivia")
    recs = games("trivia", 800, truth, seed=9)
    a, b = fit(recs, "trivia"), fit(list(recs), "trivia")
    assert a.dumps() == b.dumps() and a.digest == b.digest
    bad = recs[0].__class__(**{**recs[0].__dict__, "categories": ("no:such", *recs[0].categories[1:])})
    c = fit([*recs, bad], "trivia")
    assert c.skipped == 1 and c.records["trivia"] == len(recs)


def test_colour_calibration_counts_positions() -> None:
    truth = hidden("flags")
    recs = games("flags", 300, truth)
    r = fit(recs, "flags")
    cal = r.colours["flags"]
    for col, row in zip(("yellow", "green", "blue", "purple"), range(4)):
        expect = [sum(1 for x in recs if x.solved_at[row] == p) for p in (1, 2, 3, 4, 0)]
        assert cal[col] == expect
