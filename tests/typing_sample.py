"""A program that uses every public name of flagcore, for ``mypy --strict`` (tests/package/test_typing.py).

It is checked twice: mypy --strict must pass on it against the installed package (with its
``.pyi`` stubs and ``py.typed``), and it must run (``python tests/typing_sample.py``), so the
sample can never drift into calls that only type-check. ``assert_type`` pins the types a caller
sees: a public function that silently returned ``Any`` would fail here, not just be unchecked.
tests/package/test_typing.py also checks that every name in each public module's ``__all__`` is used.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import flagcore
from flagcore import connections, library, puzzle, reference, signatures
from flagcore.connections import (
    MAX_MISTAKES,
    TIER_NAMES,
    Ambiguity,
    Board,
    BoardBatch,
    BoardDifficulty,
    Group,
    GroupDifficulty,
    GuessOutcome,
    GuessResult,
    NoBoardError,
    Phantom,
)
from flagcore.connections.batch import generate_many_with
from flagcore.connections.search import generate_with
from flagcore.errors import ArgumentError, ArgumentTypeError, FlagcoreError
from flagcore.library import Category, Library, LibraryError
from flagcore.puzzle import PuzzleGame, PuzzleResult
from flagcore.reference import connections as ref_connections
from flagcore.reference import puzzle as ref_puzzle
from flagcore.reference import rng as ref_rng
from flagcore.reference import signatures as ref_signatures
from flagcore.types import Difficulty, DifficultyLevel, Grid, GridName, Mode

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # pragma: no cover - mypy ships typing_extensions
    from typing_extensions import assert_type


def rng_and_shuffle() -> None:
    rng = flagcore.Rng(12)
    assert_type(rng, flagcore.Rng)
    assert_type(rng(), float)
    assert_type(rng.next_uint32(), int)
    assert_type(rng.below(10), int)
    assert_type(rng.state, int)
    daily = flagcore.Rng("daily:2026-11-29")
    order = flagcore.shuffle(["ET", "GH", "JP", "FR"], daily)
    assert_type(order, list[str])
    assert sorted(order) == ["ET", "FR", "GH", "JP"]
    numbers = flagcore.shuffle(range(10), flagcore.Rng(3))
    assert_type(numbers, list[int])

    twin = ref_rng.Rng(12)
    assert_type(twin, ref_rng.Rng)
    assert twin.next_uint32() == flagcore.Rng(12).next_uint32()
    assert_type(ref_rng.shuffle([1, 2, 3], ref_rng.Rng(1)), list[int])
    assert flagcore.__version__ == str(flagcore.__version__)


def signature_functions() -> None:
    image = signatures.render_flag("JP", 3)
    assert_type(image, npt.NDArray[np.uint8])
    assert image.shape[1] == 3 * signatures.TILE_WIDTH and image.shape[2] == 4
    sigs = signatures.tile_signatures(image, 3, 2, signatures.INSET)
    assert_type(sigs, list[int])
    assert sigs == ref_signatures.tile_signatures(image, 3, 2, 4)
    digest = signatures.hash_pixel_data(image[:4].tobytes())
    assert_type(digest, int)
    assert digest == ref_signatures.hash_pixel_data(image[:4].tobytes(), 8)
    pieces = signatures.piece_signatures("JP", 3, 2, method="spec")
    assert_type(pieces, list[int] | None)
    assert pieces == sigs
    board = signatures.render_flag("JP", 3, 2)
    looks = signatures.visual_signatures(board, 3, 2)
    assert_type(looks, list[int])
    assert looks == signatures.piece_signatures("JP", 3, 2) == ref_signatures.visual_signatures(board, 3, 2)
    assert signatures.METHODS[0] == "visual"
    svg = signatures.flag_svg("JP")
    assert_type(svg, bytes)
    assert signatures.piece_signatures(svg, 5, 3) == signatures.piece_signatures("JP", 5, 3)
    codes = signatures.bundled_codes()
    assert_type(codes, list[str])
    assert len(codes) >= 190
    signatures.clear_cache()
    grids: tuple[tuple[int, int], ...] = signatures.TABLE_GRIDS
    assert (5, 3) in grids and signatures.MAX_COLUMNS >= 5 and signatures.MAX_ROWS >= 3
    try:
        signatures.render_flag("<svg", 3)
    except signatures.SvgRenderError as exc:
        assert isinstance(exc, ValueError)


def library_functions() -> Library:
    lib = library.load_library()
    assert_type(lib, Library)
    assert_type(lib.codes, list[str])
    assert_type(lib.name("JP"), str)
    assert_type(lib.tags("JP"), frozenset[str])
    cats = lib.categories("flags")
    assert_type(cats, list[Category])
    first: Category = cats[0]
    assert_type(first.id, str)
    assert_type(first.label, str)
    assert_type(first.tier, int)
    assert_type(first.kind, str)
    assert_type(first.pool, frozenset[str])
    assert first.kind in ("library", "synthetic") and 0 <= first.tier <= 3
    try:
        library.load_library("/nonexistent/flagcore-library.json")
    except (LibraryError, OSError):
        pass
    return lib


def connections_functions(lib: Library) -> None:
    board = connections.generate(12, "flags", library=lib, decoy=True, legacy=False, trace=True)
    assert_type(board, Board)
    assert_type(board.tiles, tuple[str, ...])
    assert_type(board.seed, int | str)
    assert_type(board.stats, dict[str, Any])
    assert board.events is not None and len(board.tiles) == 16
    group: Group = board.groups[0]
    assert_type(group.codes, tuple[str, str, str, str])
    assert_type(group.category_id, str)
    assert TIER_NAMES[group.tier] == group.tier_name

    graded = connections.check_guess(board.groups, group.codes)
    assert_type(graded, GuessResult)
    assert graded.result == "correct" and graded.matched == group

    game = connections.ConnectionsGame(board)
    outcome = game.guess(list(board.groups[1].codes))
    assert_type(outcome, GuessOutcome)
    assert_type(game.mistakes, int)
    assert_type(game.won, bool)
    assert_type(game.lost, bool)
    assert outcome.result == "correct" and game.mistakes < MAX_MISTAKES
    assert_type(game.shuffle_remaining(flagcore.Rng(5)), tuple[str, ...])
    assert_type(game.share(), str)

    ambiguities = connections.find_ambiguities(board, lib)
    assert_type(ambiguities, list[Ambiguity])
    assert ambiguities == []
    split = connections.find_second_split(board, lib)
    assert_type(split, tuple[connections.Four, connections.Four, connections.Four, connections.Four] | None)
    assert split is None  # generate never deals a board with a second answer

    seeds: Sequence[int] = range(8)
    batch = connections.generate_many(seeds, "flags", threads=2)
    assert_type(batch, BoardBatch)
    assert_type(batch[3], Board)
    # a batch makes generate's boards, at generate's default difficulty or the one it is given
    assert len(batch) == 8 and batch[3] == connections.generate(3, "flags")
    plain = connections.generate_many(seeds, "flags", difficulty=None)  # the search alone
    assert plain[3] == connections.generate(3, "flags", difficulty=None)

    # the difficulty model (docs/difficulty.md)
    model = connections.board_difficulty(board, lib)
    assert_type(model, BoardDifficulty)
    assert_type(model.groups[0], GroupDifficulty)
    assert_type(model.phantoms, tuple[Phantom, ...])
    assert_type(model.score, int)
    hard = connections.generate(12, "flags", library=lib, difficulty="hard")
    assert hard.stats["model"]["difficulty"] == "hard"

    ident = connections.board_id(board)
    assert_type(ident, str)
    assert_type(connections.parse_board_id(ident), tuple[int, Mode, bool])
    assert_type(board.mode, Mode)
    level: DifficultyLevel = "easy"
    for difficulty in (level, 3, None):  # a level, a count of tempting phantoms, or the search alone
        chosen: Difficulty | None = difficulty
        assert connections.encode_board_id(12, board.mode, difficulty=chosen) != ident
    try:
        connections.generate(12, "capitals")  # type: ignore[arg-type]  # what Mode catches before it runs
    except ArgumentError as exc:  # a ValueError naming the argument
        assert str(exc).startswith("mode must be one of")
    try:
        connections.generate(12, "flags", legacy="yes")  # type: ignore[arg-type]
    except ArgumentTypeError as exc:  # a TypeError naming the argument
        assert isinstance(exc, TypeError)
    assert_type(connections.encode_board_id(12, "flags", False), str)
    assert connections.from_board_id(ident, lib) == board
    assert_type(connections.daily_seed("2026-11-29"), str)
    assert_type(connections.daily("2027-01-01", "trivia"), Board)  # the scheduled daily

    # the reference twin behind the same public function (what FLAGCORE_IMPL=python does)
    twin = generate_with(ref_connections, 12, "flags", library=lib, trace=True)
    assert_type(twin, Board)
    assert twin == board
    assert_type(generate_many_with(ref_connections, [1, 2], "flags"), BoardBatch)
    assert callable(ref_connections.search_board) and callable(ref_connections.search_many)
    try:
        connections.generate(1, "flags", library=Library({}, {}, []))
    except (NoBoardError, ValueError):
        pass
    try:
        connections.generate(1, "flags", library=Library({}, {}, []))
    except FlagcoreError as exc:  # every flagcore exception: NoBoardError here
        assert isinstance(exc, NoBoardError)
    assert reference.__name__ == "flagcore.reference"


def puzzle_functions() -> None:
    grids: dict[str, tuple[int, int]] = puzzle.GRIDS
    assert grids["hard"] == (5, 3) and puzzle.GRID_ALIASES["elite"] == "hard"
    assert_type(puzzle.resolve_grid("pro"), tuple[int, int])
    board = [1, 0, 3, 2, 4, 5]
    assert_type(puzzle.count_cycles(board), int)
    assert_type(puzzle.min_swaps_to_identity(np.array(board, dtype=np.int16)), int)
    assert_type(puzzle.is_strictly_solved(board), bool)
    sigs = [7, 7, 9, 9, 4, 5]
    assert_type(puzzle.is_visually_solved(board, sigs), bool)
    exact = puzzle.min_swaps_to_visual_solve(board, sigs, method="exact")
    assert_type(exact, int)
    assert exact == puzzle.min_swaps_to_visual_solve(board, sigs, method="enumerate") == 0
    boards = np.array([board, [0, 1, 2, 3, 5, 4]], dtype=np.int32)
    assert_type(puzzle.count_cycles_batch(boards), npt.NDArray[np.int64])
    assert_type(puzzle.min_swaps_to_identity_batch(boards), npt.NDArray[np.int64])
    assert_type(puzzle.min_swaps_batch(boards, sigs, method="exact"), npt.NDArray[np.int64])
    assert_type(puzzle.background_percent(1, 3), str)
    assert_type(puzzle.min_swaps_to_visual_solve(board, sigs, max_nodes=None), int)
    budget: int = puzzle.DEFAULT_MAX_NODES
    try:
        puzzle.min_swaps_batch(boards, sigs, max_nodes=budget)
    except puzzle.ParSearchLimit as e:
        assert_type(e.max_nodes, int)

    assert_type(puzzle.daily("2027-01-01"), PuzzleGame)
    assert flagcore.types.Grid is Grid
    named: GridName = "pro"
    for grid in (named, (4, 3)):
        shape: Grid = grid
        assert puzzle.new_game(None, shape, seed=1).grid == (4, 3)
    game = puzzle.new_game("FR", grid="hard", seed=3)
    assert_type(game, PuzzleGame)
    assert_type(game.tiles_by_slot, list[int])
    assert_type(game.signatures, list[int] | None)
    assert_type(game.grid, tuple[int, int])  # always known: no None check needed
    assert_type(game.par, int)
    assert_type(game.identity_mode, bool)
    start = game.tiles_by_slot
    while not game.solved:  # put tiles home one by one; a visual solve may end it sooner
        tiles = game.tiles_by_slot
        slot = next(i for i, tile in enumerate(tiles) if tile != i)
        assert_type(game.swap(slot, tiles.index(slot)), bool)
    assert_type(game.swap_count, int)
    result = game.result()
    assert_type(result, PuzzleResult)
    assert_type(result.swaps, int)
    assert_type(result.min_possible, int)
    assert_type(result.swaps_over_min, int)
    assert_type(result.perfect, bool)
    assert result.min_possible == game.par and result.swaps >= game.par
    replay = puzzle.verify(start, list(game.moves), game.signatures)
    assert_type(replay, PuzzleResult)
    assert replay == result

    assert_type(ref_puzzle.count_cycles(board), int)
    assert ref_puzzle.count_cycles(board) == puzzle.count_cycles(board)
    assert ref_puzzle.min_swaps_to_identity(board) == puzzle.min_swaps_to_identity(board)


def main() -> None:
    rng_and_shuffle()
    puzzle_functions()
    signature_functions()
    connections_functions(library_functions())
    print("typing sample: ok")


if __name__ == "__main__":
    main()
