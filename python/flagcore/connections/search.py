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

from typing import Any, NamedTuple

from .._args.connections import as_difficulty, as_flag, as_mode, difficulty_target
from .._engines import ConnectionsEngine
from .._impl import core
from ..errors import ArgumentError
from ..library import Library
from ..ratings.colouring import rated_model
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
    return _run(impl, _plan(impl, library, mode, decoy, legacy, difficulty), state, board_seed, ratings, trace)


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
        library is None
        and trace is False
        and (decoy is True or decoy is False)
        and (legacy is False or legacy is True)
        and type(mode) is str
        and type(difficulty) in _PLAIN_TYPES
    ):
        # every common request (the bundled library, no trace, options of their own types): the
        # options were checked when this plan was made, so only the seed is checked here
        impl = core.connections
        key = (impl, mode, difficulty, decoy, legacy)
        plan = _plans.get(key)
        if plan is None:
            board = generate_with(impl, seed, mode, decoy=decoy, legacy=legacy, difficulty=difficulty, ratings=ratings)
            if type(as_difficulty(difficulty)) is type(difficulty):  # "3" and " hard" are not kept: no growth
                _plans[key] = _plan(impl, None, mode, decoy, legacy, difficulty)
            return board
        if type(seed) is int and 0 <= seed < 4294967296:
            return _run(impl, plan, seed, seed, ratings, False)
        if type(seed) is str:
            return _run(impl, plan, int(core.rng.seed_to_state(seed)), seed, ratings, False)
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


def _plan(
    impl: ConnectionsEngine,
    library: Library | None,
    mode: Mode,
    decoy: bool,
    legacy: bool,
    difficulty: Difficulty | None,
) -> _Plan:
    """The tables and target of checked options (``library`` is checked here, by tables_for)."""
    prepared = tables_for(impl, library, mode)[1]
    if legacy or difficulty is None:
        return _Plan(library, mode, decoy, legacy, difficulty, prepared, None, (0, 0, 0, 0))
    model = model_tables(impl, library, mode).prepared
    return _Plan(library, mode, decoy, legacy, difficulty, prepared, model, difficulty_target(difficulty))


def _run(impl: ConnectionsEngine, plan: _Plan, state: int, seed: int | str, ratings: Any, trace: bool) -> Board:
    """The search a plan names, for one seed (``ratings`` is checked here, when it is used)."""
    if plan.model is None:
        plain: Board = impl.search_board(plan.prepared, state, seed, plan.legacy, plan.decoy, trace)
        return plain
    if ratings is None:
        board: Board = impl.search_board_model(plan.prepared, plan.model, state, seed, plan.decoy, *plan.target, trace)
        board.stats["model"]["difficulty"] = plan.difficulty
        return board
    # steered and coloured by learned difficulty (flagcore.ratings.colouring; docs/ratings.md): the
    # search on the ratings' own tables for the level (steering 2) or the library's (1), coloured in
    # the kernel by the learned keys its model tables carry (as recolour colours a daily)
    rm = _rated(impl, plan, ratings)
    board = impl.search_board_model(
        rm.search_at(plan.difficulty), rm.mt.prepared, state, seed, plan.decoy, *plan.target, trace
    )
    model = board.stats["model"]
    model["ratings"] = rm.digest
    model["difficulty"] = plan.difficulty
    return board


def _rated(impl: ConnectionsEngine, plan: _Plan, ratings: Any) -> Any:
    """The RatedModel of ``ratings`` for a plan; on the bundled library, the last one is kept by identity."""
    if plan.library is not None:
        return rated_model(impl, plan.library, plan.mode, as_ratings(ratings))
    rated = _rated_prepared.get((impl, plan.mode))
    if rated is None or rated[0] is not ratings:
        rated = _rated_prepared[(impl, plan.mode)] = (ratings, rated_model(impl, None, plan.mode, as_ratings(ratings)))
    return rated[1]


class _Plan(NamedTuple):
    """Checked options of generate and the tables they need."""

    library: Library | None
    mode: Mode
    decoy: bool
    legacy: bool
    difficulty: Difficulty | None
    prepared: Any  # the search tables (tables_for)
    model: Any  # the model tables (model_tables), None for the search alone
    target: tuple[int, int, int, int]  # difficulty_target(difficulty)


_PLAIN_TYPES = (str, int, type(None))  # difficulty types a plan is kept for (never bool: True == 1)
# (impl, mode, difficulty, decoy, legacy) -> _plan(...), for option values generate_with accepted
_plans: dict[tuple[Any, ...], _Plan] = {}
# (impl, mode) -> (the Ratings object last asked for, its RatedModel on the bundled library)
_rated_prepared: dict[tuple[ConnectionsEngine, str], tuple[Any, Any]] = {}
