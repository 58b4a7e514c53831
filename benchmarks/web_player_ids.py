"""The cost of a new anonymous player's first save in SQLite, by the form of its id: 128 random
bits (flagcore before time-ordered ids) against the creation's second and 96 random bits
(flagcore.web.players.new_player_id), side by side in interleaved rounds.

    python benchmarks/web_player_ids.py                # 3 rounds, 100,000 games kept, 20,000 new
    python benchmarks/web_player_ids.py --rounds 5 --kept 300000

Each round and form: a new SQLite file holding ``--kept`` games of earlier players (ids of that
form, made ``--rate`` a second before now), then ``--new`` first saves of new players (ids of
that form, ``--rate`` a second from now on), as the server writes them: ``asave_game`` on an
event loop, ``--batch`` saves a turn (one transaction). Per form: the median over the rounds of
the microseconds a save took (the wall time of the new saves over their count: the store's own
thread does the work), the same as a ratio to the random ids' of its round, and the bytes the
process wrote (its ``wchar``: the WAL and the checkpoints into the file) per save.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flagcore.store import SQLiteStore
from flagcore.web.players import new_player_id

RANDOM = random.Random(os.urandom(16))


def random_id(now: float) -> str:
    """An id of flagcore before time-ordered ids: 128 random bits."""
    return f"a:{RANDOM.getrandbits(128):032x}"


FORMS: dict[str, Callable[[float], str]] = {"random 128 bits": random_id, "second + 96 random bits": new_player_id}


def written() -> int:
    """Bytes this process has passed to write calls so far (Linux /proc)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise SystemExit("no /proc/self/io")


async def save_all(store: SQLiteStore, ids: list[str], batch: int) -> None:
    data = b'[["FR","DE","IT","ES"]]'  # a first guess's game, about its size
    for i in range(0, len(ids), batch):
        await asyncio.gather(*(store.asave_game(p, "c:1234567:flags:0", 0, data, 3600) for p in ids[i : i + batch]))


def one(form: Callable[[float], str], args: argparse.Namespace, folder: Path) -> tuple[float, float]:
    """(µs per new save, bytes written per new save) of one round of ``form``."""
    now = time.time()
    kept = [form(now - (args.kept - i) / args.rate) for i in range(args.kept)]
    new = [form(now + i / args.rate) for i in range(args.new)]
    path = folder / f"games-{RANDOM.getrandbits(32):08x}.db"
    store = SQLiteStore(path)
    try:
        asyncio.run(save_all(store, kept, 500))
        start, before = time.perf_counter(), written()
        asyncio.run(save_all(store, new, args.batch))
        seconds, wrote = time.perf_counter() - start, written() - before
    finally:
        store.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return 1e6 * seconds / args.new, wrote / args.new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, default, what in (
        ("--rounds", 3, "interleaved rounds of the forms"),
        ("--kept", 100_000, "games of earlier players in the file"),
        ("--new", 20_000, "first saves of new players measured"),
        ("--rate", 400, "new players a second (the ids' seconds)"),
        ("--batch", 32, "saves a turn of the event loop (one transaction)"),
    ):
        parser.add_argument(flag, type=int, default=default, help=f"{what} (default {default})")
    args = parser.parse_args()
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in FORMS}
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, form in FORMS.items():
                figures[name].append(one(form, args, Path(tmp)))
    print(
        f"`python benchmarks/web_player_ids.py {' '.join(sys.argv[1:])}`: {args.kept:,} games kept, "
        f"{args.new:,} new, {args.batch} a turn; load average {' '.join(f'{x:.2f}' for x in load)} before, "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after (2 cores)"
    )
    first = next(iter(figures.values()))
    print(
        "\n| player id | µs per first save (median; rounds) | vs random ids (median of rounds) | bytes written/save |"
    )
    print("|---|---|---|---|")
    for name, rounds in figures.items():
        us = [r[0] for r in rounds]
        ratio = statistics.median(r[0] / f[0] for r, f in zip(rounds, first, strict=True))
        print(
            f"| {name} | {statistics.median(us):.1f} ({min(us):.1f}-{max(us):.1f}) | {ratio:.2f}x "
            f"| {statistics.median(r[1] for r in rounds):,.0f} |"
        )


if __name__ == "__main__":
    main()
