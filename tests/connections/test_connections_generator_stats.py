"""flagcore stats connections: the two tables from generate_many's arrays."""

from __future__ import annotations

import numpy as np
from connections_libraries import random_library

from flagcore import connections
from flagcore.cli import stats_connections as S

LIB = random_library(7, n_codes=120, per_tier=(8, 8, 10, 4), tags_per_tier=(3, 3, 4, 4), pool_range=(5, 14))


def test_measure_matches_boards():
    done = []
    r = S.measure(600, "flags", True, LIB, 2, done.append)
    assert sum(done) == 600
    boards = [connections.generate(s, library=LIB, legacy=True) for s in range(600)]
    moves = sorted(b.stats["moves_tried"] for b in boards)
    assert r["moves_mean"] == np.mean(moves) and r["moves_max"] == moves[-1]
    assert r["moves_median"] == moves[299] and r["moves_p90"] == moves[539] and r["moves_p99"] == moves[593]
    assert r["decoy_applied"] == sum(b.stats["decoy_applied"] for b in boards)
    assert r["no_backtrack"] == sum(b.stats["backtracks"] == 0 for b in boards)
    assert r["ambiguous_boards"] == sum(bool(connections.find_ambiguities(b, LIB)) for b in boards)
    assert sum(p["boards"] for p in r["paths"].values()) == r["boards"] == 600
    assert sum(p["ambiguous"] for p in r["paths"].values()) == r["ambiguous_boards"]


def test_render_side_by_side():
    results = [
        S.measure(300, m, legacy, LIB, None, lambda n: None) for m in ("flags", "trivia") for legacy in (True, False)
    ]
    text = S.render(results)
    assert "Measured cost" in text and "Ambiguous tiles" in text
    head = [line for line in text.splitlines() if line.startswith("Metric")][0]
    assert head.split() == ["Metric", "flags", "legacy", "flags", "fixed", "trivia", "legacy", "trivia", "fixed"]
    for row in (
        "Mean moves tried",
        "Median / p90 / p99",
        "Boards with no backtrack",
        "Decoy applied",
        "All boards",
        "No backtrack, no decoy",
        "Backtrack, no decoy",
        "Decoy, no backtrack",
        "Backtrack and decoy",
    ):
        assert row in text
    all_boards = [line for line in text.splitlines() if line.startswith("All boards")][0]
    assert all_boards.split("  ")[-1].strip().startswith("0 ")  # trivia fixed: no ambiguous board


def test_nearest_rank():
    v = np.arange(1, 101)
    assert [S.nearest_rank(v, p) for p in (50, 90, 99, 100)] == [50, 90, 99, 100]
    assert S.nearest_rank(np.array([7]), 99) == 7


def test_rule_and_arguable_ambiguity_apart():
    """Legacy on a library with arguable sets: the two kinds are counted apart, as find_ambiguities sees
    them, and the fixed search has neither."""
    lib = random_library(
        9, n_codes=120, per_tier=(8, 8, 10, 4), tags_per_tier=(3, 3, 4, 4), pool_range=(5, 14), arguable_range=(2, 8)
    )
    r = S.measure(400, "flags", True, lib, 1, lambda n: None)
    boards = [connections.generate(s, library=lib, legacy=True) for s in range(400)]
    kinds = [{a.kind for a in connections.find_ambiguities(b, lib)} for b in boards]
    assert r["ambiguous_boards"] == sum("rule" in k for k in kinds)
    assert r["arguable_boards"] == sum("arguable" in k for k in kinds) > 0
    assert r["either_boards"] == sum(bool(k) for k in kinds)
    assert sum(p["arguable"] for p in r["paths"].values()) == r["arguable_boards"]
    fixed = S.measure(400, "flags", False, lib, 1, lambda n: None)
    assert fixed["ambiguous_boards"] == fixed["arguable_boards"] == fixed["either_boards"] == 0
    text = S.render([r, fixed])
    assert "Arguable tiles" in text and "Either kind" in text
