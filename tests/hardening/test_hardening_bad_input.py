"""One table of bad inputs across every public entry point.

Each row is (entry point, call, exception type, word the message must contain: the argument's
name). A row passes only if the call raises exactly TypeError or ValueError (a subclass such as
LibraryError or SvgRenderError counts) naming the argument: no crash, no hang, no silent
acceptance, no OverflowError/IndexError/KeyError leaking from inside. Rows run against the
compiled core and the reference twin wherever both exist, since both share one validation.

The per-module tests already probe their own functions; this table is the cross-cutting
inventory, and holds the regression rows for the bugs hardening found (marked "regression").
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from conftest import TWINS

import flagcore
from flagcore import _rng, _signatures, connections, library, puzzle, signatures
from flagcore.connections.batch import generate_many_with
from flagcore.connections.board import Board, Group
from flagcore.connections.search import generate_with
from flagcore.library import Category, Library, LibraryError
from flagcore.reference import connections as ref_connections
from flagcore.reference import rng as ref_rng
from flagcore.reference import signatures as ref_signatures

RNGS = {"core": _rng, "ref": ref_rng}
SIGS = {"core": _signatures, "ref": ref_signatures}
GENS = {"core": TWINS["compiled"]["connections"], "ref": ref_connections}

LIB = library.load_library()
BOARD = connections.generate(1)
IMAGE = np.zeros((96, 144, 4), dtype=np.uint8)
HUGE = 2**70


def _puzzle_game():
    return puzzle.new_game("FR", "easy", 1)


def _game():
    return connections.ConnectionsGame(BOARD)


def _board(**change):
    fields = {"tiles": BOARD.tiles, "groups": BOARD.groups, "seed": 1, "mode": "flags"}
    fields.update(change)
    return Board(**fields)


def _library_with(cat):
    return Library({c: c for c in LIB.codes}, {c: frozenset() for c in LIB.codes}, [cat], source="<t>")


# (id, call taking the implementation module (or None), exception, word in the message)
RNG_ROWS = [
    ("Rng seed float", lambda m: m.Rng(1.5), TypeError, "seed"),
    ("Rng seed None", lambda m: m.Rng(None), TypeError, "seed"),
    ("Rng seed bytes", lambda m: m.Rng(b"x"), TypeError, "seed"),
    ("Rng seed list", lambda m: m.Rng([1]), TypeError, "seed"),
    ("Rng seed negative", lambda m: m.Rng(-1), ValueError, "seed"),
    ("Rng seed huge", lambda m: m.Rng(HUGE), ValueError, "seed"),
    ("Rng seed numpy negative", lambda m: m.Rng(np.int64(-3)), ValueError, "seed"),
    ("below float (regression: core truncated it)", lambda m: m.Rng(1).below(2.5), TypeError, "bound"),
    ("below bool (regression)", lambda m: m.Rng(1).below(True), TypeError, "bound"),
    ("below str (regression: unnamed TypeError)", lambda m: m.Rng(1).below("3"), TypeError, "bound"),
    ("below None", lambda m: m.Rng(1).below(None), TypeError, "bound"),
    ("below zero", lambda m: m.Rng(1).below(0), ValueError, "bound"),
    ("below negative", lambda m: m.Rng(1).below(-5), ValueError, "bound"),
    ("below 2**32", lambda m: m.Rng(1).below(2**32), ValueError, "bound"),
    ("below huge", lambda m: m.Rng(1).below(HUGE), ValueError, "bound"),
    ("shuffle not iterable", lambda m: m.shuffle(5, m.Rng(1)), TypeError, "int"),
]

SIG_ROWS = [
    ("hash rgba str", lambda m: m.hash_pixel_data("abc"), TypeError, "rgba"),
    ("hash rgba list", lambda m: m.hash_pixel_data([1, 2, 3]), TypeError, "rgba"),
    ("hash rgba None", lambda m: m.hash_pixel_data(None), TypeError, "rgba"),
    ("hash rgba int8", lambda m: m.hash_pixel_data(np.zeros(8, np.int8)), TypeError, "rgba"),
    ("hash rgba float", lambda m: m.hash_pixel_data(np.zeros(8, np.float32)), TypeError, "rgba"),
    ("hash rgba memoryview 'b'", lambda m: m.hash_pixel_data(memoryview(b"abcd").cast("b")), TypeError, "rgba"),
    ("hash rgba numpy scalar", lambda m: m.hash_pixel_data(np.uint8(1)), TypeError, "rgba"),
    ("hash stride 0", lambda m: m.hash_pixel_data(b"abc", 0), ValueError, "stride"),
    ("hash stride negative", lambda m: m.hash_pixel_data(b"abc", -8), ValueError, "stride"),
    ("hash stride float", lambda m: m.hash_pixel_data(b"abc", 8.0), TypeError, "stride"),
    ("hash stride bool", lambda m: m.hash_pixel_data(b"abc", True), TypeError, "stride"),
    ("hash stride str", lambda m: m.hash_pixel_data(b"abc", "8"), TypeError, "stride"),
    ("tiles image list", lambda m: m.tile_signatures([[0]], 1, 1), TypeError, "image"),
    ("tiles image float", lambda m: m.tile_signatures(IMAGE.astype(float), 3, 2), TypeError, "image"),
    ("tiles image 2-D", lambda m: m.tile_signatures(IMAGE[:, :, 0], 3, 2), ValueError, "image"),
    ("tiles image RGB", lambda m: m.tile_signatures(IMAGE[:, :, :3], 3, 2), ValueError, "image"),
    ("tiles image 4-D", lambda m: m.tile_signatures(IMAGE[None], 3, 2), ValueError, "image"),
    ("tiles image empty", lambda m: m.tile_signatures(IMAGE[:0], 3, 2), ValueError, "tile interior"),
    ("tiles columns 0", lambda m: m.tile_signatures(IMAGE, 0, 2), ValueError, "columns"),
    ("tiles columns float", lambda m: m.tile_signatures(IMAGE, 3.0, 2), TypeError, "columns"),
    ("tiles columns huge", lambda m: m.tile_signatures(IMAGE, HUGE, 2), ValueError, "tile interior"),
    ("tiles rows negative", lambda m: m.tile_signatures(IMAGE, 3, -2), ValueError, "rows"),
    ("tiles rows None", lambda m: m.tile_signatures(IMAGE, 3, None), TypeError, "rows"),
    ("tiles inset negative", lambda m: m.tile_signatures(IMAGE, 3, 2, -1), ValueError, "inset"),
    ("tiles inset huge", lambda m: m.tile_signatures(IMAGE, 3, 2, HUGE), ValueError, "tile interior"),
    ("tiles inset str", lambda m: m.tile_signatures(IMAGE, 3, 2, "4"), TypeError, "inset"),
]

# Entry points with one implementation (their compiled parts are reached through them).
PUBLIC_ROWS = [
    ("shuffle rng None", lambda: flagcore.shuffle([1, 2], None), TypeError, "rng"),
    ("shuffle rng int", lambda: flagcore.shuffle([1, 2], 7), TypeError, "rng"),
    ("render svg None", lambda: signatures.render_flag(None, 3), TypeError, "svg_or_code"),
    ("render svg int", lambda: signatures.render_flag(7, 3), TypeError, "svg_or_code"),
    ("render code unknown", lambda: signatures.render_flag("ZZ", 3), ValueError, "code"),
    ("render code path", lambda: signatures.render_flag("../../etc/passwd", 3), ValueError, "code"),
    ("render code empty", lambda: signatures.render_flag("", 3), ValueError, "code"),
    ("render code NUL", lambda: signatures.render_flag("F\0", 3), ValueError, "code"),
    ("render columns 0", lambda: signatures.render_flag("FR", 0), ValueError, "columns"),
    ("render columns huge", lambda: signatures.render_flag("FR", HUGE), ValueError, "columns"),
    ("render columns 65", lambda: signatures.render_flag("FR", 65), ValueError, "columns"),
    ("render columns float", lambda: signatures.render_flag("FR", 3.0), TypeError, "columns"),
    ("render columns str", lambda: signatures.render_flag("FR", "3"), TypeError, "columns"),
    ("render svg garbage", lambda: signatures.render_flag(b"\x00\xff" * 50, 3), ValueError, "svg"),
    ("piece svg list", lambda: signatures.piece_signatures(["FR"], 3, 2), TypeError, "svg_or_code"),
    ("piece code unknown", lambda: signatures.piece_signatures("QQ", 3, 2), ValueError, "code"),
    ("piece code lower path", lambda: signatures.piece_signatures("fr/..", 3, 2), ValueError, "code"),
    ("piece columns 0", lambda: signatures.piece_signatures("FR", 0, 2), ValueError, "columns"),
    ("piece columns huge", lambda: signatures.piece_signatures("FR", HUGE, 2), ValueError, "columns"),
    ("piece rows 0", lambda: signatures.piece_signatures("FR", 3, 0), ValueError, "rows"),
    ("piece rows huge", lambda: signatures.piece_signatures("FR", 3, HUGE), ValueError, "rows"),
    ("piece rows bool", lambda: signatures.piece_signatures("FR", 3, True), TypeError, "rows"),
    ("piece rows float", lambda: signatures.piece_signatures("FR", 3, 2.0), TypeError, "rows"),
    ("flag_svg int", lambda: signatures.flag_svg(5), TypeError, "code"),
    ("flag_svg unknown", lambda: signatures.flag_svg("XX"), ValueError, "code"),
    ("generate seed float", lambda: connections.generate(1.0), TypeError, "seed"),
    ("generate seed None", lambda: connections.generate(None), TypeError, "seed"),
    ("generate seed negative", lambda: connections.generate(-1), ValueError, "seed"),
    ("generate seed huge", lambda: connections.generate(HUGE), ValueError, "seed"),
    ("generate mode int", lambda: connections.generate(1, 3), TypeError, "mode"),
    ("generate mode unknown", lambda: connections.generate(1, "flag"), ValueError, "mode"),
    ("generate mode empty", lambda: connections.generate(1, ""), ValueError, "mode"),
    ("generate decoy int", lambda: connections.generate(1, decoy=1), TypeError, "decoy"),
    ("generate legacy str", lambda: connections.generate(1, legacy="no"), TypeError, "legacy"),
    ("generate trace None", lambda: connections.generate(1, trace=None), TypeError, "trace"),
    ("generate library dict", lambda: connections.generate(1, library={}), TypeError, "library"),
    ("generate library str", lambda: connections.generate(1, library="flags/"), TypeError, "library"),
    (
        "generate library broken tier",
        lambda: connections.generate(
            1, library=_library_with(Category("x", "X", 7, "library", frozenset(LIB.codes[:8])))
        ),
        ValueError,
        "tier",
    ),
    (
        "generate library unknown codes",
        lambda: connections.generate(
            1, library=_library_with(Category("x", "X", 0, "library", frozenset(LIB.codes[:3]) | {"??"}))
        ),
        ValueError,
        "unknown",
    ),
    (
        "generate library unknown arguable codes",
        lambda: connections.generate(
            1,
            library=_library_with(
                Category("x", "X", 0, "library", frozenset(LIB.codes[:4]), arguable=frozenset({"??"}))
            ),
        ),
        ValueError,
        "arguable has unknown",
    ),
    (
        "generate library arguable list",
        lambda: connections.generate(
            1,
            library=_library_with(Category("x", "X", 0, "library", frozenset(LIB.codes[:4]), arguable=[LIB.codes[5]])),
        ),  # type: ignore[arg-type]
        ValueError,
        "arguable must be a frozenset",
    ),
    (
        "generate library arguable in pool",
        lambda: connections.generate(
            1,
            library=_library_with(
                Category("x", "X", 0, "library", frozenset(LIB.codes[:4]), arguable=frozenset(LIB.codes[:1]))
            ),
        ),
        ValueError,
        "both in the pool and arguable",
    ),
    ("generate_many seeds int", lambda: connections.generate_many(5), TypeError, "seeds"),
    ("generate_many seeds str", lambda: connections.generate_many("12"), TypeError, "seeds"),
    ("generate_many seeds None", lambda: connections.generate_many(None), TypeError, "seeds"),
    ("generate_many seeds set", lambda: connections.generate_many({1, 2, 3}), TypeError, "seeds"),
    ("generate_many seeds dict", lambda: connections.generate_many({1: 2}), TypeError, "seeds"),
    ("generate_many seed float", lambda: connections.generate_many([1, 2.5]), TypeError, r"seeds\[1\]"),
    ("generate_many seed huge", lambda: connections.generate_many([1, HUGE]), ValueError, r"seeds\[1\]"),
    ("generate_many array float", lambda: connections.generate_many(np.array([1.5])), TypeError, "seeds"),
    ("generate_many array 2-D", lambda: connections.generate_many(np.zeros((2, 2), np.int64)), ValueError, "seeds"),
    ("generate_many array negative", lambda: connections.generate_many(np.array([3, -1])), ValueError, "seeds"),
    (
        "generate_many array too big",
        lambda: connections.generate_many(np.array([2**32], np.uint64)),
        ValueError,
        "seeds",
    ),
    ("generate_many array bool", lambda: connections.generate_many(np.array([True])), TypeError, "seed"),
    ("generate_many threads 0", lambda: connections.generate_many([1], threads=0), ValueError, "threads"),
    ("generate_many threads float", lambda: connections.generate_many([1], threads=2.0), TypeError, "threads"),
    ("generate_many threads bool", lambda: connections.generate_many([1], threads=True), TypeError, "threads"),
    ("generate_many mode", lambda: connections.generate_many([1], "x"), ValueError, "mode"),
    ("generate_many decoy", lambda: connections.generate_many([1], decoy="yes"), TypeError, "decoy"),
    ("BoardBatch index str", lambda: connections.generate_many([1])["0"], TypeError, "indices"),
    ("check_guess groups None", lambda: connections.check_guess(None, BOARD.tiles[:4]), TypeError, "groups"),
    ("check_guess groups str", lambda: connections.check_guess("abcd", BOARD.tiles[:4]), TypeError, "groups"),
    ("check_guess selected str", lambda: connections.check_guess(BOARD.groups, "ABCD"), TypeError, "selected"),
    ("check_guess selected ints", lambda: connections.check_guess(BOARD.groups, [1, 2, 3, 4]), TypeError, "selected"),
    ("check_guess selected 3", lambda: connections.check_guess(BOARD.groups, BOARD.tiles[:3]), ValueError, "selected"),
    ("check_guess selected 5", lambda: connections.check_guess(BOARD.groups, BOARD.tiles[:5]), ValueError, "selected"),
    ("check_guess selected empty", lambda: connections.check_guess(BOARD.groups, []), ValueError, "selected"),
    (
        "check_guess duplicates",
        lambda: connections.check_guess(BOARD.groups, BOARD.tiles[:3] + BOARD.tiles[:1]),
        ValueError,
        "selected",
    ),
    ("check_guess huge", lambda: connections.check_guess(BOARD.groups, ["AA"] * 10**6), ValueError, "selected"),
    ("game board None", lambda: connections.ConnectionsGame(None), TypeError, "board"),
    (
        "game board dup tiles",
        lambda: connections.ConnectionsGame(_board(tiles=BOARD.tiles[:15] + BOARD.tiles[:1])),
        ValueError,
        "board",
    ),
    ("game board 3 groups", lambda: connections.ConnectionsGame(_board(groups=BOARD.groups[:3])), ValueError, "board"),
    ("game guess unknown code", lambda: _game().guess(["ZZ", "YY", "XX", "WW"]), ValueError, "codes"),
    ("game guess dict", lambda: _game().guess({"a": 1}), TypeError, "codes"),
    ("game guess duplicates", lambda: _game().guess([BOARD.tiles[0]] * 4), ValueError, "codes"),
    ("game shuffle rng float", lambda: _game().shuffle_remaining(1.5), TypeError, "rng"),
    ("game shuffle seed negative", lambda: _game().shuffle_remaining(-1), ValueError, "seed"),
    ("find_ambiguities board None", lambda: connections.find_ambiguities(None), TypeError, "board"),
    (
        "find_ambiguities foreign category",
        lambda: connections.find_ambiguities(
            _board(groups=(Group(0, "x", BOARD.groups[0].codes, "nope"),) + BOARD.groups[1:])
        ),
        ValueError,
        "board",
    ),
    ("find_ambiguities library", lambda: connections.find_ambiguities(BOARD, library=[]), TypeError, "library"),
    ("board_id None", lambda: connections.board_id(None), TypeError, "board"),
    ("encode seed float", lambda: connections.encode_board_id(1.5), TypeError, "seed"),
    ("encode mode", lambda: connections.encode_board_id(1, "x"), ValueError, "mode"),
    ("encode legacy", lambda: connections.encode_board_id(1, "flags", 1), TypeError, "legacy"),
    ("parse id None", lambda: connections.parse_board_id(None), TypeError, "board id"),
    ("parse id empty", lambda: connections.parse_board_id(""), ValueError, "board id"),
    ("parse id huge", lambda: connections.parse_board_id("0" * 10**6), ValueError, "board id"),
    ("parse id garbage", lambda: connections.parse_board_id("\0" * 13), ValueError, "board id"),
    ("from_board_id bad", lambda: connections.from_board_id("zzzzzzzzzzzzz"), ValueError, "board id"),
    ("daily int", lambda: connections.daily_seed(20260101), TypeError, "date"),
    ("daily bad date", lambda: connections.daily_seed("2026-02-30"), ValueError, "date"),
    ("daily format", lambda: connections.daily_seed("1/2/2026"), ValueError, "date"),
    ("daily huge", lambda: connections.daily_seed("9" * 10**5), ValueError, "date"),
    ("load_library int", lambda: library.load_library(5), TypeError, "path"),
    ("load_library bytes", lambda: library.load_library(b"/tmp"), TypeError, "path"),
    ("load_library missing", lambda: library.load_library("/nonexistent/flagcore"), LibraryError, "no such"),
    ("load_library not json", lambda: library.load_library("/dev/null"), LibraryError, "JSON"),
    ("Library.name unknown", lambda: LIB.name("ZZ"), ValueError, "code"),
    ("Library.name int", lambda: LIB.name(5), TypeError, "code"),
    ("Library.tags None", lambda: LIB.tags(None), TypeError, "code"),
    ("Library.facts list (regression: unnamed 'unhashable')", lambda: LIB.facts(["FR"]), TypeError, "code"),
    ("Library.name list (regression)", lambda: LIB.name(["FR"]), TypeError, "code"),
    ("Library.categories unknown", lambda: LIB.categories("x"), ValueError, "mode"),
    ("Library.categories list (regression)", lambda: LIB.categories(["flags"]), TypeError, "mode"),
    ("Library.categories dict", lambda: LIB.categories({}), TypeError, "mode"),
    ("count_cycles str", lambda: puzzle.count_cycles("0123"), TypeError, "tiles_by_slot"),
    ("count_cycles None", lambda: puzzle.count_cycles(None), TypeError, "tiles_by_slot"),
    ("count_cycles duplicates", lambda: puzzle.count_cycles([0, 0, 1]), ValueError, "tiles_by_slot"),
    ("count_cycles out of range", lambda: puzzle.count_cycles([0, 1, 5]), ValueError, "tiles_by_slot"),
    ("count_cycles negative", lambda: puzzle.count_cycles([0, -1]), ValueError, "tiles_by_slot"),
    ("count_cycles huge", lambda: puzzle.count_cycles([0, HUGE]), ValueError, "tiles_by_slot"),
    ("count_cycles floats", lambda: puzzle.count_cycles([0.0, 1.0]), TypeError, "tiles_by_slot"),
    ("count_cycles float array", lambda: puzzle.count_cycles(np.array([0.0, 1.0])), TypeError, "tiles_by_slot"),
    ("count_cycles bools", lambda: puzzle.count_cycles([True, False]), TypeError, "tiles_by_slot"),
    ("count_cycles 2-D", lambda: puzzle.count_cycles(np.zeros((2, 2), int)), ValueError, "tiles_by_slot"),
    (
        "count_cycles uint64 past int64",
        lambda: puzzle.count_cycles(np.array([2**63, 0], np.uint64)),
        ValueError,
        "tiles_by_slot",
    ),
    ("min_swaps_to_identity dup", lambda: puzzle.min_swaps_to_identity([1, 1]), ValueError, "tiles_by_slot"),
    ("is_strictly_solved str", lambda: puzzle.is_strictly_solved("01"), TypeError, "tiles_by_slot"),
    ("is_visually_solved sig length", lambda: puzzle.is_visually_solved([1, 0], [1, 2, 3]), ValueError, "signatures"),
    ("visual par sig length", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2, 3]), ValueError, "signatures"),
    ("visual par sig str", lambda: puzzle.min_swaps_to_visual_solve([1, 0], "ab"), TypeError, "signatures"),
    ("visual par sig float", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1.5, 2]), TypeError, "signatures"),
    (
        "visual par method",
        lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], method="fast"),
        ValueError,
        "method",
    ),
    ("visual par method int", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], method=1), ValueError, "method"),
    ("count_cycles_batch 1-D", lambda: puzzle.count_cycles_batch([0, 1]), ValueError, "boards"),
    (
        "count_cycles_batch ragged (regression: numpy's unnamed message)",
        lambda: puzzle.count_cycles_batch([[0, 1], [0]]),
        ValueError,
        "boards",
    ),
    ("count_cycles_batch duplicates", lambda: puzzle.count_cycles_batch([[0, 0]]), ValueError, "boards"),
    ("min_swaps_to_identity_batch str", lambda: puzzle.min_swaps_to_identity_batch("01"), TypeError, "boards"),
    (
        "min_swaps_batch sig rows",
        lambda: puzzle.min_swaps_batch([[1, 0]], np.zeros((2, 2), int)),
        ValueError,
        "signatures",
    ),
    (
        "min_swaps_batch sig 3-D",
        lambda: puzzle.min_swaps_batch([[1, 0]], np.zeros((1, 2, 2), int)),
        ValueError,
        "signatures",
    ),
    ("min_swaps_batch sig length", lambda: puzzle.min_swaps_batch([[1, 0]], [1, 2, 3]), ValueError, "signatures"),
    ("resolve_grid unknown", lambda: puzzle.resolve_grid("huge"), ValueError, "grid"),
    ("resolve_grid 0x3", lambda: puzzle.resolve_grid("0x3"), ValueError, "grid"),
    ("resolve_grid 1000x1000", lambda: puzzle.resolve_grid("1000x1000"), ValueError, "grid"),
    ("resolve_grid float", lambda: puzzle.resolve_grid((3.0, 2)), TypeError, "grid"),
    ("resolve_grid None", lambda: puzzle.resolve_grid(None), TypeError, "grid"),
    ("new_game flag unknown", lambda: puzzle.new_game("ZZ", "easy", 1), ValueError, "code"),
    ("new_game flag path", lambda: puzzle.new_game("../x", "easy", 1), ValueError, "flag"),
    ("new_game int", lambda: puzzle.new_game(5, "easy", 1), TypeError, "flag_or_signatures"),
    ("new_game signature count", lambda: puzzle.new_game([1, 2], "easy", 1), ValueError, "flag_or_signatures"),
    ("new_game seed float", lambda: puzzle.new_game(None, "easy", 1.5), TypeError, "seed"),
    ("new_game seed negative", lambda: puzzle.new_game(None, "easy", -1), ValueError, "seed"),
    ("new_game grid", lambda: puzzle.new_game(None, "1x1", 1), ValueError, "grid"),
    ("swap float", lambda: _puzzle_game().swap(0.0, 1), TypeError, "slot a"),
    ("swap bool", lambda: _puzzle_game().swap(0, True), TypeError, "slot b"),
    ("swap outside", lambda: _puzzle_game().swap(0, 99), ValueError, "slot b"),
    ("swap huge", lambda: _puzzle_game().swap(HUGE, 0), ValueError, "slot a"),
    ("swap same slot", lambda: _puzzle_game().swap(1, 1), ValueError, "slot"),
    ("verify log str", lambda: puzzle.verify([1, 0], "xx", None), TypeError, "swaps"),
    ("verify log triple", lambda: puzzle.verify([1, 0], [(0, 1, 2)], None), ValueError, "swaps"),
    ("verify log floats", lambda: puzzle.verify([1, 0], [(0.0, 1.0)], None), TypeError, "swaps"),
    ("verify log outside", lambda: puzzle.verify([1, 0], [(0, 5)], None), ValueError, "swaps"),
    ("verify unsolved", lambda: puzzle.verify([1, 0, 2], [], None), ValueError, "solve"),
    ("verify start dup", lambda: puzzle.verify([0, 0], [], None), ValueError, "start_tiles_by_slot"),
    ("background_percent float", lambda: puzzle.background_percent(0.5, 3), TypeError, "index"),
    ("background_percent outside", lambda: puzzle.background_percent(5, 3), ValueError, "index"),
    ("background_percent negative", lambda: puzzle.background_percent(-1, 3), ValueError, "index"),
]


def _expect(call, exc, word):
    with pytest.raises(exc, match=word) as info:
        call()
    # exactly the documented families: never OverflowError, IndexError, KeyError, ...
    assert isinstance(info.value, (TypeError, ValueError)), type(info.value)
    assert not isinstance(info.value, (OverflowError, IndexError, KeyError)), type(info.value)


@pytest.mark.parametrize("impl", list(RNGS))
@pytest.mark.parametrize("name,call,exc,word", RNG_ROWS, ids=[r[0] for r in RNG_ROWS])
def test_rng_bad_input(impl, name, call, exc, word):
    _expect(lambda: call(RNGS[impl]), exc, word)


@pytest.mark.parametrize("impl", list(SIGS))
@pytest.mark.parametrize("name,call,exc,word", SIG_ROWS, ids=[r[0] for r in SIG_ROWS])
def test_signature_hash_bad_input(impl, name, call, exc, word):
    _expect(lambda: call(SIGS[impl]), exc, word)


@pytest.mark.parametrize("name,call,exc,word", PUBLIC_ROWS, ids=[r[0] for r in PUBLIC_ROWS])
def test_public_bad_input(name, call, exc, word):
    _expect(call, exc, word)


@pytest.mark.parametrize("impl", list(GENS))
@pytest.mark.parametrize(
    "seed,exc", [(1.5, TypeError), (-1, ValueError), (HUGE, ValueError), (b"1", TypeError), (None, TypeError)]
)
def test_generator_twins_reject_the_same_seeds(impl, seed, exc):
    with pytest.raises(exc, match="seed"):
        generate_with(GENS[impl], seed)
    with pytest.raises(exc, match="seed"):
        generate_many_with(GENS[impl], [0, seed])


# regression: a stride near 2**63 overflowed the compiled loop's Py_ssize_t offset (segfault),
# and one >= 2**63 raised OverflowError; any stride past the buffer samples byte 0 only.
@pytest.mark.parametrize("impl", list(SIGS))
@pytest.mark.parametrize("stride", [6, 7, 2**40, 2**62, 2**63 - 1, 2**63, 2**64, HUGE])
def test_huge_stride_is_one_sample(impl, stride):
    data = bytes(range(6))
    assert SIGS[impl].hash_pixel_data(data, stride) == SIGS[impl].hash_pixel_data(data[:3], 3)


def test_odd_but_valid_inputs_are_accepted_identically():
    # Accepted on purpose (any integer dtype, any layout): reversed views, read-only
    # broadcasts and numpy integers give the same results in the core and the twin.
    flipped = np.ascontiguousarray(np.arange(96 * 144 * 4, dtype=np.uint32).astype(np.uint8).reshape(96, 144, 4))[::-1]
    ro = np.broadcast_to(np.arange(4, dtype=np.uint8), (40, 40, 4))
    for image, c, r in [(flipped, np.int16(3), np.uint8(2)), (ro, 2, 2)]:
        assert _signatures.tile_signatures(image, c, r) == ref_signatures.tile_signatures(image, c, r)
    assert _rng.Rng(1).below(np.uint32(10)) == ref_rng.Rng(1).below(np.uint32(10))
    assert connections.generate(np.int64(3)) == connections.generate(3)
    assert connections.daily_seed(dt.datetime(2026, 1, 2, 23, 59)) == "daily:2026-01-02"


def test_rejected_swap_leaves_the_puzzle_unchanged():
    game = _puzzle_game()
    game.swap(0, 1)
    before = (game.tiles_by_slot, game.swap_count, list(game.moves))
    for a, b in ((0, 0), (0, 99), (-1, 2), (0.0, 1), (None, 1), ("0", 1)):
        with pytest.raises((TypeError, ValueError)):
            game.swap(a, b)
    assert (game.tiles_by_slot, game.swap_count, game.moves) == before


def test_rejected_guess_leaves_the_game_unchanged():
    game = _game()
    wrong = [g.codes[0] for g in BOARD.groups]
    game.guess(wrong)
    before = (game.mistakes, game.remaining_tiles, game.guesses, game.solved_groups)
    for bad in (["ZZ"] * 4, BOARD.tiles[:3], None, "ABCD", [1, 2, 3, 4]):
        with pytest.raises((TypeError, ValueError)):
            game.guess(bad)
    assert (game.mistakes, game.remaining_tiles, game.guesses, game.solved_groups) == before


@pytest.mark.parametrize("impl", list(RNGS))
def test_rejected_below_leaves_the_state_alone(impl):
    # regression (found by fuzz/run.py): the twin drew before validating the bound
    rng = RNGS[impl].Rng(5)
    for bad in (0, 2.5, None, 2**32):
        with pytest.raises((TypeError, ValueError), match="bound"):
            rng.below(bad)
    assert rng.state == RNGS[impl].Rng(5).state
