"""Where a server keeps what makes a day's result trustworthy: games in progress, spent tokens,
published boards and results (the interface: ``flagcore.store.base``).

``open_store(url)`` opens one:

==========================  ==============================================================
``none``                    None: stateless mode (signed tokens only; nothing is binding)
``sqlite:///path/games.db``  ``SQLiteStore``: one file, every worker of one machine
(or a plain path)
``redis://host:port/db``    ``RedisStore``: every server of a deployment (``flagcore[redis]``)
==========================  ==============================================================
"""

from __future__ import annotations

from .._args.store import parse_store_url
from .base import DEFAULT_TIMEOUT, GameRecord, Store
from .redis_store import RedisStore  # imports redis-py (an optional extra) when a RedisStore is made
from .sqlite_store import SQLiteStore

__all__ = ["DEFAULT_TIMEOUT", "GameRecord", "RedisStore", "SQLiteStore", "Store", "open_store"]


def open_store(url: str, *, timeout: float = DEFAULT_TIMEOUT) -> Store | None:
    """The store a URL names (see the module's table), or None for ``none``.

    timeout: seconds a store call may wait before raising StoreUnavailable (Redis: per attempt,
    at most two attempts). A SQLite file is created with its tables if missing; a Redis store
    connects at its first call.
    """
    kind, target = parse_store_url(url)
    if kind == "none":
        return None
    if kind == "sqlite":
        return SQLiteStore(target, timeout=timeout)
    return RedisStore(target, timeout=timeout)
