"""``as_board_query``'s fast path for the common ``?seed=<digits>`` request reads exactly what the
general rules read: the same BoardQuery, or the same refusal (hypothesis over seed texts, digits
and near-digits: signs, spaces, non-ASCII digits, values past 2^32, leading zeros)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from flagcore._args.web import as_board_query
from flagcore.errors import ApiError, ArgumentError

LATEST = "2027-01-01"
SEEDS = st.one_of(
    st.text(alphabet="0123456789", max_size=14),
    st.integers(0, 2**40).map(str),
    st.text(alphabet="0123456789+- _.e٣１", max_size=12),
    st.text(max_size=8),
)


def _read(query: dict[str, str]) -> Any:
    try:
        return as_board_query(query, LATEST)
    except (ApiError, ArgumentError) as exc:
        return ("refused", type(exc).__name__, str(exc))


@given(SEEDS)
def test_the_seed_fast_path_reads_as_the_general_rules(seed: str) -> None:
    fast = _read({"seed": seed})  # one name: the fast path where it applies
    general = _read({"seed": seed, "mode": "flags"})  # two names: the general rules, same meaning
    assert fast == general


def test_the_fast_path_is_taken_and_refuses_what_it_should() -> None:
    for seed in ("007", "１", "٣", "1٣", str(2**32), str(2**32 - 1)):  # leading zeros; non-ASCII digits are words
        assert _read({"seed": seed}) == _read({"seed": seed, "mode": "flags"}), seed
    assert _read({"seed": "+7"})[0] == "refused"  # the README: a sign is refused
