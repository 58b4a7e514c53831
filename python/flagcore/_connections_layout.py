"""Layout of the Connections search's results: the Python mirror of src/flagcore/connections_search.pxd.

The compiled search (flagcore._connections) and its twin (flagcore.reference.connections) write
the same integers: a status per board, a row of counters, skip reasons and trace events as small
codes. The .pxd declares them for C; this module is their one Python owner, imported by the twin
and by flagcore.connections (tables, assembly). tests/connections/test_connections_layout.py checks
this module against the values the compiled module was built with (``flagcore._connections.LAYOUT``).

It also holds the two pieces of Board assembly both twins share: the NoBoardError message and the
trace's event dicts. Nothing here imports anything from flagcore.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ITEMS = 4  # tiles per group
TIERS = 4
DECOY_BELOW = 1 << 30  # rng() < 0.25 <=> u / 2**32 < 0.25 <=> u < 2**30, exact
# the fixed search draws a found board's tiles (and its decoy) up to REDRAWS times until its sixteen
# tiles split into four fours in no other way and deal at most DECOY_FOURS_CAP complete off-board
# fours; then it moves on to the next categories. A complete off-board four is a category whose fit
# set holds exactly four of the sixteen tiles, not all of one group: four tiles a player can submit
# whole that share a true feature and are not an answer (issue 31: three blind play-testers lost
# 20 to 24 of 47 mistakes to boards dealing 6.6 of them on average; one is a red herring, many
# are a board full of wrong answers). 32 draws, not the 8 of the split rule alone: 2% of trivia's
# first draws met the cap unrepaired, and with 8 (before the repair) trivia's search tried 44 moves a
# board against 17.
REDRAWS = 32
DECOY_FOURS_CAP = 3
# a draw over the cap is first repaired: up to REPAIRS swaps of a drawn tile for one of the next
# REPAIR_TRIES spares of its group (flagcore.reference.connections._repair says which)
REPAIRS, REPAIR_TRIES = 16, 4

# status of one search
STATUS_OK, STATUS_NO_BOARD = 0, 1

# why a candidate category was skipped (counters and "skip" events)
REASONS = ("tag_on_board", "too_few_available", "too_few_pickable", "too_few_exclusive", "crowds_placed")
R_TAG_ON_BOARD, R_TOO_FEW_AVAILABLE, R_TOO_FEW_PICKABLE, R_TOO_FEW_EXCLUSIVE, R_CROWDS_PLACED = range(5)

# counters row: moves_tried, backtracks, skips[5], tier entries[4], tier exhaustions[4]
COUNTERS = 2 + len(REASONS) + TIERS + TIERS
C_MOVES, C_BACKTRACKS, C_SKIPS, C_ENTRIES, C_EXHAUSTED = 0, 1, 2, 2 + len(REASONS), 2 + len(REASONS) + TIERS

# trace events: EVENT_WIDTH ints (kind, depth, category, a, b, c, d, e); unused slots are -1
EVENT_KINDS = ("enter", "try", "skip", "place", "undo", "backtrack", "draw", "decoy")
E_ENTER, E_TRY, E_SKIP, E_PLACE, E_UNDO, E_BACKTRACK, E_DRAW, E_DECOY = range(8)
EVENT_WIDTH = 8

TIER_NAMES = ("yellow", "green", "blue", "purple")

# The difficulty model of a board (docs/difficulty.md): both twins read these when they prepare a
# library's model tables, so the compiled kernel and the reference share one copy of each number.
SALIENCE_MAX = 10  # a feature's salience at tile size: 0 (nobody sees it) .. 10 (seen at once)
# a phantom of k members on the board drawn from s of its groups pulls with
# salience * PHANTOM_SIZE_WEIGHT[k] * PHANTOM_SPREAD_WEIGHT[s]: four members are a ready-made wrong
# guess, and past eight the set is too broad to read as a group at all; members from exactly two
# groups (three of one group and one more, or two and two) look like a group seen another way,
# while a set scattered over three or four groups is rarely tried (the two blind play-tests: 19 of
# 124 such fours of two groups fooled a player, 1 of 120 of three or four groups; docs/difficulty.md)
PHANTOM_SIZE_WEIGHT = (0, 0, 0, 0, 4, 3, 2, 1, 1)
PHANTOM_SPREAD_WEIGHT = (0, 0, 2, 1, 1)
# a phantom of two groups that holds exactly three tiles of one of them is a one-away trap: its
# four look like that group with one tile swapped, and a guess of it hears "one away" and costs
# more guesses. It pulls with this weight instead of PHANTOM_SPREAD_WEIGHT[2] (the third blind
# play-test: 6 of its 10 wrong fours held three tiles of one group, 4 of them such a phantom)
PHANTOM_ONE_AWAY_WEIGHT = 3
# a phantom this strong fools a player: four members from two groups with salience 5 or more (4 or
# more for a one-away trap), five with salience 7 or more (5 for a one-away trap); a scattered set
# never (its strength stays under 40)
TEMPTING = 40
# a group's score: SCORE_HIDDEN per salience point under SALIENCE_MAX, SCORE_LURE per board tile
# outside the group that carries the feature its label names (at most LURE_CAP counted), SCORE_PULL per
# tempting phantom that holds one of its tiles (at most PULL_CAP)
SCORE_HIDDEN, SCORE_LURE, LURE_CAP, SCORE_PULL, PULL_CAP = 10, 10, 4, 5, 6
# a steered search's attempt k > 0 starts from draw k of mulberry32(state ^ ATTEMPT_SALT)
# (the compiled value: connections_model.pxi; the board parity tests compare the two)
ATTEMPT_SALT = 0x5BD1E995
# the range miss of an attempt kept without its model (its hidden pair missed the cap): worse than
# any real miss (the compiled value: connections_model.pxi)
MISS_UNKNOWN = 1 << 20
# a steered batch's figures per board beside its arrays (search_many_model's ``model`` row):
# attempt, tempting phantoms, hidden pair, then per colour its score, its search tier, and 1 when
# it shows its simpler label (its clause excludes no tile of the board)
MODEL_ROW = 3 + 3 * TIERS
M_ATTEMPT, M_TEMPTING, M_PAIR, M_SCORES, M_SEARCH_TIERS, M_SIMPLER = 0, 1, 2, 3, 3 + TIERS, 3 + 2 * TIERS

# Every value above as the compiled module reports its own (flagcore._connections.LAYOUT).
LAYOUT = {
    "ITEMS": ITEMS,
    "TIERS": TIERS,
    "DECOY_BELOW": DECOY_BELOW,
    "REDRAWS": REDRAWS,
    "DECOY_FOURS_CAP": DECOY_FOURS_CAP,
    "REPAIRS": REPAIRS,
    "REPAIR_TRIES": REPAIR_TRIES,
    "STATUS_OK": STATUS_OK,
    "STATUS_NO_BOARD": STATUS_NO_BOARD,
    "REASONS": len(REASONS),
    "R_TAG_ON_BOARD": R_TAG_ON_BOARD,
    "R_TOO_FEW_AVAILABLE": R_TOO_FEW_AVAILABLE,
    "R_TOO_FEW_PICKABLE": R_TOO_FEW_PICKABLE,
    "R_TOO_FEW_EXCLUSIVE": R_TOO_FEW_EXCLUSIVE,
    "R_CROWDS_PLACED": R_CROWDS_PLACED,
    "COUNTERS": COUNTERS,
    "C_MOVES": C_MOVES,
    "C_BACKTRACKS": C_BACKTRACKS,
    "C_SKIPS": C_SKIPS,
    "C_ENTRIES": C_ENTRIES,
    "C_EXHAUSTED": C_EXHAUSTED,
    "EVENT_KINDS": len(EVENT_KINDS),
    "E_ENTER": E_ENTER,
    "E_TRY": E_TRY,
    "E_SKIP": E_SKIP,
    "E_PLACE": E_PLACE,
    "E_UNDO": E_UNDO,
    "E_BACKTRACK": E_BACKTRACK,
    "E_DRAW": E_DRAW,
    "E_DECOY": E_DECOY,
    "EVENT_WIDTH": EVENT_WIDTH,
}


def no_board_message(mode: str, seed: int | str, legacy: bool, moves_tried: int) -> str:
    """The NoBoardError message of a failed search (both twins raise it with this text)."""
    why = (
        "the spec's incomplete search found none for this seed"
        if legacy
        else "no four categories of this library can form a board without an ambiguous tile"
    )
    return (
        f"connections: no valid category combination found (mode {mode!r}, seed {seed!r}, "
        f"{moves_tried} moves tried): {why}"
    )


def event_dicts(codes: Sequence[str], categories: Sequence[Any], raw: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The trace as the simulator shows it: one dict per step, in order (``categories[c]`` has
    .id, .label and .kind; ``codes[x]`` is country x)."""
    out: list[dict[str, Any]] = []
    for kind, d, c, a, b, x, y, z in raw:
        ev: dict[str, Any] = {"event": EVENT_KINDS[kind], "depth": d}
        if c >= 0:
            ev["category_id"] = categories[c].id
            ev["label"] = categories[c].label
            ev["kind"] = categories[c].kind
        if kind == E_ENTER:
            ev["tier"] = TIER_NAMES[d]
            ev["candidates"] = a
        elif kind == E_SKIP:
            ev["reason"] = REASONS[a]
        elif kind == E_PLACE:
            if a >= 0:  # legacy places tiles; the fixed search places the category, tiles come in "draw"
                ev["codes"] = [codes[v] for v in (a, b, x, y)]
            else:
                ev["exclusive"] = z
        elif kind == E_DRAW:
            ev["codes"] = [codes[v] for v in (a, b, x, y)]
        elif kind == E_DECOY:
            ev["removed"] = codes[a]
            ev["added"] = codes[b]
        out.append(ev)
    return out
