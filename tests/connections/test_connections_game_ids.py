"""Board ids (round trip, typo rejection, bad input) and the daily seed."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import Board, Group, board_id, daily_seed, encode_board_id, parse_board_id
from flagcore.connections.ids import ID_LENGTH
from flagcore.reference.rng import seed_to_state

ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
ID_RE = re.compile(rf"[{ALPHABET}]{{{ID_LENGTH}}}")


@settings(max_examples=500, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=30)),
    mode=st.sampled_from(["flags", "trivia"]),
    legacy=st.booleans(),
)
def test_round_trip(seed, mode, legacy):
    bid = encode_board_id(seed, mode, legacy)
    assert ID_RE.fullmatch(bid)
    assert parse_board_id(bid) == (seed_to_state(seed), mode, legacy)
    assert parse_board_id(bid.upper()) == parse_board_id(bid)  # case-insensitive


def test_str_seed_and_its_state_share_an_id():
    assert encode_board_id("daily:2026-11-29") == encode_board_id(seed_to_state("daily:2026-11-29"))


def test_board_id_of_a_board():
    g = tuple(Group(t, "x", tuple(f"C{4 * t + i}" for i in range(4)), "c") for t in range(4))
    board = Board(
        tiles=tuple(c for x in g for c in x.codes), groups=g, seed="daily:2026-11-29", mode="trivia", legacy=True
    )
    assert parse_board_id(board_id(board)) == (seed_to_state("daily:2026-11-29"), "trivia", True)
    with pytest.raises(TypeError, match="board"):
        board_id(board.to_dict())  # type: ignore[arg-type]


def test_known_ids_are_stable():
    # Fixed vectors: changing the format must bump VERSION, not silently change shared ids.
    assert encode_board_id(0) == "00000000g0f91"
    assert encode_board_id(12, "flags") == "000001g0g0j20"
    assert encode_board_id(2**32 - 1, "trivia", True) == "fzzzzzw0g71wj"
    assert parse_board_id("000001g0g0j20") == (12, "flags", False)


def test_crockford_aliases_read_as_digits():
    bid = encode_board_id(12)
    assert parse_board_id(bid.replace("0", "O")) == (12, "flags", False)
    bid1 = encode_board_id(2**32 - 1, "trivia", True)
    assert parse_board_id(bid1.replace("1", "l")) == parse_board_id(bid1.replace("1", "I"))


@pytest.mark.parametrize("seed", [0, 12, 4242, 2**31, 2**32 - 1, "daily:2026-11-29", "x"])
@pytest.mark.parametrize("mode,legacy", [("flags", False), ("trivia", True)])
def test_every_single_typo_and_neighbour_swap_is_rejected(seed, mode, legacy):
    bid = encode_board_id(seed, mode, legacy)
    for i, ch in enumerate(bid):
        for other in ALPHABET:
            if other != ch:
                with pytest.raises(ValueError, match="board id"):
                    parse_board_id(bid[:i] + other + bid[i + 1 :])
    for i in range(ID_LENGTH - 1):
        if bid[i] != bid[i + 1]:
            with pytest.raises(ValueError, match="board id"):
                parse_board_id(bid[:i] + bid[i + 1] + bid[i] + bid[i + 2 :])


def _forge(seed_state, version, flags):
    """Build a well-checksummed id with any version/flags, to test what the parser refuses."""
    import binascii

    body = seed_state.to_bytes(4, "big") + bytes([version, flags])
    value = int.from_bytes(body + binascii.crc_hqx(body, 0xFFFF).to_bytes(2, "big"), "big")
    return "".join(ALPHABET[(value >> (5 * k)) & 31] for k in reversed(range(ID_LENGTH)))


def test_forge_helper_matches_encoder():
    assert _forge(12, 1, 0) == encode_board_id(12)
    assert _forge(7, 1, 3) == encode_board_id(7, "trivia", True)


BAD_IDS = [
    (None, TypeError, "str"),
    (12345, TypeError, "str"),
    (b"000001g0g0j20", TypeError, "str"),
    ("", ValueError, "13 characters"),
    ("00000061097p", ValueError, "13 characters"),
    ("00000061097prr", ValueError, "13 characters"),
    ("00000061097p!", ValueError, "invalid character"),
    ("00000061097pu", ValueError, "invalid character"),
    ("00000-61097pr", ValueError, "invalid character"),
    ("zzzzzzzzzzzzz", ValueError, "not a board id"),
    ("00000061097ps", ValueError, "checksum"),
    ("0000000000000", ValueError, "checksum"),
    (_forge(12, 2, 0), ValueError, "version"),
    (_forge(12, 0, 0), ValueError, "version"),
    (_forge(12, 1, 0x40), ValueError, "flag bits"),  # bits 2..5 hold the difficulty (docs/difficulty.md)
]


def test_unknown_difficulty_bits():
    """Bits 2..5 name a difficulty; a value past the last one is refused."""
    from flagcore.connections.ids import id_difficulty

    with pytest.raises(ValueError, match="unknown difficulty"):
        id_difficulty(_forge(12, 1, 15 << 2))


@pytest.mark.parametrize("bid,exc,words", BAD_IDS)
def test_bad_ids(bid, exc, words):
    with pytest.raises(exc, match=words):
        parse_board_id(bid)


@pytest.mark.parametrize(
    "seed,mode,legacy,exc,words",
    [
        (-1, "flags", False, ValueError, "seed"),
        (2**32, "flags", False, ValueError, "seed"),
        (1.0, "flags", False, TypeError, "seed"),
        (None, "flags", False, TypeError, "seed"),
        (1, "chess", False, ValueError, "mode"),
        (1, "flags", 1, TypeError, "legacy"),
    ],
)
def test_encode_bad_input(seed, mode, legacy, exc, words):
    with pytest.raises(exc, match=words):
        encode_board_id(seed, mode, legacy)


def test_daily_seed():
    assert daily_seed(dt.date(2026, 11, 29)) == "daily:2026-11-29"
    assert daily_seed(dt.datetime(2026, 11, 29, 23, 59)) == "daily:2026-11-29"
    assert daily_seed("2026-11-29") == "daily:2026-11-29"
    today = dt.datetime.now(dt.timezone.utc).date()
    assert daily_seed() in (f"daily:{today}", f"daily:{today + dt.timedelta(days=1)}")


@pytest.mark.parametrize(
    "date,exc",
    [
        ("2026-02-30", ValueError),
        ("2026-11-29T00:00", ValueError),
        ("29/11/2026", ValueError),
        ("", ValueError),
        ("20261129", ValueError),
        (20261129, TypeError),
        (1.5, TypeError),
    ],
)
def test_daily_seed_bad(date, exc):
    with pytest.raises(exc, match="date"):
        daily_seed(date)
