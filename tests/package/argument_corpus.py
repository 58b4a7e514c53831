"""Bad inputs to the public API, one per validation path of flagcore._args: the corpus that
test_argument_errors.py replays on both twins.

Each case is (name, call). ``argument_corpus.json`` holds, for every name, the exception type
and message each twin raised when the corpus was captured on main, before the argument errors
became ``ArgumentError``/``ArgumentTypeError``: the messages must not change. Regenerate it only
when a message is meant to change:

    python tests/package/argument_corpus.py > tests/package/argument_corpus.json
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

import flagcore
from flagcore import _impl, connections, puzzle, season, signatures
from flagcore._args import cli as a_cli
from flagcore._args import common as a_common
from flagcore._args import connections as a_conn
from flagcore._args import puzzle as a_puzzle
from flagcore._args import review as a_review
from flagcore._args import season as a_season
from flagcore._args import secret as a_secret
from flagcore._args import signatures as a_sig
from flagcore._args import store as a_store
from flagcore.library import load_library

Case = tuple[str, Callable[[], Any]]
IMAGE = np.zeros((32, 48, 4), dtype=np.uint8)


def _raise(exc: BaseException) -> NoReturn:
    """Raise an error a rule builds for its caller to raise (verify's, the CLI's)."""
    raise exc


# fifteen fixed codes: the shape check's message names the tiles, so they must not come from a seed
# (a data change moves a seed's board, and the recorded message with it)
FIFTEEN_TILES = ("AD", "AE", "AF", "AG", "AL", "AM", "AO", "AR", "AT", "AU", "AZ", "BA", "BB", "BD", "BE")


def _board() -> connections.Board:
    return connections.generate(7, difficulty=None)


def _game() -> connections.ConnectionsGame:
    return connections.ConnectionsGame(_board())


def _over_game() -> connections.ConnectionsGame:
    game = _game()
    for group in game.board.groups:
        game.guess(group.codes)
    return game


def _guess_off_board() -> Any:
    game = _game()
    return game.guess(["ZZ", "YY", "XX", "WW"])


def _guess_solved() -> Any:
    game = _game()
    g = game.board.groups[0]
    game.guess(g.codes)
    other = [c for c in game.board.tiles if c not in g.codes][:3]
    return game.guess([g.codes[0], *other])


def _puzzle_game(solved: bool = False) -> puzzle.PuzzleGame:
    game = puzzle.new_game(None, grid=(3, 2), seed=5)
    if solved:
        while not game.solved:
            tiles = game.tiles_by_slot
            slot = next(i for i, t in enumerate(tiles) if t != i)
            game.swap(slot, tiles.index(slot))
    return game


def _tampered_id() -> str:
    good = connections.board_id(_board())
    last = "0" if good[-1] != "0" else "1"
    return good[:-1] + last


def _id_of(seed: int, version: int, flags: int) -> str:
    body = seed.to_bytes(4, "big") + bytes([version, flags])
    value = int.from_bytes(body + a_conn.id_checksum(body).to_bytes(2, "big"), "big")
    return a_conn.base32_encode(value, a_conn.ID_LENGTH)


def _altered(**fields: Any) -> connections.Board:
    return dataclasses.replace(_board(), **fields)


def _foreign_tile() -> connections.Board:
    board = _board()
    g = board.groups[0]
    foreign = dataclasses.replace(g, codes=("QQ", *g.codes[1:]))
    tiles = tuple("QQ" if t == g.codes[0] else t for t in board.tiles)
    return dataclasses.replace(board, tiles=tiles, groups=(foreign, *board.groups[1:]))


def _unknown_category() -> connections.Board:
    board = _board()
    g = dataclasses.replace(board.groups[0], category_id="no-such-category")
    return dataclasses.replace(board, groups=(g, *board.groups[1:]))


def _batch_index(i: Any) -> Any:
    return connections.generate_many([1, 2])[i]


PUZZLE: list[Case] = [
    ("count_cycles None", lambda: puzzle.count_cycles(None)),  # type: ignore[arg-type]
    ("count_cycles str", lambda: puzzle.count_cycles("012")),
    ("count_cycles dict", lambda: puzzle.count_cycles({0: 1})),  # type: ignore[arg-type]
    ("count_cycles 2-D", lambda: puzzle.count_cycles(np.zeros((2, 2), dtype=np.int32))),
    ("count_cycles float array", lambda: puzzle.count_cycles(np.zeros(3))),
    ("count_cycles not iterable", lambda: puzzle.count_cycles(5)),  # type: ignore[arg-type]
    ("count_cycles float item", lambda: puzzle.count_cycles([0, 1.0])),  # type: ignore[list-item]
    ("count_cycles bool item", lambda: puzzle.count_cycles([True, 0])),
    ("count_cycles out of range", lambda: puzzle.count_cycles([0, 5])),
    ("count_cycles negative", lambda: puzzle.count_cycles([-1, 0])),
    ("count_cycles repeat", lambda: puzzle.count_cycles([0, 0])),
    ("count_cycles repeat array", lambda: puzzle.count_cycles(np.array([1, 1, 0]))),
    ("min_swaps_to_identity repeat", lambda: puzzle.min_swaps_to_identity([1, 1])),
    ("min_swaps_to_identity str", lambda: puzzle.min_swaps_to_identity("ab")),
    ("is_strictly_solved None item", lambda: puzzle.is_strictly_solved([0, None])),  # type: ignore[list-item]
    ("is_visually_solved short signatures", lambda: puzzle.is_visually_solved([0, 1, 2], [1, 2])),
    ("is_visually_solved str signatures", lambda: puzzle.is_visually_solved([0, 1], "ab")),
    ("is_visually_solved float signature", lambda: puzzle.is_visually_solved([0, 1], [1, 2.5])),  # type: ignore[list-item]
    ("is_visually_solved bad board", lambda: puzzle.is_visually_solved([0, 0], [1, 1])),
    ("min_swaps method", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], method="fast")),
    ("min_swaps max_nodes 0", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], max_nodes=0)),
    ("min_swaps max_nodes str", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], max_nodes="9")),  # type: ignore[arg-type]
    ("min_swaps max_nodes float", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], max_nodes=1.5)),  # type: ignore[arg-type]
    ("min_swaps max_nodes bool", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1, 2], max_nodes=True)),
    ("min_swaps enumerate bad board", lambda: puzzle.min_swaps_to_visual_solve([2, 0], [1, 2], method="enumerate")),
    ("min_swaps bad signatures", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [1])),
    ("count_cycles_batch None", lambda: puzzle.count_cycles_batch(None)),
    ("count_cycles_batch str", lambda: puzzle.count_cycles_batch("01")),
    ("count_cycles_batch ragged", lambda: puzzle.count_cycles_batch([[0, 1], [0]])),
    ("count_cycles_batch 1-D", lambda: puzzle.count_cycles_batch(np.arange(3))),
    ("count_cycles_batch float", lambda: puzzle.count_cycles_batch(np.zeros((2, 2)))),
    ("count_cycles_batch out of range", lambda: puzzle.count_cycles_batch([[0, 1], [0, 2]])),
    ("count_cycles_batch repeat", lambda: puzzle.count_cycles_batch([[0, 1], [1, 1]])),
    ("min_swaps_to_identity_batch repeat", lambda: puzzle.min_swaps_to_identity_batch([[0, 0]])),
    ("min_swaps_batch method", lambda: puzzle.min_swaps_batch([[1, 0]], [1, 2], method="x")),
    ("min_swaps_batch max_nodes", lambda: puzzle.min_swaps_batch([[1, 0]], [1, 2], max_nodes=-3)),
    ("min_swaps_batch rows", lambda: puzzle.min_swaps_batch([[1, 0]], np.array([[1, 2], [1, 2]]))),
    ("min_swaps_batch 3-D", lambda: puzzle.min_swaps_batch([[1, 0]], np.zeros((1, 1, 2), dtype=int))),
    ("min_swaps_batch short", lambda: puzzle.min_swaps_batch([[1, 0]], [1])),
    ("min_swaps_batch row short", lambda: puzzle.min_swaps_batch([[1, 0]], np.array([[1, 2, 3]]))),
    ("resolve_grid name", lambda: puzzle.resolve_grid("huge")),  # type: ignore[arg-type]
    ("resolve_grid text", lambda: puzzle.resolve_grid("3by2")),  # type: ignore[arg-type]
    ("resolve_grid pair str", lambda: puzzle.resolve_grid((3, "2"))),  # type: ignore[arg-type]
    ("resolve_grid int", lambda: puzzle.resolve_grid(6)),  # type: ignore[arg-type]
    ("resolve_grid triple", lambda: puzzle.resolve_grid((1, 2, 3))),  # type: ignore[arg-type]
    ("resolve_grid zero", lambda: puzzle.resolve_grid((0, 3))),
    ("resolve_grid wide", lambda: puzzle.resolve_grid("40x2")),  # type: ignore[arg-type]
    ("resolve_grid one tile", lambda: puzzle.resolve_grid((1, 1))),
    ("background_percent str", lambda: puzzle.background_percent("1", 3)),  # type: ignore[arg-type]
    ("background_percent range", lambda: puzzle.background_percent(5, 3)),
    ("background_percent negative", lambda: puzzle.background_percent(-1, 3)),
    ("background_percent total", lambda: puzzle.background_percent(0, -2)),
    ("new_game grid", lambda: puzzle.new_game(None, grid="x", seed=1)),  # type: ignore[arg-type]
    ("new_game flag code", lambda: puzzle.new_game("France", seed=1)),
    ("new_game flag type", lambda: puzzle.new_game(b"FR", seed=1)),  # type: ignore[arg-type]
    ("new_game signatures length", lambda: puzzle.new_game([1, 2, 3], grid="easy", seed=1)),
    ("new_game signatures item", lambda: puzzle.new_game([1, 2, 3, 4, 5, "6"], grid="easy", seed=1)),  # type: ignore[list-item]
    ("new_game seed negative", lambda: puzzle.new_game(None, seed=-1)),
    ("new_game seed float", lambda: puzzle.new_game(None, seed=1.5)),  # type: ignore[arg-type]
    ("new_game seed big", lambda: puzzle.new_game(None, seed=2**32)),
    ("new_game seed bool", lambda: puzzle.new_game(None, seed=True)),
    ("new_game max_nodes", lambda: puzzle.new_game(None, seed=1, max_nodes=0)),
    ("new_game max_nodes type", lambda: puzzle.new_game(None, seed=1, max_nodes="a")),  # type: ignore[arg-type]
    ("swap slot type", lambda: _puzzle_game().swap("0", 1)),  # type: ignore[arg-type]
    ("swap slot b type", lambda: _puzzle_game().swap(0, 1.0)),  # type: ignore[arg-type]
    ("swap slot range", lambda: _puzzle_game().swap(0, 6)),
    ("swap slot negative", lambda: _puzzle_game().swap(-1, 2)),
    ("swap same slot", lambda: _puzzle_game().swap(2, 2)),
    ("swap solved", lambda: _puzzle_game(solved=True).swap(0, 1)),
    ("verify swaps None", lambda: puzzle.verify([1, 0], None, None)),  # type: ignore[arg-type]
    ("verify swaps str", lambda: puzzle.verify([1, 0], "01", None)),  # type: ignore[arg-type]
    ("verify swaps int", lambda: puzzle.verify([1, 0], 5, None)),  # type: ignore[arg-type]
    ("verify move str", lambda: puzzle.verify([1, 0], ["01"], None)),
    ("verify move short", lambda: puzzle.verify([1, 0], [(0,)], None)),
    ("verify move not pair", lambda: puzzle.verify([1, 0], [5], None)),  # type: ignore[list-item]
    ("verify move float", lambda: puzzle.verify([1, 0], [(0, 1.0)], None)),  # type: ignore[list-item]
    ("verify move outside", lambda: puzzle.verify([1, 0], [(0, 2)], None)),
    ("verify move same", lambda: puzzle.verify([1, 0], [(1, 1)], None)),
    ("verify too few tiles", lambda: puzzle.verify([0], [], None)),
    ("verify start solved", lambda: puzzle.verify([0, 1], [], None)),
    ("verify after solved", lambda: puzzle.verify([1, 0], [(0, 1), (0, 1)], None)),
    ("verify not solved", lambda: puzzle.verify([1, 0, 2], [(0, 2)], None)),
    ("verify bad start", lambda: puzzle.verify([1, 1], [], None)),
    ("verify bad signatures", lambda: puzzle.verify([1, 0], [(0, 1)], [1])),
    ("verify max_nodes", lambda: puzzle.verify([1, 0], [(0, 1)], None, max_nodes=0)),
    ("daily date str", lambda: puzzle.daily("tomorrow")),
    ("daily date not calendar", lambda: puzzle.daily("2026-02-30")),
    ("daily date before epoch", lambda: puzzle.daily("2020-01-01")),
    ("daily date int", lambda: puzzle.daily(20260101)),
    ("daily max_nodes", lambda: puzzle.daily("2026-03-01", max_nodes=0)),
]

SIGNATURES: list[Case] = [
    ("hash_pixel_data int", lambda: signatures.hash_pixel_data(5)),  # type: ignore[arg-type]
    ("hash_pixel_data float array", lambda: signatures.hash_pixel_data(np.zeros(4))),  # type: ignore[arg-type]
    ("hash_pixel_data stride 0", lambda: signatures.hash_pixel_data(b"abcd", stride=0)),
    ("hash_pixel_data stride float", lambda: signatures.hash_pixel_data(b"abcd", stride=1.5)),  # type: ignore[arg-type]
    ("hash_pixel_data stride bool", lambda: signatures.hash_pixel_data(b"abcd", stride=True)),
    ("hash_pixel_data stride str", lambda: signatures.hash_pixel_data(b"abcd", stride="8")),  # type: ignore[arg-type]
    ("tile_signatures list", lambda: signatures.tile_signatures([1, 2], 3, 2)),  # type: ignore[arg-type]
    ("tile_signatures float image", lambda: signatures.tile_signatures(np.zeros((4, 4, 4)), 1, 1)),  # type: ignore[arg-type]
    ("tile_signatures shape", lambda: signatures.tile_signatures(np.zeros((4, 4, 3), np.uint8), 1, 1)),
    ("tile_signatures columns 0", lambda: signatures.tile_signatures(IMAGE, 0, 2)),
    ("tile_signatures rows 0", lambda: signatures.tile_signatures(IMAGE, 3, 0)),
    ("tile_signatures inset", lambda: signatures.tile_signatures(IMAGE, 3, 2, inset=-1)),
    ("tile_signatures columns float", lambda: signatures.tile_signatures(IMAGE, 1.5, 2)),  # type: ignore[arg-type]
    ("tile_signatures empty interior", lambda: signatures.tile_signatures(IMAGE, 3, 2, inset=9)),
    ("visual_signatures not whole", lambda: signatures.visual_signatures(IMAGE, 5, 3)),
    ("visual_signatures empty", lambda: signatures.visual_signatures(np.zeros((0, 0, 4), np.uint8), 1, 1)),
    ("visual_signatures columns", lambda: signatures.visual_signatures(IMAGE, 0, 1)),
    ("flag_svg code", lambda: signatures.flag_svg("France")),
    ("flag_svg type", lambda: signatures.flag_svg(5)),  # type: ignore[arg-type]
    ("flag_svg unknown", lambda: signatures.flag_svg("QQ")),
    ("render_flag columns 0", lambda: signatures.render_flag("FR", 0)),
    ("render_flag columns big", lambda: signatures.render_flag("FR", 65)),
    ("render_flag rows 0", lambda: signatures.render_flag("FR", 3, 0)),
    ("render_flag rows big", lambda: signatures.render_flag("FR", 3, 65)),
    ("render_flag type", lambda: signatures.render_flag(5, 3)),  # type: ignore[arg-type]
    ("piece_signatures method", lambda: signatures.piece_signatures("FR", 3, 2, method="x")),
    ("piece_signatures columns", lambda: signatures.piece_signatures("FR", "3", 2)),  # type: ignore[arg-type]
    ("piece_signatures rows", lambda: signatures.piece_signatures("FR", 3, -1)),
    ("piece_signatures code", lambda: signatures.piece_signatures("F", 3, 2)),
    ("piece_signatures unknown", lambda: signatures.piece_signatures("QQ", 3, 2)),
]

CONNECTIONS: list[Case] = [
    ("generate seed negative", lambda: connections.generate(-1)),
    ("generate seed big", lambda: connections.generate(2**32)),
    ("generate seed float", lambda: connections.generate(1.5)),  # type: ignore[arg-type]
    ("generate seed None", lambda: connections.generate(None)),  # type: ignore[arg-type]
    ("generate seed bool", lambda: connections.generate(True)),
    ("generate mode", lambda: connections.generate(1, "capitals")),
    ("generate mode type", lambda: connections.generate(1, 5)),  # type: ignore[arg-type]
    ("generate legacy", lambda: connections.generate(1, legacy="yes")),  # type: ignore[arg-type]
    ("generate decoy", lambda: connections.generate(1, decoy=1)),  # type: ignore[arg-type]
    ("generate trace", lambda: connections.generate(1, trace=None)),  # type: ignore[arg-type]
    ("generate difficulty name", lambda: connections.generate(1, difficulty="brutal")),
    ("generate difficulty count", lambda: connections.generate(1, difficulty=9)),
    ("generate difficulty negative", lambda: connections.generate(1, difficulty=-1)),
    ("generate difficulty text", lambda: connections.generate(1, difficulty="12")),
    ("generate difficulty float", lambda: connections.generate(1, difficulty=1.5)),
    ("generate difficulty bool", lambda: connections.generate(1, difficulty=True)),
    ("generate library", lambda: connections.generate(1, library="bundled")),  # type: ignore[arg-type]
    ("generate_many str", lambda: connections.generate_many("123")),
    ("generate_many bytes", lambda: connections.generate_many(b"123")),
    ("generate_many set", lambda: connections.generate_many({1, 2})),
    ("generate_many dict", lambda: connections.generate_many({1: 2})),
    ("generate_many int", lambda: connections.generate_many(5)),
    ("generate_many 2-D", lambda: connections.generate_many(np.ones((2, 2), dtype=np.int64))),
    ("generate_many array range", lambda: connections.generate_many(np.array([1, -1]))),
    ("generate_many array big", lambda: connections.generate_many(np.array([2**32], dtype=np.uint64))),
    ("generate_many item negative", lambda: connections.generate_many([1, -1])),
    ("generate_many item float", lambda: connections.generate_many([1, 2.5])),
    ("generate_many threads 0", lambda: connections.generate_many([1], threads=0)),
    ("generate_many threads str", lambda: connections.generate_many([1], threads="2")),  # type: ignore[arg-type]
    ("generate_many mode", lambda: connections.generate_many([1], "x")),
    ("generate_many legacy", lambda: connections.generate_many([1], legacy=None)),  # type: ignore[arg-type]
    ("generate_many library", lambda: connections.generate_many([1], library=5)),  # type: ignore[arg-type]
    ("batch index type", lambda: _batch_index("0")),
    ("batch index range", lambda: _batch_index(5)),
    ("daily date", lambda: connections.daily("01/02/2026")),
    ("daily date type", lambda: connections.daily(5)),  # type: ignore[arg-type]
    ("daily before epoch", lambda: connections.daily("2025-12-31")),
    ("daily not calendar", lambda: connections.daily("2026-13-01")),
    ("daily mode", lambda: connections.daily("2026-03-01", "x")),
    ("daily mode type", lambda: connections.daily("2026-03-01", None)),  # type: ignore[arg-type]
    ("daily_seed date", lambda: connections.daily_seed("2026-1-1")),
    ("daily_seed type", lambda: connections.daily_seed(dt.time())),  # type: ignore[arg-type]
    ("from_board_id type", lambda: connections.from_board_id(5)),  # type: ignore[arg-type]
    ("from_board_id length", lambda: connections.from_board_id("abc")),
    ("from_board_id char", lambda: connections.from_board_id("0000000000u00")),
    ("from_board_id first char", lambda: connections.from_board_id("zzzzzzzzzzzzz")),
    ("from_board_id checksum", lambda: connections.from_board_id(_tampered_id())),
    ("from_board_id version", lambda: connections.from_board_id(_id_of(7, 9, 0))),
    ("from_board_id flag bits", lambda: connections.from_board_id(_id_of(7, 1, 0xC0))),
    ("from_board_id difficulty", lambda: connections.from_board_id(_id_of(7, 1, 15 << 2))),
    ("from_board_id library", lambda: connections.from_board_id(_id_of(7, 1, 0), library=1)),  # type: ignore[arg-type]
    ("from_board_id ratings digest", lambda: connections.from_board_id(_id_of(7, 1, 0) + "-zz")),
    ("from_board_id ratings missing", lambda: connections.from_board_id(_id_of(7, 1, 0) + "-abcdef")),
    ("parse_board_id length", lambda: connections.parse_board_id("0" * 14)),
    ("encode_board_id seed", lambda: connections.encode_board_id(-5)),
    ("encode_board_id mode", lambda: connections.encode_board_id(5, "x")),
    ("encode_board_id legacy", lambda: connections.encode_board_id(5, legacy=0)),  # type: ignore[arg-type]
    ("encode_board_id difficulty", lambda: connections.encode_board_id(5, difficulty="x")),
    ("board_id type", lambda: connections.board_id("abc")),  # type: ignore[arg-type]
    ("check_guess groups str", lambda: connections.check_guess("abcd", ["A", "B", "C", "D"])),  # type: ignore[arg-type]
    ("check_guess groups int", lambda: connections.check_guess(5, ["A", "B", "C", "D"])),  # type: ignore[arg-type]
    ("check_guess groups items", lambda: connections.check_guess([5], ["A", "B", "C", "D"])),  # type: ignore[list-item]
    (
        "check_guess group size",
        lambda: connections.check_guess([connections.Group(0, "x", ("A", "B"), "c")], ["A", "B", "C", "D"]),
    ),  # type: ignore[arg-type]
    ("check_guess selected str", lambda: connections.check_guess(_board().groups, "ABCD")),
    ("check_guess selected None", lambda: connections.check_guess(_board().groups, None)),  # type: ignore[arg-type]
    ("check_guess selected dict", lambda: connections.check_guess(_board().groups, {"A": 1})),
    ("check_guess selected ints", lambda: connections.check_guess(_board().groups, [1, 2, 3, 4])),  # type: ignore[list-item]
    ("check_guess selected three", lambda: connections.check_guess(_board().groups, ["A", "B", "C"])),
    ("check_guess selected repeat", lambda: connections.check_guess(_board().groups, ["A", "A", "B", "C"])),
    ("check_guess selected generator", lambda: connections.check_guess(_board().groups, iter(["A", "B"]))),
    ("game board type", lambda: connections.ConnectionsGame("board")),  # type: ignore[arg-type]
    ("game guess str", lambda: _game().guess("ABCD")),
    ("game guess three", lambda: _game().guess(["A", "B", "C"])),
    ("game guess off board", _guess_off_board),
    ("game guess solved", _guess_solved),
    ("game guess over", lambda: _over_game().guess(["A", "B", "C", "D"])),
    ("game shuffle rng", lambda: _game().shuffle_remaining(1.5)),
    ("game shuffle rng seed", lambda: _game().shuffle_remaining(-1)),
    ("find_ambiguities board", lambda: connections.find_ambiguities("board")),  # type: ignore[arg-type]
    ("find_ambiguities library", lambda: connections.find_ambiguities(_board(), library=3)),  # type: ignore[arg-type]
    ("board_difficulty board", lambda: connections.board_difficulty(None)),  # type: ignore[arg-type]
    ("board_difficulty mode", lambda: connections.board_difficulty(_altered(mode="capitals"))),
    ("board_difficulty tiles", lambda: connections.board_difficulty(_altered(tiles=("FR",) * 16))),
    ("board_difficulty groups", lambda: connections.board_difficulty(_altered(groups=_board().groups[:3]))),
    ("board_difficulty foreign tile", lambda: connections.board_difficulty(_foreign_tile())),
    ("board_difficulty category", lambda: connections.board_difficulty(_unknown_category())),
    ("find_ambiguities category", lambda: connections.find_ambiguities(_unknown_category())),
    ("game board shape", lambda: connections.ConnectionsGame(_altered(tiles=FIFTEEN_TILES))),
    ("board_difficulty library", lambda: connections.board_difficulty(_board(), library="x")),  # type: ignore[arg-type]
]

RNG: list[Case] = [
    ("Rng seed negative", lambda: flagcore.Rng(-1)),
    ("Rng seed big", lambda: flagcore.Rng(2**32)),
    ("Rng seed float", lambda: flagcore.Rng(1.5)),
    ("Rng seed None", lambda: flagcore.Rng(None)),
    ("Rng seed bool", lambda: flagcore.Rng(False)),
    ("Rng.below 0", lambda: flagcore.Rng(1).below(0)),
    ("Rng.below big", lambda: flagcore.Rng(1).below(2**32)),
    ("Rng.below float", lambda: flagcore.Rng(1).below(2.0)),
    ("Rng.below bool", lambda: flagcore.Rng(1).below(True)),
    ("Rng.below str", lambda: flagcore.Rng(1).below("3")),
    ("shuffle rng", lambda: flagcore.shuffle([1, 2], 5)),
    ("shuffle rng None", lambda: flagcore.shuffle([1, 2], None)),
]

LIBRARY: list[Case] = [
    ("load_library path type", lambda: load_library(5)),  # type: ignore[arg-type]
    ("library categories mode", lambda: load_library().categories("x")),
    ("library categories mode type", lambda: load_library().categories(1)),  # type: ignore[arg-type]
    ("library name code", lambda: load_library().name("QQ")),
    ("library name type", lambda: load_library().name(5)),  # type: ignore[arg-type]
    ("library tags code", lambda: load_library().tags("QQ")),
    ("library facts type", lambda: load_library().facts(["FR"])),  # type: ignore[arg-type]
    ("library readings code", lambda: load_library().readings("")),
    ("season puzzle_plan date", lambda: season.puzzle_plan("soon")),
    ("season puzzle_plan epoch", lambda: season.puzzle_plan(dt.date(2000, 1, 1))),
    ("season day_index type", lambda: season.day_index(3.0)),
]

# The rules the command line, the store, the review tools and the server secret apply, called
# directly (their callers turn the error into one line or an HTTP answer).
RULES: list[Case] = [
    ("cli daily difficulty", lambda: a_cli.check_daily_not_difficulty("2026-01-01", "hard")),
    ("cli daily legacy", lambda: a_cli.check_daily_not_legacy("2026-01-01", True)),
    ("cli daily alone", lambda: a_cli.check_daily_alone(["--flag", "--seed"])),
    ("cli png flag", lambda: a_cli.check_png_has_flag(None, None)),
    ("cli max_nodes", lambda: _raise(a_cli.max_nodes_option_error(15, 4, 10))),
    ("cli shared store", lambda: a_cli.refuse_shared_store_without_secret("redis", "FLAGCORE_SECRET")),
    ("cli bundled codes", lambda: a_cli.as_bundled_codes(["FR", "QQ"], ["FR"])),
    ("seed text type", lambda: a_common.parse_seed_text(5)),  # type: ignore[arg-type]
    ("seed text empty", lambda: a_common.parse_seed_text("  ")),
    ("seed text long", lambda: a_common.parse_seed_text("x" * 65)),
    ("seed text signed", lambda: a_common.parse_seed_text("-1")),
    ("seed text big", lambda: a_common.parse_seed_text("4294967296")),
    ("flag code type", lambda: a_common.as_flag_code(None, "flag")),
    ("flag code form", lambda: a_common.as_flag_code("F1", "flag")),
    ("at least type", lambda: a_common.as_at_least("3", "--seeds", 1)),
    ("at least low", lambda: a_common.as_at_least(0, "--seeds", 1)),
    ("in range type", lambda: a_common.as_in_range(True, "--port", 1, 65535)),
    ("in range value", lambda: a_common.as_in_range(70000, "--port", 1, 65535)),
    ("max nodes text", lambda: a_puzzle.as_max_nodes_text("²")),
    ("max nodes text word", lambda: a_puzzle.as_max_nodes_text("lots")),
    ("int vector long", lambda: a_puzzle.as_int_vector(range(a_puzzle.MAX_TILES + 1), "tiles_by_slot")),
    ("board matrix wide", lambda: a_puzzle.as_board_matrix(np.zeros((1, a_puzzle.MAX_TILES + 1), np.int32))),
    ("too many classes", lambda: _raise(a_puzzle.too_many_classes_error(64))),
    ("days text", lambda: a_season.as_days_text("ten")),
    ("days range", lambda: a_season.as_days(0)),
    ("days type", lambda: a_season.as_days("3")),
    ("store url type", lambda: a_store.parse_store_url(5)),
    ("store url empty", lambda: a_store.parse_store_url(" ")),
    ("store url redis", lambda: a_store.parse_store_url("redis:host")),
    ("store url redis password", lambda: a_store.parse_store_url("redis:pw@host")),
    ("store url sqlite", lambda: a_store.parse_store_url("sqlite://")),
    ("store url kind", lambda: a_store.parse_store_url("postgres://u:pw@host/db")),
    ("store key type", lambda: a_store.as_key(5, "player")),
    ("store key empty", lambda: a_store.as_key("", "player")),
    ("store value type", lambda: a_store.as_value("text")),
    ("store value big", lambda: a_store.as_value(bytes(a_store.MAX_VALUE_BYTES + 1))),
    ("store count type", lambda: a_store.as_count(True, "ttl", 1)),
    ("store count low", lambda: a_store.as_count(0, "ttl", 1)),
    ("review int in", lambda: a_review.as_int_in(99, "--columns", 1, 64)),
    ("review modes", lambda: a_review.as_modes(["flags", "x"])),
    ("review modes empty", lambda: a_review.as_modes([])),
    ("review names", lambda: a_review.as_names(["x"], ["a", "b"], "groups")),
    ("review picture type", lambda: a_review.as_picture_path(5, {".png": "PNG"})),
    ("review picture empty", lambda: a_review.as_picture_path(" ", {".png": "PNG"})),
    ("review picture format", lambda: a_review.as_picture_path("a.gif", {".png": "PNG"})),
    ("review tile count", lambda: a_review.as_tile_count([0, 1], 3, 2)),
    ("review tier minimums", lambda: a_review.as_tier_minimums("1,2,3")),
    ("secret bytes", lambda: a_secret.as_secret(b"\xff" * 40, "FLAGCORE_SECRET")),
    ("secret type", lambda: a_secret.as_secret(5, "FLAGCORE_SECRET")),
    ("secret weak", lambda: a_secret.as_secret("a" * 40, "FLAGCORE_SECRET")),
    ("secret short", lambda: a_secret.as_secret("abc123", "FLAGCORE_SECRET")),
    ("secret spaces", lambda: a_secret.as_secret(" " + "q" * 40, "FLAGCORE_SECRET")),
    ("key bytes", lambda: a_secret.as_key_bytes(b"short")),
    ("old secrets", lambda: a_secret.as_old_secrets("short " + "x" * 20, "FLAGCORE_OLD_SECRETS")),
    ("board id options mode", lambda: a_conn.check_board_id_options("id", "flags", False, "trivia", False)),
    ("board id options legacy", lambda: a_conn.check_board_id_options("id", "flags", False, None, True)),
    ("board id difficulty", lambda: a_conn.check_board_id_difficulty("id", "normal", "hard")),
    ("category known", lambda: a_conn.check_category_known("x", {}, "flags")),
    ("category order offsets", lambda: _raise(a_conn.category_order_error(a_conn.ORDER_OFFSETS))),
    ("category order tier", lambda: _raise(a_conn.category_order_error(a_conn.ORDER_TIER_LENGTH, (1, 0)))),
    ("category order index", lambda: _raise(a_conn.category_order_error(a_conn.ORDER_INDEX, 99))),
    ("groups cover", lambda: a_conn.check_groups_cover(False)),
    ("signature columns big", lambda: a_sig.as_columns(65)),
    ("signature tile grid", lambda: a_sig.check_tile_grid(10, 10, 3, 3)),
    ("signature rgba dtype", lambda: a_sig.as_pixel_bytes(np.zeros(4, np.int16))),
]

CASES: list[Case] = PUZZLE + SIGNATURES + CONNECTIONS + RNG + LIBRARY + RULES


def outcome(call: Callable[[], Any]) -> dict[str, str] | None:
    """What ``call`` raised: {"type": module.qualname, "message": str(exc)}, or None if it returned."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the corpus records whatever each bad input raises
        cls = type(exc)
        return {"type": f"{cls.__module__}.{cls.__qualname__}", "message": str(exc)}
    return None


def capture() -> dict[str, dict[str, Any]]:
    """Every case's outcome on each twin, by case name."""
    names = [name for name, _ in CASES]
    assert len(set(names)) == len(names), "case names repeat"
    out: dict[str, dict[str, Any]] = {name: {} for name in names}
    before = _impl.core.use("compiled")
    try:
        for twin in ("compiled", "python"):
            _impl.core.use(twin)
            for name, call in CASES:
                out[name][twin] = outcome(call)
    finally:
        _impl.core.use(before)
    return out


if __name__ == "__main__":
    json.dump(capture(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
