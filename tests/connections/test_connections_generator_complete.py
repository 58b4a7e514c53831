"""The fixed search is complete: NoBoardError exactly when brute force finds no valid board.

The oracle (connections_libraries.brute_force_has_board) enumerates every category choice and every
4-subset of every pool and checks the definition (disjoint groups, no tile in another group's pool),
so it does not share the generator's exclusive-set reasoning.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from connections_libraries import brute_force_has_board, tiny_library
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _connections as core
from flagcore import connections
from flagcore.connections.search import generate_with
from flagcore.library import Library
from flagcore.reference import connections as ref

CODES = [chr(ord("A") + i) for i in range(14)]


@st.composite
def tiny_libraries(draw, arguable=False):
    """1-3 categories per tier over 14 codes, pools of 4-6 codes (and, when ``arguable``, 0-3 arguable
    codes and some doubtful pool codes each): brute force stays small."""
    tiers = []
    for _ in range(4):
        n = draw(st.integers(1, 3))
        tiers.append(
            [
                (
                    draw(st.sampled_from(["library", "synthetic"])),
                    draw(st.lists(st.sampled_from(CODES), min_size=4, max_size=6, unique=True)),
                    draw(st.lists(st.sampled_from(CODES), max_size=3 if arguable else 0, unique=True)),
                    draw(st.lists(st.sampled_from(CODES), max_size=3 if arguable else 0, unique=True)),
                )
                for _ in range(n)
            ]
        )
    return tiny_library(tiers)


def outcome(impl, lib, seed, legacy=False):
    try:
        return generate_with(impl, seed, "flags", library=lib, legacy=legacy)
    except connections.NoBoardError:
        return None


@settings(max_examples=300, deadline=None)
@given(lib=tiny_libraries(), seed=st.integers(0, 2**32 - 1))
def test_no_board_iff_none_exists(lib, seed):
    exists = brute_force_has_board(lib, "flags")
    for impl in (core, ref):
        board = outcome(impl, lib, seed)
        assert (board is not None) == exists
        if board is not None:
            assert connections.find_ambiguities(board, lib) == []
            cats = {c.id: c for c in lib.categories("flags")}
            assert all(set(g.codes) <= cats[g.category_id].pool for g in board.groups)
            assert len(set(board.tiles)) == 16


@settings(max_examples=300, deadline=None)
@given(lib=tiny_libraries(arguable=True), seed=st.integers(0, 2**32 - 1))
def test_no_board_iff_none_exists_with_arguable_sets(lib, seed):
    """The same with arguable sets: a board exists iff some four categories have four disjoint pool tiles
    each that lie in no other group's pool or arguable set; the boards found are those boards."""
    exists = brute_force_has_board(lib, "flags")
    cats = {c.id: c for c in lib.categories("flags")}
    for impl in (core, ref):
        board = outcome(impl, lib, seed)
        assert (board is not None) == exists
        if board is not None:
            assert connections.find_ambiguities(board, lib) == []
            for g in board.groups:
                assert set(g.codes) <= cats[g.category_id].pool - cats[g.category_id].doubtful
                others = set().union(
                    *(cats[h.category_id].pool | cats[h.category_id].arguable for h in board.groups if h is not g)
                )
                assert not set(g.codes) & others


def test_an_arguable_code_is_never_another_groups_tile():
    """Yellow ABCDE with E arguable for green; green EFGH: without the arguable set E could be green's
    tile; with it green has only FGH left (3 < 4) and a second green EFGHI must be used, without E."""
    lib = tiny_library(
        [
            [("library", "ABCD", "E")],
            [("library", "EFGH"), ("library", "EFGHI")],
            [("library", "MNOP")],
            [("library", "QRST")],
        ]
    )
    for seed in range(100):
        for impl in (core, ref):
            board = outcome(impl, lib, seed)
            assert board is not None and board.groups[1].category_id == "c11"
            assert set(board.groups[1].codes) == set("FGHI")


def test_a_doubtful_code_is_never_drawn_but_still_keeps_others_out():
    """Yellow ABCDE with E doubtful (it arguably does not fit): yellow's tiles are ABCD; green EFGH and
    EFGHI may not use E either, since E arguably fits yellow."""
    lib = tiny_library(
        [
            [("library", "ABCDE", "", "E")],
            [("library", "EFGH"), ("library", "EFGHI")],
            [("library", "MNOP")],
            [("library", "QRST")],
        ]
    )
    for seed in range(100):
        for impl in (core, ref):
            board = outcome(impl, lib, seed)
            assert board is not None and set(board.groups[0].codes) == set("ABCD")
            assert board.groups[1].category_id == "c11" and set(board.groups[1].codes) == set("FGHI")
            assert "E" not in board.tiles


def test_one_subset_per_move_makes_legacy_fail_where_a_board_exists():
    """The spec's incompleteness: yellow ABCDEF commits to one random four; green's only candidate is a
    synthetic tag on EFGHIJ, rejected (tag_on_board) whenever that four took E or F, and legacy never
    tries a second subset. A board exists (yellow ABCD, green GHIJ): the fixed search finds it for
    every seed, with exactly those tiles."""
    lib = tiny_library(
        [
            [("library", "ABCDEF")],
            [("synthetic", "EFGHIJ")],
            [("library", "MNOP")],
            [("library", "QRST")],
        ]
    )
    assert brute_force_has_board(lib, "flags")
    legacy_fail = 0
    for seed in range(200):
        for impl in (core, ref):
            board = outcome(impl, lib, seed)
            assert board is not None
            assert set(board.groups[0].codes) == set("ABCD") and set(board.groups[1].codes) == set("GHIJ")
        legacy = outcome(core, lib, seed, legacy=True)
        assert (legacy is None) == (outcome(ref, lib, seed, legacy=True) is None)
        legacy_fail += legacy is None
    assert 150 < legacy_fail < 200  # 14 of every 15 yellow subsets hold E or F


def test_legacy_one_direction_check_makes_ambiguous_boards():
    """Cause 2: a later library category's pool may hold an earlier tile. Yellow ABCD, green ABCDEFGH:
    legacy places green EFGH and every yellow tile fits green too; no valid board exists, and the fixed
    search says so for every seed."""
    lib = tiny_library(
        [
            [("library", "ABCD")],
            [("library", "ABCDEFGH")],
            [("library", "MNOP")],
            [("library", "QRST")],
        ]
    )
    assert brute_force_has_board(lib, "flags") is False
    for seed in range(100):
        legacy = connections.generate(seed, library=lib, legacy=True)
        assert {a.tile for a in connections.find_ambiguities(legacy, lib)} == set("ABCD")
        assert legacy.stats["ambiguous_tiles"] == 4
        with pytest.raises(connections.NoBoardError, match="no valid category combination"):
            connections.generate(seed, library=lib)


def test_legacy_flat_spill_undo_frees_a_forbidden_code():
    """Cause 1, the spec's seed-12 story in miniature. Yellow ABCDE keeps one code in its spill. Green L1
    (ABCDE FGHI) also spills it; blue (FGHIJK) then fails, L1 is undone and the flat set forgets the
    code though yellow still forbids it; green L2 (ABCDE WXY) takes it. Seen when L1 is tried first."""
    lib = tiny_library(
        [
            [("library", "ABCDE")],
            [("library", "ABCDEFGHI"), ("library", "ABCDEWXY")],
            [("library", "FGHIJK")],
            [("library", "QRST")],
        ]
    )
    witnessed = 0
    for seed in range(200):
        board = outcome(core, lib, seed, legacy=True)
        assert (board is None) == (outcome(ref, lib, seed, legacy=True) is None)
        if board is None:
            continue  # L2 tried first: too few free, then L1 fails as above and nothing is left
        leaked = set(board.groups[1].codes) & set("ABCDE")
        assert len(leaked) == 1 and board.stats["backtracks"] == 1
        assert connections.find_ambiguities(board, lib)
        witnessed += 1
        with pytest.raises(connections.NoBoardError):
            connections.generate(seed, library=lib)  # every green choice shares codes with yellow
    assert 50 < witnessed < 150


def test_no_candidates_for_a_tier():
    lib = tiny_library([[("library", "ABCD")], [("library", "EFGH")], [("library", "IJKL")], []])
    for legacy in (False, True):
        with pytest.raises(connections.NoBoardError):
            connections.generate(0, library=lib, legacy=legacy)
    batch = connections.generate_many([0, 1], library=lib)
    assert not batch.ok.any()
    with pytest.raises(connections.NoBoardError):
        batch[1]


# --- trivia mode: at least two fact groups (categories flags mode does not use) ----------------------


def with_facts(lib, fact_ids):
    """``lib`` with the categories ``fact_ids`` made trivia-only (facts); the others keep both modes."""
    cats = [replace(c, modes=frozenset({"trivia"})) if c.id in fact_ids else c for c in lib.categories("trivia")]
    return Library({c: c for c in lib.codes}, {c: lib.tags(c) for c in lib.codes}, cats, source="<tiny facts>")


def min_facts(lib):
    """The rule as the issue states it: two fact groups, when the library has facts in two tiers or more."""
    return 2 if len({c.tier for c in lib.categories("trivia") if "flags" not in c.modes}) >= 2 else 0


FACT_IDS = [f"c{t}{k}" for t in range(4) for k in range(3)]


@settings(max_examples=300, deadline=None)
@given(lib=tiny_libraries(arguable=True), facts=st.sets(st.sampled_from(FACT_IDS)), seed=st.integers(0, 2**32 - 1))
def test_trivia_no_board_iff_none_with_two_facts_exists(lib, facts, seed):
    """Complete with the fact rule: a trivia board exists iff some valid board has enough fact groups;
    the boards found have them, and both twins find the same board."""
    lib = with_facts(lib, facts)
    need = min_facts(lib)
    exists = brute_force_has_board(lib, "trivia", need)
    boards = []
    for impl in (core, ref):
        try:
            boards.append(generate_with(impl, seed, "trivia", library=lib))
        except connections.NoBoardError:
            boards.append(None)
    assert boards[0] == boards[1]
    assert (boards[0] is not None) == exists
    if boards[0] is not None:
        assert connections.find_ambiguities(boards[0], lib) == []
        modes = {c.id: c.modes for c in lib.categories("trivia")}
        assert sum("flags" not in modes[g.category_id] for g in boards[0].groups) >= need


def test_the_fact_rule_leaves_flags_mode_and_legacy_alone():
    """Yellow and green each offer a flag category and a fact; blue and purple only flag categories.
    Trivia boards take both facts for every seed; the legacy search never asks."""
    lib = with_facts(
        tiny_library(
            [
                [("library", "ABCD"), ("library", "EFGH")],
                [("library", "IJKL"), ("library", "MNOP")],
                [("library", "QRST")],
                [("library", "UVWX")],
            ]
        ),
        {"c01", "c11"},
    )
    legacy_ids = set()
    for seed in range(60):
        for impl in (core, ref):
            board = generate_with(impl, seed, "trivia", library=lib)
            assert [g.category_id for g in board.groups] == ["c01", "c11", "c20", "c30"]
            legacy_ids.add(generate_with(impl, seed, "trivia", library=lib, legacy=True).groups[0].category_id)
    assert legacy_ids == {"c00", "c01"}
