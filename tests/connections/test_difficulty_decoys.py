"""Red herrings that work on people: which phantoms the model calls tempting, and normal boards that hold them.

The boards below are boards of the second and third blind play-tests (README, "Difficulty a player
feels"), as played: each wrong four is the guess the player made. They are the data the phantom strength was
chosen on, so these tests keep the model saying what fooled people; they do not prove it predicts
a new player.
"""

from __future__ import annotations

import pytest
from twin_sizes import sized

from flagcore import Rng, connections
from flagcore._args.connections import difficulty_target
from flagcore._connections_layout import (
    ATTEMPT_SALT,
    MISS_UNKNOWN,
    PHANTOM_ONE_AWAY_WEIGHT,
    PHANTOM_SPREAD_WEIGHT,
    TEMPTING,
)
from flagcore.connections.board import Board, Group
from flagcore.connections.difficulty import board_difficulty

MODES = ("flags", "trivia")

# (seed, mode, groups as (category id, codes), the wrong four the player tried)
PLAYED = [
    (
        "blind24b-t3",
        "trivia",
        [
            ("tag:crescent_white", ("SG", "AZ", "LY", "UZ")),
            ("geo:borders-br", ("SR", "PE", "VE", "UY")),
            ("gov:not-un", ("VA", "TW", "XK", "PS")),
            ("flag:horizontal-tricolour-arms", ("EC", "RS", "SK", "SI")),
        ],
        {"EC", "PE", "UY", "VE"},  # four Spanish-speaking: three of one group and one of another
    ),
    (
        "blind24b-f4",
        "flags",
        [
            ("tag:sun", ("RW", "TW", "KZ", "PH")),
            ("tag:saltire", ("AU", "NZ", "FJ", "TV")),
            ("tag:red_field", ("AL", "TR", "MV", "CH")),
            ("tag:stars:5", ("TM", "SG", "WS", "PG")),
        ],
        {"MV", "SG", "TM", "TR"},  # four crescents: two and two
    ),
    (
        "blind24b-t7",
        "trivia",
        [
            ("name:four-letters", ("IQ", "FJ", "TG", "PE")),
            ("gov:monarchy", ("SZ", "TO", "ES", "SA")),
            ("tag:colours:white-blue", ("GR", "FI", "IL", "HN")),
            ("flag:stripes-only", ("IE", "AM", "IT", "FR")),
        ],
        {"FR", "IE", "IT", "PE"},  # four vertical tricolours
    ),
    (
        "blind24b-t1",
        "trivia",
        [
            ("name:starts-i", ("IT", "IR", "IS", "IQ")),
            ("geo:oceania", ("AU", "WS", "FJ", "TV")),
            ("flag:two-colours", ("MA", "BD", "SO", "QA")),
            ("flag:yellow-no-red", ("VC", "BB", "BT", "LC")),
        ],
        {"IQ", "MA", "QA", "SO"},  # four with Arabic official
    ),
    (
        "blind24c-t3",
        "trivia",
        [
            ("flag:crescent-and-star", ("TR", "AZ", "UZ", "LY")),
            ("name:ends-ia", ("EE", "RO", "BG", "SY")),
            ("geo:borders-cn", ("KZ", "LA", "NP", "TJ")),
            ("flag:green-no-red-no-yellow", ("CI", "SL", "LS", "CY")),
        ],
        {"CI", "LS", "LY", "SL"},  # four African: three of one group and one more ("one away")
    ),
    (
        "blind24c-t3",
        "trivia",
        [
            ("flag:crescent-and-star", ("TR", "AZ", "UZ", "LY")),
            ("name:ends-ia", ("EE", "RO", "BG", "SY")),
            ("geo:borders-cn", ("KZ", "LA", "NP", "TJ")),
            ("flag:green-no-red-no-yellow", ("CI", "SL", "LS", "CY")),
        ],
        {"BG", "CY", "EE", "RO"},  # four EU members: three of one group and one more ("one away")
    ),
]


def played_board(seed, mode, groups):
    tiles = tuple(code for _, codes in groups for code in codes)
    return Board(tiles, tuple(Group(t, cid, codes, cid) for t, (cid, codes) in enumerate(groups)), seed, mode)


@pytest.mark.parametrize(("seed", "mode", "groups", "wrong"), PLAYED, ids=[p[0] for p in PLAYED])
def test_the_decoys_that_fooled_players_are_tempting(twin, seed, mode, groups, wrong):
    """Each wrong four of the play-test lies inside a tempting phantom; no tempting phantom is scattered."""
    model = board_difficulty(played_board(seed, mode, groups))
    assert any(wrong <= set(p.codes) for p in model.tempting)
    for p in model.phantoms:
        assert p.tempting == (p.strength >= TEMPTING)
        if p.spread > 2:  # members over three or four groups: no ready-made four, the players never tried one
            assert not p.tempting


def one_away(board, phantom):
    """True when ``phantom``'s members come from two groups of ``board``, three from one of them."""
    per_group = [len(set(phantom.codes) & set(g.codes)) for g in board.groups]
    return sum(1 for n in per_group if n) == 2 and 3 in per_group


@pytest.mark.parametrize("played", PLAYED, ids=[p[0] for p in PLAYED])
def test_spread_weighs_the_strength(twin, played):
    """A one-away trap pulls hardest, then two groups, then three or four; within one group nothing pulls."""
    assert PHANTOM_SPREAD_WEIGHT[0] == PHANTOM_SPREAD_WEIGHT[1] == 0
    assert PHANTOM_ONE_AWAY_WEIGHT > PHANTOM_SPREAD_WEIGHT[2] > PHANTOM_SPREAD_WEIGHT[3] >= PHANTOM_SPREAD_WEIGHT[4] > 0
    board = played_board(*played[:3])
    model = board_difficulty(board)
    for p in model.phantoms:
        if len(p.codes) == 4 and p.spread >= 2:
            weight = PHANTOM_ONE_AWAY_WEIGHT if one_away(board, p) else PHANTOM_SPREAD_WEIGHT[p.spread]
            assert p.strength == p.salience * 4 * weight


def test_the_one_away_traps_of_the_third_play_test_weigh_as_such(twin):
    """Both one-away fours the third player tried on blind24c-t3 lie in a phantom weighed as a one-away trap."""
    board = played_board(*PLAYED[4][:3])
    model = board_difficulty(board)
    for wrong in (PLAYED[4][3], PLAYED[5][3]):
        (trap,) = [p for p in model.tempting if set(p.codes) == wrong]
        assert one_away(board, trap)
        assert trap.strength == trap.salience * 4 * PHANTOM_ONE_AWAY_WEIGHT


@pytest.mark.parametrize("mode", MODES)
def test_the_difficulties_order_the_red_herrings(mode):
    """Over many seeds, hard boards hold more tempting phantoms than the search alone, and more
    boards with an exact four among them; easy holds fewer. Normal puts its hidden pair first and
    keeps about as many as the search alone (its second aim, within two searches)."""
    n = sized(300, 60)

    def counts(level):
        models = [board_difficulty(connections.generate(s, mode, difficulty=level)) for s in range(n)]
        tempting = sum(len(m.tempting) for m in models)
        exact = sum(1 for m in models if any(len(p.codes) == 4 for p in m.tempting))
        return tempting, exact

    alone, normal, hard, easy = counts(None), counts("normal"), counts("hard"), counts("easy")
    assert hard[0] > alone[0] > easy[0]
    assert hard[1] > alone[1] > easy[1] or hard[1] == alone[1] == n  # trivia: nearly every board holds one
    assert normal[0] >= 0.9 * alone[0] and normal[1] >= 0.9 * alone[1]


def hidden_pair(board: Board) -> int:
    """The saliences of the board's two least visible groups, summed."""
    a, b = sorted(g.salience for g in board_difficulty(board).groups)[:2]
    return a + b


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("mode", MODES)
def test_a_steered_board_is_the_best_of_its_searches(twin, mode, level):
    """The board a difficulty keeps is the one the documented rule picks among its searches, each
    rebuilt as the search alone from its own state: the smallest excess of the hidden pair over the
    cap first, then the smallest miss of the tempting range; an attempt whose pair misses the cap
    while searches remain has no model, so any modelled attempt with its pair beats it."""
    lo, hi, attempts, cap = difficulty_target(level)
    for s in range(sized(150, 30)):
        board = connections.generate(s, mode, difficulty=level)
        salt = Rng(s ^ ATTEMPT_SALT)
        states = [s] + [salt.next_uint32() for _ in range(attempts - 1)]
        best: tuple[int, int, int] | None = None
        for k, st in enumerate(states):
            alone = connections.generate(st, mode, difficulty=None)
            pm = max(0, hidden_pair(alone) - cap)
            if best is not None and pm > best[0]:
                continue
            miss = MISS_UNKNOWN
            if pm == 0 or k == attempts - 1:
                t = len(board_difficulty(alone).tempting)
                miss = lo - t if t < lo else max(0, t - hi)
            if best is None or pm < best[0] or miss < best[1]:
                best = (pm, miss, k)
            if pm == 0 and miss == 0:
                break
        assert best is not None
        model = board.stats["model"]
        assert model["attempt"] == best[2], s
        chosen = connections.generate(states[best[2]], mode, difficulty=None)
        assert {g.codes for g in board.groups} == {g.codes for g in chosen.groups}
        assert model["hidden_pair"] == hidden_pair(board) == hidden_pair(chosen)
        assert model["tempting_phantoms"] == len(board_difficulty(board).tempting)


@pytest.mark.parametrize("mode", MODES)
def test_normal_hides_a_pair_more_often_than_the_search_alone(mode):
    """The hidden pair (the two least visible groups' saliences summed, at most 6) is what normal
    aims for first: over many seeds it holds one far more often than the search alone."""
    n = sized(300, 60)
    cap = difficulty_target("normal")[3]
    alone = sum(hidden_pair(connections.generate(s, mode, difficulty=None)) <= cap for s in range(n))
    normal = sum(connections.generate(s, mode).stats["model"]["hidden_pair"] <= cap for s in range(n))
    assert normal > alone * 1.3
