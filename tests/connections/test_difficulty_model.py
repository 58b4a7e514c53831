"""The difficulty model of a board (connections.board_difficulty): both twins, brute-force oracle, data file."""

from __future__ import annotations

import functools
import json

import pytest
from connections_libraries import random_library
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _connections as compiled
from flagcore import connections
from flagcore._connections_layout import (
    LURE_CAP,
    PHANTOM_ONE_AWAY_WEIGHT,
    PHANTOM_SIZE_WEIGHT,
    PHANTOM_SPREAD_WEIGHT,
    PULL_CAP,
    SALIENCE_MAX,
    SCORE_HIDDEN,
    SCORE_LURE,
    SCORE_PULL,
    TEMPTING,
)
from flagcore.connections import generate
from flagcore.connections.difficulty import (
    DATA_FILE,
    board_difficulty,
    category_difficulty,
    coloured,
    difficulty_data,
    model_tables,
)
from flagcore.connections.search import generate_with
from flagcore.library import bundled_path, load_library
from flagcore.reference import connections as ref

MODES = ("flags", "trivia")
SPARSE = random_library(7, n_codes=120, per_tier=(8, 8, 10, 4), tags_per_tier=(3, 3, 4, 4), pool_range=(5, 14))


@functools.lru_cache(maxsize=1)
def _bundled():
    return load_library()


_DIFFICULTY: dict = {}  # (id of the library, category id) -> its CategoryDifficulty, read once


def _difficulty(cat, lib):
    key = (id(lib), cat.id)
    if key not in _DIFFICULTY:
        _DIFFICULTY[key] = (lib, category_difficulty(cat, lib))  # the library kept alive with its id
    return _DIFFICULTY[key][1]


def oracle(board, library=None):
    """The model's definition read off the Category objects, with no tables or bitsets."""
    lib = library or _bundled()
    cats = {c.id: c for c in lib.categories(board.mode)}
    tiles = [x for g in board.groups for x in g.codes]
    on_board = {g.category_id for g in board.groups}
    phantoms = []
    for cid, cat in cats.items():
        if cid in on_board:
            continue
        fit = cat.pool | cat.arguable
        members = [x for x in tiles if x in fit]
        if len(members) < 4:
            continue
        per_group = [len(set(g.codes) & fit) for g in board.groups]
        spread = sum(1 for n in per_group if n)
        sal = _difficulty(cat, lib).salience
        weight = PHANTOM_ONE_AWAY_WEIGHT if spread == 2 and 3 in per_group else PHANTOM_SPREAD_WEIGHT[spread]
        strength = sal * PHANTOM_SIZE_WEIGHT[len(members)] * weight if spread >= 2 and len(members) < 9 else 0
        phantoms.append((cid, tuple(members), spread, strength))
    groups = []
    for g in board.groups:
        cat = cats[g.category_id]
        d = _difficulty(cat, lib)
        named = (d.named or frozenset()) | cat.pool | cat.arguable
        lure = sum(1 for x in tiles if x in named and x not in g.codes)
        pulls = sum(1 for p in phantoms if p[3] >= TEMPTING and set(p[1]) & set(g.codes))
        hides = 0 if d.plain else 1  # a plain clause's lure is counted, not scored
        score = SCORE_HIDDEN * (SALIENCE_MAX - d.salience) + SCORE_LURE * hides * min(lure, LURE_CAP)
        score += SCORE_PULL * min(pulls, PULL_CAP)
        groups.append((d.salience, lure, pulls, score))
    return groups, sorted(phantoms)


def as_tuples(model):
    groups = [(g.salience, g.lure, g.pulls, g.score) for g in model.groups]
    phantoms = sorted((p.category_id, p.codes, p.spread, p.strength) for p in model.phantoms)
    return groups, phantoms


@pytest.mark.parametrize("mode", MODES)
def test_model_matches_oracle(twin, mode):
    """Each twin's counts equal the definition, on fixed and legacy boards (legacy ones have lures)."""
    for seed in range(40):
        for legacy in (False, True):
            board = connections.generate(seed, mode, legacy=legacy)
            assert as_tuples(board_difficulty(board)) == oracle(board)


@pytest.mark.parametrize("mode", MODES)
def test_twins_agree_bundled(mode):
    """The raw kernel results of both twins are equal, board by board."""
    for seed in range(300):
        board = generate_with(compiled, seed, mode)
        for_each = []
        for impl in (compiled, ref):
            mt = model_tables(impl, None, mode)
            idx = {c: i for i, c in enumerate(mt.tables.codes)}
            cats = [mt.tables.index[g.category_id] for g in board.groups]
            gt = [idx[x] for g in board.groups for x in g.codes]
            for_each.append(impl.board_model(mt.prepared, gt, cats))
        assert for_each[0] == for_each[1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES), legacy=st.booleans())
def test_twins_agree_random_library(seed, mode, legacy):
    """A library built in memory (no facts: every category takes the default or its listed salience)."""
    try:
        board = generate_with(compiled, seed, mode, library=SPARSE, legacy=legacy)
    except connections.NoBoardError:
        return
    raws = []
    for impl in (compiled, ref):
        mt = model_tables(impl, SPARSE, mode)
        idx = {c: i for i, c in enumerate(mt.tables.codes)}
        cats = [mt.tables.index[g.category_id] for g in board.groups]
        raws.append(impl.board_model(mt.prepared, [idx[x] for g in board.groups for x in g.codes], cats))
    assert raws[0] == raws[1]
    assert as_tuples(board_difficulty(board, SPARSE)) == oracle(board, SPARSE)


def test_phantom_in_one_group_fools_nobody():
    """A phantom whose members all sit in one group has strength 0; spread >= 2 otherwise."""
    for seed in range(200):
        model = board_difficulty(connections.generate(seed, "flags"))
        for p in model.phantoms:
            assert len(p.codes) >= 4
            assert (p.strength == 0) or p.spread >= 2
            assert p.tempting == (p.strength >= TEMPTING)


def test_fixed_boards_have_no_lure_outside_clauses():
    """The fixed search keeps every tile out of other groups' fit sets: a lure only comes from a clause."""
    for seed in range(300):
        for g in board_difficulty(connections.generate(seed, "trivia")).groups:
            if g.clause is None:
                assert g.lure == 0
            else:
                assert (g.lure > 0) == (g.clause == "bites")


def test_tempting_phantoms_exist_but_not_everywhere():
    """The model says which sets fool a player: some boards have tempting phantoms, not all their phantoms."""
    models = [board_difficulty(connections.generate(s, "flags")) for s in range(300)]
    phantoms = sum(len(m.phantoms) for m in models)
    tempting = sum(len(m.tempting) for m in models)
    assert 0 < tempting < phantoms
    assert any(not m.tempting for m in models)


def test_bad_boards(twin):
    board = connections.generate(3, "flags")
    with pytest.raises(TypeError, match="board must be a flagcore.connections.Board"):
        board_difficulty("not a board")
    other = connections.Group(0, "x", board.groups[0].codes, "no:such")
    bad = connections.Board(board.tiles, (other, *board.groups[1:]), 3, "flags")
    with pytest.raises(ValueError, match="'no:such' is not in the library"):
        board_difficulty(bad)
    alien = connections.Group(0, "x", ("ZZ", *board.groups[0].codes[1:]), board.groups[0].category_id)
    bad = connections.Board(("ZZ", *board.tiles[1:]), (alien, *board.groups[1:]), 3, "flags")
    with pytest.raises(ValueError, match="tile 'ZZ' is not a country"):
        board_difficulty(bad)


def test_every_bundled_category_has_an_entry_or_the_default():
    """Every category listed in difficulty.json exists; every other one gets default_salience[tier]."""
    doc = json.loads((bundled_path() / DATA_FILE).read_text(encoding="utf-8"))
    lib = load_library()
    cats = {c.id: c for mode in MODES for c in lib.categories(mode)}
    assert set(doc["categories"]) <= set(cats), "difficulty.json lists a category the library does not have"
    for cid, cat in cats.items():
        d = category_difficulty(cat, lib)
        entry = doc["categories"].get(cid)
        if entry is None:
            assert (d.salience, d.named, d.simpler, d.listed) == (doc["default_salience"][cat.tier], None, None, False)
        else:
            assert d.listed and d.salience == entry["salience"]
            if "named" in entry:
                # the named feature holds the category: dropping a clause only widens the set
                assert cat.pool <= d.named, cid
                assert d.simpler and d.simpler != cat.label


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_coloured_reads_the_same_figures_as_the_model(mode):
    # coloured() reads the kernel's rows directly; board_difficulty() builds the full model: the
    # colours, labels and counts must agree on every board
    for seed in range(60):
        board = generate(seed, mode, difficulty=None)
        model = board_difficulty(board)
        shown = coloured(board)
        order = model.order
        assert [g.category_id for g in shown.groups] == [board.groups[i].category_id for i in order]
        for colour, i in enumerate(order):
            g = model.groups[i]
            label = g.simpler_label if g.clause == "idle" and g.simpler_label else board.groups[i].label
            assert shown.groups[colour].label == label and shown.groups[colour].tier == colour
        assert shown.stats["model"]["tempting_phantoms"] == len(model.tempting)
        assert shown.stats["model"]["scores"] == [model.groups[i].score for i in order]


# Rules of more than one condition that are one idea to a player: a stripe direction with its
# count ("Three horizontal stripes"), two colours both present ("Has both black and yellow").
ONE_IDEA = {("stripe_count", "stripes"), ("colours",)}


def test_every_label_with_a_clause_has_its_simpler_label():
    # a group whose clause excludes nobody on the board is shown by its simpler label: that needs
    # the clause's data (difficulty.json "named" and "simpler") for every label with a clause
    doc = json.loads((bundled_path() / "categories.json").read_text(encoding="utf-8"))
    _, entries = difficulty_data()
    missing = [
        c["id"]
        for c in doc["categories"]
        if len(c["where"]) > 1
        and tuple(sorted(c["where"])) not in ONE_IDEA
        and "simpler" not in entries.get(c["id"], {})
    ]
    assert missing == []


def test_plain_clauses_are_marked_by_their_labels():
    """difficulty.json marks plain exactly the clauses that narrow to plain flags ("Only ...", "nothing
    else", "Two colours ..."): their lure does not hide the group (docs/difficulty.md)."""
    _, entries = difficulty_data()
    labels = {c.id: c.label for mode in MODES for c in _bundled().categories(mode)}
    for cid, entry in entries.items():
        label = labels[cid]
        narrows = label.startswith(("Only ", "Two colours")) or ", only " in label or "nothing else" in label
        assert bool(entry.get("plain")) == ("named" in entry and narrows), cid


def test_a_plain_clause_scores_no_lure(twin):
    """The same board scores a plain group's lure only when difficulty.json does not mark it plain."""
    for s in range(200):
        model = board_difficulty(generate(s, "flags"))
        for g in model.groups:
            d = category_difficulty(next(c for c in _bundled().categories("flags") if c.id == g.category_id))
            if d.plain and g.lure:
                assert g.score == SCORE_HIDDEN * (SALIENCE_MAX - g.salience) + SCORE_PULL * min(g.pulls, PULL_CAP)
                return
    pytest.fail("no flags board of seeds 0..199 has a plain group with a lure")


def test_a_named_set_holds_the_arguable_readings():
    # Malaysia's fourteen-pointed star arguably reads as a sun: on a board with Malaysia outside the
    # group, "A sun and no stripes" keeps its clause (plain "Has a sun with rays" would fit it too)
    lib = load_library()
    sun = next(c for c in lib.categories("flags") if c.id == "flag:sun-no-stripes")
    named = category_difficulty(sun, lib).named
    assert "MY" in named and "sun" not in lib.facts("MY")["features"]
    assert any("sun" in r["features"] for r in lib.readings("MY"))


@pytest.mark.parametrize("mode", ["flags", "trivia"])
def test_a_simpler_label_fits_no_other_tile_under_any_reading(mode):
    # a group shown by its simpler label: no tile of the board outside it carries what that label
    # names, under the main reading or an arguable one
    lib = load_library()
    cats = {c.id: c for c in lib.categories(mode)}
    _, entries = difficulty_data()
    shown = 0
    for seed in range(1500):
        board = generate(seed, mode)
        for g in board.groups:
            d = category_difficulty(cats[g.category_id], lib)
            if d.simpler is not None and g.label == d.simpler:
                shown += 1
                others = set(board.tiles) - set(g.codes)
                for code in others:
                    readings = [lib.facts(code), *lib.readings(code)]
                    assert not any(entries[g.category_id]["_rule"](f) for f in readings), (seed, g.label, code)
    assert shown > 50
