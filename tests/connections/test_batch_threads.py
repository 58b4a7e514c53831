"""generate_many's threads (connections.batch._on_threads): the chunks the threads take in turn
cover every seed once, the calling thread works too, and a chunk's error reaches the caller."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import batch


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5000), st.integers(2, 5))
def test_the_chunks_cover_every_seed_once(n: int, nthreads: int) -> None:
    done: list[tuple[int, int]] = []
    by: set[str] = set()
    lock = threading.Lock()

    def run(lo: int, hi: int) -> None:
        with lock:
            done.append((lo, hi))
            by.add(threading.current_thread().name)

    batch._on_threads(run, n, nthreads)
    seen = sorted(x for lo, hi in done for x in range(lo, hi))
    assert seen == list(range(n))
    assert all(hi - lo >= min(batch.SMALLEST_CHUNK, -(-n // nthreads)) or hi == n for lo, hi in done)
    if n >= nthreads * batch.SMALLEST_CHUNK:  # seeds enough: a chunk for each thread at least
        assert len(done) >= nthreads


def test_the_calling_thread_takes_chunks_and_errors_reach_the_caller() -> None:
    me = threading.current_thread()
    ran: list[bool] = []

    def run(lo: int, hi: int) -> None:
        ran.append(threading.current_thread() is me)
        if lo >= 4 * batch.SMALLEST_CHUNK:
            raise MemoryError("connections: out of memory")

    with pytest.raises(MemoryError):
        batch._on_threads(run, 16 * batch.SMALLEST_CHUNK, 2)
    assert any(ran)
