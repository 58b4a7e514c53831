"""Run by tests/web/test_web_startup.py in a process of its own: the app with a SQLite store at
``argv[1]``, its lifespan's start-up, the daily's background planning left to finish, then 40
games' first guesses by players without a cookie and each game's second guess by its player,
all concurrently, as ASGI calls. Prints the collector's thresholds before the app, while serving
and after the shutdown, and what a full collection found unreachable after the guesses (cyclic
garbage: none is what the raised first threshold of flagcore.web.ops rests on). A process of its
own, so no other test's garbage is counted."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from typing import Any

from flagcore.connections.daily import ahead
from flagcore.web import calls, create_app
from flagcore.web.calls import http_scope

SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"
GAMES = 40


async def call(app: Any, method: str, path: str, query: bytes = b"", body: bytes = b"", cookie: bytes = b"") -> Any:
    """(status, headers, body) of one request to ``app``."""
    status, headers, data = await calls.call(
        app, http_scope(method, path, query, body, [(b"cookie", cookie)] if cookie else []), body
    )
    return status, dict(headers), data


async def guesses(app: Any) -> None:
    """Each game's first guess (no cookie: the server makes the player) and then its second."""
    firsts = []
    for seed in range(GAMES):
        status, _, data = await call(app, "GET", "/api/connections/board", b"seed=%d" % seed)
        assert status == 200, data
        board = json.loads(data)
        codes = [t["code"] for t in board["tiles"]]
        firsts.append((board["token"], codes))
    guess = "/api/connections/guess"
    replies = await asyncio.gather(
        *(call(app, "POST", guess, body=json.dumps({"token": t, "codes": c[:4]}).encode()) for t, c in firsts)
    )
    seconds = []
    for (status, headers, data), (_, codes) in zip(replies, firsts, strict=True):
        assert status == 200, data
        cookie = headers[b"set-cookie"].split(b";", 1)[0]
        seconds.append((json.loads(data)["token"], codes[4:8], cookie))
    replies = await asyncio.gather(
        *(call(app, "POST", guess, body=json.dumps({"token": t, "codes": c}).encode(), cookie=k) for t, c, k in seconds)
    )
    assert all(status == 200 for status, _, _ in replies), replies[0]


async def main(path: str) -> None:
    start = gc.get_threshold()
    app = create_app(SECRET, store=f"sqlite:///{path}")
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    lifespan = asyncio.ensure_future(app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put))
    assert (await outbox.get())["type"] == "lifespan.startup.complete"
    assert ahead.settle(600)  # the daily's planner thread makes garbage of its own (flagcore.season), serving none
    gc.collect()  # what start-up and the planning left
    serving = gc.get_threshold()
    await guesses(app)
    cyclic = gc.collect()
    await inbox.put({"type": "lifespan.shutdown"})
    assert (await outbox.get())["type"] == "lifespan.shutdown.complete"
    await lifespan
    print(json.dumps({"start": start, "serving": serving, "after": gc.get_threshold(), "cyclic": cyclic}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
