"""Play records in both real stores: write-once per key, the day's counters in the same step,
listed oldest first in bounded pages, expired after their ttl."""

from __future__ import annotations

import pytest
from stores import store  # noqa: F401 (the fixture)

from flagcore.store import SQLiteStore


def test_record_once_and_count(store) -> None:  # noqa: F811
    assert store.record_play("k1", b'{"n":1}', "day:b1", ("plays", "won", "last:purple"), 3600)
    assert not store.record_play("k1", b'{"n":2}', "day:b1", ("plays",), 3600)  # the same game again
    for i in range(2, 30):
        assert store.record_play(f"k{i}", b'{"n":%d}' % i, "day:b1", ("plays",), 3600)
    assert store.play_counts("day:b1") == {"plays": 29, "won": 1, "last:purple": 1}
    assert store.play_counts("day:other") == {}
    got = list(store.play_records(chunk=4))
    assert got == [b'{"n":1}'] + [b'{"n":%d}' % i for i in range(2, 30)]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("", b"x", "c", (), 10), ValueError),
        (("k", "not bytes", "c", (), 10), TypeError),
        (("k", b"x", "c", ["plays"], 10), TypeError),
        (("k", b"x", "c", (), 0), ValueError),
        (("k", b"x", "c", tuple(f"f{i}" for i in range(17)), 10), TypeError),
    ],
)
def test_bad_arguments(store, args, error) -> None:  # noqa: F811
    with pytest.raises(error):
        store.record_play(*args)


def test_records_expire(tmp_path) -> None:
    now = [1_000_000.0]
    s = SQLiteStore(tmp_path / "p.db", clock=lambda: now[0])
    try:
        s.record_play("a", b"1", "c", ("plays",), 60)
        now[0] += 30
        s.record_play("b", b"2", "c", ("plays",), 60)
        now[0] += 40  # a is past its ttl, b is not
        assert list(s.play_records()) == [b"2"]
        s.sweep()
        assert list(s.play_records()) == [b"2"]
        assert s.play_counts("c") == {"plays": 2}  # the counters live as long as the last play
    finally:
        s.close()


def test_a_save_or_a_verified_result_carries_its_play_record_atomically(store) -> None:  # noqa: F811
    play = ("p1", b'{"n":1}', "day:b2", ("plays", "won"), 3600)
    assert store.save_game("u", "b2", 0, b"[]", 60)
    assert not store.save_game("u", "b2", 0, b"[1]", 60, play=play)  # the compare-and-set lost: nothing
    assert store.play_counts("day:b2") == {} and list(store.play_records()) == []
    assert store.save_game("u", "b2", 1, b"[1]", 60, b"[]", ("connections|2027-01-01", b"r"), play)
    assert store.player_results("u") == {"connections|2027-01-01": b"r"}
    assert store.save_game("u", "b2", 2, b"[2]", 60, play=play)  # a later save with the same play...
    assert store.play_counts("day:b2") == {"plays": 1, "won": 1}  # ...never records it twice
    assert store.record_verified("puzzle", "j", 2**31, "deal", b"v", play=("p2", b'{"n":2}', "pz", ("plays",), 60))
    assert not store.record_verified("puzzle", "j2", 2**31, "deal", b"v", play=("p3", b"{}", "pz", ("plays",), 60))
    assert store.play_counts("pz") == {"plays": 1}
    assert list(store.play_records()) == [b'{"n":1}', b'{"n":2}']
    with pytest.raises(TypeError):
        store.save_game("u", "b2", 2, b"[2]", 60, play=["p", b"x", "c", (), 1])
