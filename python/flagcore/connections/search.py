"""One Connections board: ``generate``, ``generate_with`` and ``from_board_id``.

The search itself is in the compiled core ``flagcore._connections`` (nogil, bitsets) and in its
pure-Python twin ``flagcore.reference.connections`` (sets and reference counts), whose docstring
states every step; this module checks the arguments and calls one of them with a Library's
prepared tables (``tables``), which builds the :class:`~flagcore.connections.board.Board`
(``assembly``).

Seeds and determinism. A seed is an int in [0, 2**32) or a str (FNV-1a 32 of its UTF-8), exactly
as ``flagcore.Rng``; all randomness comes from that one mulberry32 stream, consumed in the same
order by the core and the twin, so ``generate(seed, mode)`` is the same board on every machine and
thread, given the same library (see ``tables`` for the orders that are part of what a seed means).

Fixed vs legacy. The default search has the spec's four flaws fixed (refcounted spill, pools checked
in both directions, decoy only from a group's exclusive codes, complete search) and keeps a tile off
any board where it fits another group even arguably (``Category.arguable``) and any board whose
tiles split into four fours a second way (it draws the tiles again, then moves on); ``legacy=True``
reproduces the spec's generator flaws included, for measurement, and knows pools only. When the
fixed search exhausts, no four categories of the library and mode form a valid board (or every
draw of their tiles had a second split): :class:`NoBoardError`.
"""

from __future__ import annotations

from typing import Any

from .._args.connections import MODES, as_difficulty, as_flag, as_mode, difficulty_target
from .._engines import ConnectionsEngine
from .._impl import core
from ..errors import ArgumentError
from ..library import Library
from ..ratings.colouring import rated_model, recolour
from ..ratings.document import as_ratings
from ..types import Difficulty, Mode
from .board import Board
from .difficulty import model_tables
from .ids import id_difficulty, id_ratings, parse_board_id
from .tables import tables_for

DECOY_CHANCE = 0.25


def normal_seed(seed: Any) -> tuple[int | str, int]:
    """(the seed as the Board records it: int or str, its uint32 Rng state)."""
    state = int(core.rng.seed_to_state(seed))
    return (seed if isinstance(seed, str) else state), state


def generate_with(
    impl: ConnectionsEngine,
    seed: int | str,
    mode: Mode = "flags",
    *,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    trace: bool = False,
    difficulty: Difficulty | None = "normal",
    ratings: Any = None,
) -> Board:
    """``generate`` computed by ``impl`` (the compiled core or the reference twin)."""
    board_seed, state = normal_seed(seed)
    mode = as_mode(mode)
    decoy = as_flag(decoy, "decoy")
    legacy = as_flag(legacy, "legacy")
    trace = as_flag(trace, "trace")
    difficulty = as_difficulty(difficulty)
    _, prepared = tables_for(impl, library, mode)
    if legacy or difficulty is None:
        plain: Board = impl.search_board(prepared, state, board_seed, legacy, decoy, trace)
        return plain
    lo, hi, attempts, pair_cap = difficulty_target(difficulty)
    if ratings is None:
        mt = model_tables(impl, library, mode)
        board: Board = impl.search_board_model(
            prepared, mt.prepared, state, board_seed, decoy, lo, hi, attempts, pair_cap, trace
        )
    else:
        # steered and coloured by learned difficulty (flagcore.ratings.colouring; docs/ratings.md)
        rm = rated_model(impl, library, mode, as_ratings(ratings))
        board = recolour(
            impl.search_board_model(
                prepared, rm.mt.prepared, state, board_seed, decoy, lo, hi, attempts, pair_cap, trace
            ),
            rm,
        )
    board.stats["model"]["difficulty"] = difficulty
    return board


def from_board_id(board_id: str, library: Library | None = None, *, ratings: Any = None) -> Board:
    """Rebuild the board an id names (``library`` must be the one the board was made from).

    An id dealt with ratings ends in their digest ("-xxxxxx"): pass the same ratings, else
    ArgumentError (a ValueError) names the digest it needs. ``ratings`` is ignored for an id dealt without.
    """
    state, mode, legacy = parse_board_id(board_id)
    digest = id_ratings(board_id)
    if digest is not None and (ratings is None or as_ratings(ratings).digest != digest):
        have = "no ratings" if ratings is None else f"ratings {as_ratings(ratings).digest}"
        raise ArgumentError(f"board id {board_id!r} was dealt with ratings {digest}; got {have}")
    return generate(
        state,
        mode,
        library=library,
        legacy=legacy,
        difficulty=id_difficulty(board_id),
        ratings=ratings if digest is not None else None,
    )


def generate(
    seed: int | str,
    mode: Mode = "flags",
    *,
    library: Library | None = None,
    decoy: bool = True,
    legacy: bool = False,
    trace: bool = False,
    difficulty: Difficulty | None = "normal",
    ratings: Any = None,
) -> Board:
    """One Connections board from ``seed``: the same board on every machine, thread and twin.

    Every board is a board of the fixed search: zero rule and arguable ambiguity at every
    difficulty, and no second answer (its sixteen tiles split into four fours by no other labels,
    ``find_second_split``; the leaf draws the tiles again when they do). Thread-safe; holds no
    global state beyond the per-Library table cache.

    Args:
        seed: an int in [0, 2**32) or a str (FNV-1a 32 of its UTF-8), as flagcore.Rng reads it.
        mode: "flags" or "trivia" (flagcore.types.Mode).
        library: None for the bundled library (loaded once), or your own Library.
        decoy: apply the spec's 25% decoy (the chance is drawn either way; False only skips the swap).
        legacy: the spec's generator with its flaws, for measurement; default is the fixed search.
        trace: record the search's steps in ``board.events`` (enter, try, skip, place, undo,
            backtrack, draw, decoy); ``board.stats`` (moves, backtracks, skips...) is always filled.
        difficulty: what the board aims for (flagcore.types.Difficulty; docs/difficulty.md): a
            hidden pair (two barely visible groups), then tempting phantom groups: "easy" none,
            "normal" two or more, "hard" three or more, an int n exactly n; else the closest
            board. Groups are coloured by the model's score (yellow the easiest). None: the search
            alone, coloured by the categories' tiers. ``board.stats["model"]`` says what was met.
        ratings: None, or a flagcore.ratings.Ratings (docs/ratings.md): steered and coloured by
            learned difficulty; the board id then ends in the ratings' digest ("-xxxxxx"), which
            ``from_board_id(id, ratings=...)`` needs. Ignored with legacy=True or difficulty=None.

    Returns:
        The Board: 16 shuffled tiles and its four groups in tier order.

    Raises:
        ArgumentError: a seed out of range, an unknown mode or difficulty.
        ArgumentTypeError: a seed, mode, flag, difficulty or library of the wrong type.
        NoBoardError: no board was found (in the fixed search: no four categories of this
            library and mode form one, or every draw of their tiles had a second split).
    """
    if (
        type(seed) is int
        and 0 <= seed < 4294967296
        and library is None
        and decoy is True
        and legacy is False
        and trace is False
        and type(mode) is str
        and difficulty == "normal"
        and type(difficulty) is str
    ):
        # the request a server sends most (an int seed, the bundled library, default options): the
        # same checks passed by construction, and the prepared tables read from one dict
        impl = core.connections
        prepared = _default_prepared.get((impl, mode))
        if prepared is not None:
            if ratings is None:
                board: Board = impl.search_board_model(prepared[0], prepared[1], seed, seed, True, *_NORMAL, False)
            else:
                board = _rated_default(impl, prepared[0], seed, mode, ratings)
            board.stats["model"]["difficulty"] = "normal"
            return board
        if mode in MODES:
            _default_prepared[(impl, mode)] = (tables_for(impl, None, mode)[1], model_tables(impl, None, mode).prepared)
    return generate_with(
        core.connections,
        seed,
        mode,
        library=library,
        decoy=decoy,
        legacy=legacy,
        trace=trace,
        difficulty=difficulty,
        ratings=ratings,
    )


def _rated_default(impl: ConnectionsEngine, prepared: Any, seed: int, mode: str, ratings: Any) -> Board:
    """generate's default request steered by ``ratings``, its rated model kept for the next call."""
    rated = _rated_prepared.get((impl, mode))
    if rated is None or rated[0] is not ratings:
        rated = _rated_prepared[(impl, mode)] = (ratings, rated_model(impl, None, mode, as_ratings(ratings)))
    rm = rated[1]
    board: Board = impl.search_board_model(prepared, rm.mt.prepared, seed, seed, True, *_NORMAL, False)
    return recolour(board, rm)


_NORMAL = difficulty_target("normal")
# (impl, mode) -> the bundled library's search tables and model tables
_default_prepared: dict[tuple[ConnectionsEngine, str], tuple[Any, Any]] = {}
# (impl, mode) -> (the Ratings object last asked for, its RatedModel on the bundled library)
_rated_prepared: dict[tuple[ConnectionsEngine, str], tuple[Any, Any]] = {}
