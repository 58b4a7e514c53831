"""Connections generator: core == reference twin, board invariants, fixed vs legacy, batches, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from connections_libraries import random_library
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _connections as core
from flagcore import connections
from flagcore.connections.batch import generate_many_with
from flagcore.connections.search import generate_with
from flagcore.connections.tables import tables_for
from flagcore.library import Category, Library, LibraryError
from flagcore.reference import connections as ref
from flagcore.reference.rng import seed_to_state

MODES = ("flags", "trivia")
LIB = random_library(1)
# Sparser pools, closer to real flag data: legacy and fixed both find boards for every seed.
SPARSE = random_library(7, n_codes=120, per_tier=(8, 8, 10, 4), tags_per_tier=(3, 3, 4, 4), pool_range=(5, 14))


def both(seed, mode="flags", **kw):
    """(core board or None, reference board or None): None when NoBoardError."""
    out = []
    for impl in (core, ref):
        try:
            out.append(generate_with(impl, seed, mode, **kw))
        except connections.NoBoardError:
            out.append(None)
    return out


def assert_same(a, b):
    assert (a is None) == (b is None)
    if a is not None:
        assert a == b
        assert a.to_dict(reveal=True) == b.to_dict(reveal=True)
        assert a.stats == b.stats
        assert a.events == b.events


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("mode", MODES)
def test_parity_many_seeds(mode, legacy):
    """2,000 seeds per mode and variant, traced (the 10,000-seed run: see test_connections_generator_parity)."""
    for seed in range(2000):
        a, b = both(seed, mode, library=SPARSE, legacy=legacy, trace=seed % 10 == 0)
        assert_same(a, b)


@settings(max_examples=60, deadline=None)
@given(
    lib_seed=st.integers(0, 10**6),
    seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=20)),
    mode=st.sampled_from(MODES),
    legacy=st.booleans(),
    decoy=st.booleans(),
)
def test_parity_random_libraries(lib_seed, seed, mode, legacy, decoy):
    lib = random_library(lib_seed, n_codes=40 + lib_seed % 200)
    a, b = both(seed, mode, library=lib, legacy=legacy, decoy=decoy, trace=True)
    assert_same(a, b)


@settings(max_examples=80, deadline=None)
@given(
    lib_seed=st.integers(0, 10**6),
    seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=20)),
    mode=st.sampled_from(MODES),
    legacy=st.booleans(),
    decoy=st.booleans(),
    most=st.integers(0, 12),
)
def test_parity_random_libraries_with_arguable_sets(lib_seed, seed, mode, legacy, decoy, most):
    """Core == reference on libraries whose categories carry arguable sets, and the fixed boards keep
    every tile out of the pool and the arguable set of every other group."""
    lib = random_library(lib_seed, n_codes=80 + lib_seed % 200, arguable_range=(0, most))
    a, b = both(seed, mode, library=lib, legacy=legacy, decoy=decoy, trace=True)
    assert_same(a, b)
    if a is not None and not legacy:
        assert connections.find_ambiguities(a, lib) == []
        assert a.stats["ambiguous_tiles"] == a.stats["arguable_tiles"] == 0
    if a is not None:
        found = connections.find_ambiguities(a, lib)
        assert a.stats["ambiguous_tiles"] == len({x.tile for x in found if x.kind == "rule"})
        assert a.stats["arguable_tiles"] == len({x.tile for x in found if x.kind == "arguable"})


@pytest.mark.parametrize("legacy", [False, True])
def test_batch_equals_boards_with_arguable_sets(legacy):
    lib = random_library(11, n_codes=150, arguable_range=(2, 10))
    for mode in MODES:
        batch = connections.generate_many(
            list(range(300)), mode, library=lib, legacy=legacy, threads=2, difficulty=None
        )
        ref_batch = generate_many_with(ref, list(range(300)), mode, library=lib, legacy=legacy, difficulty=None)
        for name in ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous", "arguable"):
            assert np.array_equal(getattr(batch, name), getattr(ref_batch, name)), name
        assert batch.ok.any()
        for i in np.flatnonzero(batch.ok)[:100]:
            b = batch[int(i)]
            assert b == connections.generate(int(i), mode, library=lib, legacy=legacy, difficulty=None)
            assert b.stats["arguable_tiles"] == batch.arguable[i]
        if not legacy:
            assert not batch.ambiguous.any() and not batch.arguable.any()


def check_board(board, lib, mode):
    cats = {c.id: c for c in lib.categories(mode)}
    assert len(board.tiles) == 16 and len(set(board.tiles)) == 16
    assert sorted(board.tiles) == sorted(x for g in board.groups for x in g.codes)
    assert [g.tier for g in board.groups] == [0, 1, 2, 3]
    used_tags = [cats[g.category_id].tag for g in board.groups if cats[g.category_id].kind == "synthetic"]
    assert len(set(used_tags)) == len(used_tags)
    model = board.stats.get("model")
    for g in board.groups:
        cat = cats[g.category_id]
        # a steered board is coloured by the model: colour t shows the search's tier search_tiers[t]
        assert cat.tier == (model["search_tiers"][g.tier] if model else g.tier) and cat.label == g.label
        assert set(g.codes) <= cat.certain
    assert "pool" not in str(board.to_dict(reveal=True))
    view = board.to_dict()  # the client's view: nothing that gives the groups away
    assert view == {"mode": mode, "tiles": list(board.tiles)}


@pytest.mark.parametrize("mode", MODES)
def test_fixed_boards_are_valid_and_never_ambiguous(mode):
    for seed in range(500):
        board = connections.generate(seed, mode, library=LIB)
        check_board(board, LIB, mode)
        assert connections.find_ambiguities(board, LIB) == []
        assert board.stats["ambiguous_tiles"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_legacy_reproduces_ambiguity(mode):
    """The spec's generator on the same data makes ambiguous boards; find_ambiguities agrees with the core."""
    n_amb = 0
    for seed in range(300):
        board = connections.generate(seed, mode, library=LIB, legacy=True)
        check_board(board, LIB, mode)
        found = connections.find_ambiguities(board, LIB)
        assert board.stats["ambiguous_tiles"] == len({a.tile for a in found})
        for a in found:
            assert a.tile in board.tiles and a.tile not in a.group.codes and a.kind == "rule"
        n_amb += bool(found)
    assert n_amb > 0


def test_find_ambiguities_records():
    lib = LIB
    board = connections.generate(3, library=lib, legacy=True)
    pools = {c.id: c.pool for c in lib.categories("flags")}
    expected = [
        (t, h, "rule", ())
        for g in board.groups
        for t in g.codes
        for h in board.groups
        if h is not g and t in pools[h.category_id]
    ]
    assert [tuple(a) for a in connections.find_ambiguities(board, lib)] == expected


def test_find_ambiguities_reports_both_kinds():
    """A legacy board on a library with arguable sets: every (tile, other group) pair is reported once,
    as "rule" when the tile certainly fits that group, "arguable" (with the category's reasons) when
    it is in its arguable set or a doubtful code of its pool."""
    lib = random_library(5, n_codes=100, arguable_range=(5, 15))
    cats = {c.id: c for c in lib.categories("flags")}
    kinds = set()
    for seed in range(200):
        board = connections.generate(seed, library=lib, legacy=True)
        expected = []
        for g in board.groups:
            for t in g.codes:
                for h in board.groups:
                    cat = cats[h.category_id]
                    if h is g:
                        continue
                    if t in cat.doubtful:
                        expected.append((t, h, "arguable", (f"doubt {t}",)))
                    elif t in cat.pool:
                        expected.append((t, h, "rule", ()))
                    elif t in cat.arguable:
                        expected.append((t, h, "arguable", (f"reason {t}",)))
        found = connections.find_ambiguities(board, lib)
        assert [tuple(a) for a in found] == expected
        kinds |= {a.kind for a in found}
    assert kinds == {"rule", "arguable"}


def test_empty_arguable_sets_change_nothing():
    """Empty arguable sets give the very boards of the pools alone."""
    plain = random_library(3, n_codes=120)
    empty = Library(
        {c: c for c in plain.codes},
        {c: plain.tags(c) for c in plain.codes},
        [
            Category(c.id, c.label, c.tier, c.kind, c.pool, c.modes, c.tag, arguable=frozenset())
            for c in plain._categories
        ],
    )
    for seed in range(200):
        assert connections.generate(seed, library=plain) == connections.generate(seed, library=empty)


def test_decoy_chance_and_option():
    """About a quarter of boards get a decoy; decoy=False changes only the decoy itself (in the search
    alone: a steered board may pick another of its searches when the decoy changes its phantoms)."""
    applied = 0
    for seed in range(400):
        with_decoy = connections.generate(seed, library=SPARSE, difficulty=None)
        without = connections.generate(seed, library=SPARSE, decoy=False, difficulty=None)
        assert without.stats["decoy_applied"] is False
        if with_decoy.stats["decoy_applied"]:
            applied += 1
            d = with_decoy.stats["decoy"]
            g = with_decoy.groups[d["tier"]]
            assert d["added"] in g.codes and d["removed"] not in with_decoy.tiles
            assert without.groups[d["tier"]].codes == tuple(d["removed"] if c == d["added"] else c for c in g.codes)
        else:
            assert with_decoy == without
    assert 60 < applied < 140


def test_string_seed_is_its_fnv_state():
    a = connections.generate("daily:2026-11-29", library=LIB)
    b = connections.generate(seed_to_state("daily:2026-11-29"), library=LIB)
    assert a.seed == "daily:2026-11-29" and a.tiles == b.tiles and a.groups == b.groups
    assert connections.generate(np.uint32(5), library=LIB) == connections.generate(5, library=LIB)


def test_trace_events_tell_the_search():
    board = connections.generate(12, library=SPARSE, legacy=True, trace=True)
    events = board.events
    kinds = [e["event"] for e in events]
    assert kinds.count("try") == board.stats["moves_tried"]
    assert kinds.count("undo") == board.stats["backtracks"]
    assert kinds.count("skip") == sum(board.stats["skips"].values())
    assert kinds.count("decoy") == int(board.stats["decoy_applied"])
    assert connections.generate(12, library=SPARSE, legacy=True).events is None


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("mode", MODES)
def test_trace_replay(mode, legacy):
    """Replay each trace with the spec's own state (flat sets / refcounts) and check every decision."""
    cats = {c.id: c for c in SPARSE.categories(mode)}
    for seed in range(150):
        board = connections.generate(seed, mode, library=SPARSE, legacy=legacy, trace=True)
        used: set[str] = set()
        forbidden: set[str] = set()
        stack: list[tuple[str, list[str], set[str]]] = []
        for e in board.events:
            if e["event"] in ("enter", "backtrack"):
                assert e["depth"] == len(stack)
            if e["event"] not in ("skip", "place"):
                if e["event"] == "undo":
                    cid, four, spill = stack.pop()
                    used -= set(four)
                    forbidden -= spill
                continue
            cat = cats[e["category_id"]]
            others = [cats[c] for c, _, _ in stack]
            if legacy:
                free = [x for x in cat.pool if x not in used and x not in forbidden]
                reason = (
                    "tag_on_board"
                    if cat.kind == "synthetic" and used & cat.pool
                    else None
                    if len(free) >= 4
                    else "too_few_available"
                    if cat.kind == "synthetic"
                    else "too_few_pickable"
                )
            else:
                own = cat.pool - set().union(*(o.pool for o in others))
                crowded = any(
                    len(o.pool - cat.pool - set().union(*(p.pool for p in others if p is not o))) < 4 for o in others
                )
                reason = "too_few_exclusive" if len(own) < 4 else "crowds_placed" if crowded else None
            if e["event"] == "skip":
                assert e["reason"] == reason
            else:
                assert reason is None
                four = e.get("codes", [])
                assert set(four) <= set(free) if legacy else e["exclusive"] == len(own)
                used |= set(four)
                spill = cat.pool - set(four)
                forbidden |= spill
                stack.append((cat.id, four, spill))
        assert [c for c, _, _ in stack] == [g.category_id for g in board.groups]


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("legacy", [False, True])
def test_generate_many_matches_generate(threads, legacy):
    seeds = list(range(1500)) + ["a", "daily:2026-11-29", 2**32 - 1]
    batch = connections.generate_many(seeds, "trivia", threads=threads, library=SPARSE, legacy=legacy, difficulty=None)
    assert len(batch) == len(seeds)
    for i in list(range(0, 1500, 37)) + [-3, -2, -1]:
        # difficulty=None: the search alone (docs/difficulty.md)
        one_board = connections.generate(seeds[i], "trivia", library=SPARSE, legacy=legacy, difficulty=None)
        assert batch[i] == one_board
        assert batch[i].stats == one_board.stats
    one = connections.generate_many(seeds, "trivia", threads=1, library=SPARSE, legacy=legacy, difficulty=None)
    for name in ("status", "categories", "group_tiles", "tiles", "decoys", "counters", "ambiguous"):
        assert np.array_equal(getattr(batch, name), getattr(one, name))


def test_generate_many_numpy_seeds_and_reference():
    seeds = np.arange(300, dtype=np.int64)
    batch = connections.generate_many(seeds, library=LIB, threads=2, difficulty=None)
    twin = generate_many_with(ref, seeds, library=LIB, difficulty=None)
    assert batch[:] == twin[:] == [connections.generate(int(s), library=LIB, difficulty=None) for s in seeds]
    assert batch[5].seed == 5 and type(batch[5].seed) is int
    assert len(connections.generate_many([], library=LIB)) == 0
    assert batch.ok.all() and batch.moves_tried.min() >= 4
    assert set(np.unique(batch.decoy_applied)) <= {False, True}


def test_reference_generate_is_the_twin():
    assert generate_with(ref, 77, "trivia", library=LIB, legacy=True) == connections.generate(
        77, "trivia", library=LIB, legacy=True
    )


def test_tables_cached_per_library_and_mode():
    t1, _ = tables_for(core, LIB, "flags")
    t2, _ = tables_for(core, LIB, "flags")
    t3, _ = tables_for(ref, LIB, "flags")
    assert t1 is t2 is t3
    assert tables_for(core, LIB, "trivia")[0] is not t1


def test_large_library_beyond_256_codes():
    lib = random_library(3, n_codes=600, per_tier=(5, 5, 5, 5), tags_per_tier=(2, 2, 2, 2), pool_range=(5, 30))
    for seed in range(100):
        a, b = both(seed, "trivia", library=lib, legacy=seed % 2 == 1, trace=True)
        assert_same(a, b)
        assert a is not None and max(lib.codes.index(t) for t in a.tiles) >= 0


# --------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "seed, exc",
    [
        (-1, ValueError),
        (2**32, ValueError),
        (1.5, TypeError),
        (None, TypeError),
        (True, TypeError),
        (b"x", TypeError),
        ([1], TypeError),
    ],
)
def test_bad_seed(seed, exc):
    with pytest.raises(exc, match="seed"):
        connections.generate(seed, library=LIB)


@pytest.mark.parametrize("mode, exc", [("hard", ValueError), ("", ValueError), (None, TypeError), (1, TypeError)])
def test_bad_mode(mode, exc):
    with pytest.raises(exc, match="mode"):
        connections.generate(1, mode, library=LIB)
    with pytest.raises(exc, match="mode"):
        connections.generate_many([1], mode, library=LIB)


def test_bad_options():
    with pytest.raises(TypeError, match="library"):
        connections.generate(1, library={"codes": []})
    for name in ("decoy", "legacy", "trace"):
        with pytest.raises(TypeError, match=name):
            connections.generate(1, library=LIB, **{name: 1})
    with pytest.raises(TypeError, match="seeds"):
        connections.generate_many("1234", library=LIB)
    with pytest.raises(TypeError, match="seeds"):
        connections.generate_many(5, library=LIB)
    with pytest.raises(TypeError, match=r"seeds\[1\]"):
        connections.generate_many([1, 2.0], library=LIB)
    with pytest.raises(ValueError, match="seeds"):
        connections.generate_many(np.array([1, -4]), library=LIB)
    with pytest.raises(ValueError, match="seeds"):
        connections.generate_many(np.array([[1]]), library=LIB)
    with pytest.raises(ValueError, match="threads"):
        connections.generate_many([1], library=LIB, threads=0)
    with pytest.raises(TypeError, match="threads"):
        connections.generate_many([1], library=LIB, threads=1.0)
    with pytest.raises(TypeError, match="board"):
        connections.find_ambiguities("board", LIB)


def test_broken_categories_named():
    good = Category("ok", "Fine", 0, "library", frozenset("ABCD"))
    lib = Library({c: c for c in "ABCDE"}, {}, [good, Category("s", "Tagless", 1, "synthetic", frozenset("ABCE"))])
    with pytest.raises(LibraryError, match="'s'.*tag"):
        connections.generate(1, library=lib)
    # a Library mutated after its own checks ran
    lib2 = Library({c: c for c in "ABCDE"}, {}, [good])
    lib2._categories.append(Category("bad", "Bad", 2, "library", frozenset("ABCZ")))
    with pytest.raises(LibraryError, match="'bad'.*unknown codes"):
        connections.generate(1, library=lib2)
    lib3 = Library({c: c for c in "ABCDE"}, {}, [good])
    lib3._categories.append(Category("t", "Tier", 7, "library", frozenset("ABCD")))
    with pytest.raises(LibraryError, match="'t'.*tier"):
        connections.generate(1, library=lib3)


def test_board_from_foreign_library_rejected():
    board = connections.generate(1, library=LIB)
    with pytest.raises(ValueError, match="not in the library"):
        connections.find_ambiguities(
            board, Library({c: c for c in "ABCD"}, {}, [Category("other", "Other", 0, "library", frozenset("ABCD"))])
        )


def test_generate_from_many_threads_at_once():
    """A threaded server: generate() and generate_many() called concurrently give the serial results."""
    from concurrent.futures import ThreadPoolExecutor

    fresh = random_library(11)  # a library whose tables are compiled under the race
    seeds = list(range(400))
    serial = [connections.generate(s, "trivia", library=random_library(11)) for s in seeds]
    # a batch of the search alone (difficulty=None) beside generate's default, steered by the model
    alone = [connections.generate(s, "trivia", library=random_library(11), difficulty=None) for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        boards = list(pool.map(lambda s: connections.generate(s, "trivia", library=fresh), seeds))
        batches = list(
            pool.map(
                lambda k: connections.generate_many(seeds, "trivia", library=fresh, threads=2, difficulty=None)[:],
                range(3),
            )
        )
    assert boards == serial
    assert all(b == alone for b in batches)
