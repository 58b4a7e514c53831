"""How long a call must run without the GIL before two threads beat one, on this machine.

    python benchmarks/gil_handoff.py              # 7 rounds per row, about a minute
    python benchmarks/gil_handoff.py --rounds 15

Two kinds of call, each timed as a fixed number of calls on one thread and the same number split
over two threads, the two alternating round by round (a drift of the shared machine moves both):

- ``sha256(N bytes)``: the standard library's hashlib, which releases the GIL for inputs over
  2 KiB, so nearly the whole call runs without it. No flagcore code: this row is the ceiling any
  extension gets from threads for a call of that length.
- flagcore's public calls: ``connections.generate`` and ``puzzle.new_game`` one by one, and
  ``connections.generate_many`` in batches of growing size (one batch is one GIL release, with
  the whole search inside it).

Each row prints the time per call on one thread and the speed-up of two threads (calls per
second on two threads over calls per second on one, the median over the rounds). On CPython with
the GIL, a thread that releases it must take it back when its call ends; when the other thread
holds it, it waits to be woken through the kernel, and a call of a few microseconds ends long
before that hand-off completes. So two threads pay off only when the work between two hand-offs
is long (tens of microseconds here), whatever the share of it that runs without the GIL.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable

from flagcore import connections, puzzle


def timed(call: Callable[[int], object], calls: int, threads: int) -> float:
    """Seconds to make ``calls`` calls of call(i), split evenly over ``threads`` threads."""
    per = calls // threads
    start_line = threading.Barrier(threads + 1)

    def work(offset: int) -> None:
        start_line.wait()
        for i in range(offset, offset + per):
            call(i)

    pool = [threading.Thread(target=work, args=(t * per,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    start_line.wait()
    begin = time.perf_counter()
    for thread in pool:
        thread.join()
    return time.perf_counter() - begin


def row(name: str, call: Callable[[int], object], calls: int, rounds: int) -> tuple[str, float, float]:
    """(name, microseconds per call on one thread, median speed-up of two threads)."""
    call(0)  # warm: caches, lazily built tables
    one, ratios = [], []
    for _ in range(rounds):
        t1 = timed(call, calls, 1)
        t2 = timed(call, calls, 2)
        one.append(t1 / calls * 1e6)
        ratios.append(t1 / t2)
    return name, statistics.median(one), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7, help="alternating 1- and 2-thread rounds per row (default 7)")
    args = parser.parse_args()
    rows = []
    for size in (4 << 10, 16 << 10, 64 << 10, 256 << 10):
        data = os.urandom(size)
        rows.append(
            row(
                f"hashlib.sha256, {size >> 10} KiB (stdlib, GIL released inside)",
                lambda i, data=data: hashlib.sha256(data).digest(),
                max(400, (8 << 20) // size),
                args.rounds,
            )
        )
    rows.append(
        row("connections.generate(seed, 'flags')", lambda i: connections.generate(i, "flags"), 4000, args.rounds)
    )
    rows.append(
        row("puzzle.new_game('FR', 'hard', seed)", lambda i: puzzle.new_game("FR", "hard", i), 4000, args.rounds)
    )
    for batch in (4, 16, 64, 256):
        rows.append(
            row(
                f"connections.generate_many, batches of {batch} (threads=1 inside)",
                lambda i, batch=batch: connections.generate_many(range(i * batch, (i + 1) * batch), "flags", threads=1),
                max(40, 8000 // batch),
                args.rounds,
            )
        )
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.rounds} rounds, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print("| call | µs per call, 1 thread | 2 threads vs 1 (median) |")
    print("|---|---|---|")
    for name, micros, ratio in rows:
        print(f"| {name} | {micros:,.1f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
