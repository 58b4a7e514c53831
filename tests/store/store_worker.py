"""A second process on the same store, for the concurrency tests: ``python store_worker.py URL PREFIX
NAME COUNT``. Waits for a line on stdin (so both processes start together), then spends tokens
0..COUNT-1 and appends NAME-0..NAME-(COUNT-1) to one shared game by compare-and-set, and prints
a JSON object: the tokens it won and how many of its writes lost a race."""

from __future__ import annotations

import json
import sys
import time

from flagcore.store import RedisStore, SQLiteStore

FAR = int(time.time()) + 3600


def append(store, item: str) -> int:
    """Append ``item`` to the shared game's list; the number of lost compare-and-sets."""
    lost = 0
    while True:
        record = store.load_game("shared", "board")
        items = json.loads(record.data) if record else []
        version = record.version if record else 0
        if store.save_game("shared", "board", version, json.dumps([*items, item]).encode(), 600):
            return lost
        lost += 1


def main() -> None:
    url, prefix, name, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = RedisStore(url, prefix=prefix) if url.startswith("redis://") else SQLiteStore(url, timeout=30)
    sys.stdin.readline()
    won, lost = [], 0
    for i in range(count):
        if store.spend("puzzle", f"t{i}", FAR):
            won.append(i)
        lost += append(store, f"{name}-{i}")
    print(json.dumps({"won": won, "lost": lost}))


if __name__ == "__main__":
    main()
