"""The server's results against faults and floods, in process, on real stores: a failure of the
store between a game's last save and the player's stats is recorded exactly once after the
client's retry (Connections and the Puzzle daily); a flood of cookieless guesses leaves the store,
once they expire, as it was; with a secret, no public call gives the served daily of today or
tomorrow (both modes and the Puzzle)."""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest
from redis_server import RedisServer, free_port
from stores import make_store
from web_helpers import SECRET, answers, optimal_log

from flagcore import connections, puzzle
from flagcore.days import latest_day
from flagcore.errors import StoreUnavailable
from flagcore.season import puzzle_plan
from flagcore.store import RedisStore, SQLiteStore
from flagcore.store import base as store_base
from flagcore.web.app import create_app, derived_season_key
from flagcore.web.tokens import Signer

pytest_plugins = ["stores"]


def run_loop(coroutine):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def call(app, method: str, path: str, body=None, query: bytes = b"", cookie: bytes | None = None):
    """One request through the ASGI app: (status, JSON body, Set-Cookie value or None)."""
    sent = []
    raw = b"" if body is None else orjson.dumps(body)
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), (b"content-length", b"%d" % len(raw))]
    if cookie:
        headers.append((b"cookie", cookie))

    async def receive():
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "query_string": query, "headers": headers}
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    set_cookie = dict(start["headers"]).get(b"set-cookie")
    return start["status"], orjson.loads(body), set_cookie and set_cookie.split(b";")[0]


def test_guesses_refused_while_redis_is_down_leave_no_reference_cycles(monkeypatch):
    """A guess the store's open breaker refuses at once (Redis refused a connection) leaves no
    cyclic garbage: its failure, bound to a name of the frame that raised it, held the traceback
    that holds the frame (about 50 cyclic objects a request: the collector's work, then a full
    collection's pause of every request of the worker, the store-free ones too)."""
    monkeypatch.setattr(store_base, "PAUSE_AFTER_FAILURE", 600.0)  # no probe after the first refusal
    app = create_app(SECRET, store=RedisStore(f"redis://127.0.0.1:{free_port()}/0", timeout=0.5))  # nobody listens

    async def scenario():
        firsts = []
        for seed in range(10):
            status, board, _ = await call(app, "GET", "/api/connections/board", query=b"seed=%d" % seed)
            assert status == 200  # a cookieless board asks the store nothing
            firsts.append({"token": board["token"], "codes": [t["code"] for t in board["tiles"][:4]]})
        assert (await call(app, "POST", "/api/connections/guess", firsts[0]))[0] == 503  # the refusal
        gc.collect()
        gc.disable()
        try:
            statuses = {(await call(app, "POST", "/api/connections/guess", firsts[i % 10]))[0] for i in range(200)}
            return statuses, gc.collect()
        finally:
            gc.enable()

    statuses, cyclic = run_loop(scenario())
    assert statuses == {503}
    assert cyclic < 200  # undone: about 9,800 (49 a request)


def fail_once_after_writing(store, monkeypatch):
    """The store's next batch is written, then its reply is lost (the client gets 503)."""
    real = store._execute
    armed = [True]

    async def execute(ops):
        results = await real(ops)
        if armed and any(_writes(store, op) for op in ops):
            armed.clear()
            raise StoreUnavailable("the reply was lost after the write")
        return results

    monkeypatch.setattr(store, "_execute", execute)


def fail_once_before_writing(store, monkeypatch):
    """The store's next batch that writes fails before anything of it is written."""
    real = store._execute
    armed = [True]

    async def execute(ops):
        if armed and any(_writes(store, op) for op in ops):
            armed.clear()
            raise StoreUnavailable("the store failed mid-batch")
        return await real(ops)

    monkeypatch.setattr(store, "_execute", execute)


def _writes(store, op) -> bool:
    if store.kind == "sqlite":
        return op.writes
    return any(c[0] in ("EVALSHA", "EVAL", "SET") for c in op.commands)


@pytest.mark.parametrize("when", ["after", "before"])
@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_store_failure_at_the_last_guess_of_a_daily_is_recorded_once_after_the_retry(
    kind, when, tmp_path, redis_server, monkeypatch
):
    store = make_store(kind, tmp_path, redis_server)
    app = create_app(SECRET, store=store)
    today = latest_day().isoformat()

    async def scenario():
        status, board, cookie = await call(app, "GET", "/api/connections/board", query=f"daily={today}".encode())
        groups = [list(g.codes) for g in answers(board["board_id"]).groups]
        token = board["token"]
        for codes in groups[:3]:
            status, reply, _ = await call(
                app, "POST", "/api/connections/guess", {"token": token, "codes": codes}, cookie=cookie
            )
            assert status == 200
            token = reply["token"]
        (fail_once_after_writing if when == "after" else fail_once_before_writing)(store, monkeypatch)
        last = {"token": token, "codes": groups[3]}
        first = await call(app, "POST", "/api/connections/guess", last, cookie=cookie)
        retry = await call(app, "POST", "/api/connections/guess", last, cookie=cookie)
        stats = await call(app, "GET", "/api/stats", cookie=cookie)
        return first, retry, stats

    first, retry, stats = run_loop(scenario())
    assert first[0] == 503 and first[1]["error"]["code"] == "store_unavailable"
    # the write had landed: the retry finds the game moved on; it had not: the retry records it
    assert retry[0] == (409 if when == "after" else 200)
    games = stats[1]["games"]
    assert games["connections"]["played"] == 1 and games["connections"]["wins"] == 1
    store.close()


@pytest.mark.parametrize("when", ["after", "before"])
@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_store_failure_at_a_puzzle_daily_verify_is_recorded_once_after_the_retry(
    kind, when, tmp_path, redis_server, monkeypatch
):
    store = make_store(kind, tmp_path, redis_server)
    app = create_app(SECRET, store=store)
    today = latest_day().isoformat()

    async def scenario():
        status, deal, cookie = await call(app, "POST", "/api/puzzle/deal", {"daily": today})
        assert status == 200
        classes = deal["classes"]
        swaps = optimal_log(deal["tiles_by_slot"], classes) if len(classes) <= 9 else None
        if swaps is None:  # a large daily: any solving log (its result is still recorded once)
            from web_helpers import greedy_log

            swaps = greedy_log(deal["tiles_by_slot"], classes)
        (fail_once_after_writing if when == "after" else fail_once_before_writing)(store, monkeypatch)
        body = {"token": deal["token"], "swaps": swaps}
        first = await call(app, "POST", "/api/puzzle/verify", body, cookie=cookie)
        retry = await call(app, "POST", "/api/puzzle/verify", body, cookie=cookie)
        stats = await call(app, "GET", "/api/stats", cookie=cookie)
        return first, retry, stats

    first, retry, stats = run_loop(scenario())
    assert first[0] == 503
    assert retry[0] == (409 if when == "after" else 200)
    assert stats[1]["games"]["puzzle"]["played"] == 1
    store.close()


class SQLiteFlooded:
    """A SQLite store on a clock of the test's: its size is the pages in use; time passes at once."""

    ttl = 600

    def __init__(self, tmp_path) -> None:
        self.now = 2_000_000_000.0
        self.store = SQLiteStore(tmp_path / "games.db", clock=lambda: self.now, sweep_seconds=3600, timeout=30)

    def size(self) -> int:
        return self.store._call(
            lambda c: c.execute("PRAGMA page_count").fetchone()[0] - c.execute("PRAGMA freelist_count").fetchone()[0]
        )

    def games(self) -> int:
        return self.store._call(lambda c: c.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def expire(self) -> None:
        self.now += self.ttl + 1  # past the cookieless games' lifetime, within the cookie player's
        self.store.sweep()

    def close(self) -> None:
        self.store.close()


class RedisFlooded:
    """A redis-server of the test's own: its size is the bytes of its keys (MEMORY USAGE, which
    counts each key's value and overhead); Redis expires the games on its own real clock."""

    ttl = 4

    def __init__(self, tmp_path) -> None:
        import redis

        self.server = RedisServer()
        self.server.start()
        self.store = RedisStore(self.server.url, timeout=30)
        self.client = redis.Redis.from_url(self.server.url)

    def size(self) -> int:
        # reading each key expires it if its time is past (Redis's lazy expiry): what is left is live
        pipe = self.client.pipeline(transaction=False)
        for key in self.client.scan_iter(count=1000):
            pipe.memory_usage(key)
        return sum(n or 0 for n in pipe.execute())

    def games(self) -> int:
        return sum(1 for _ in self.client.scan_iter(match="*game*", count=1000))

    def expire(self) -> None:
        time.sleep(self.ttl + 1)

    def close(self) -> None:
        self.store.close()
        self.client.close()
        self.server.stop()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_flood_of_cookieless_guesses_leaves_the_store_as_it_was_once_they_expire(kind, tmp_path):
    flooded = SQLiteFlooded(tmp_path) if kind == "sqlite" else RedisFlooded(tmp_path)
    app = create_app(SECRET, store=flooded.store, new_player_ttl=flooded.ttl)
    # the done-when's 100,000 on SQLite; Redis bounds the flood by the same expiry (its keys' own
    # EX), on its real clock, and 20,000 keep the test's time modest (a loaded CI core: ~30 s)
    flood = 100_000 if kind == "sqlite" else 20_000

    async def scenario():
        status, board, cookie = await call(app, "GET", "/api/connections/board", query=b"seed=77")
        tiles = [t["code"] for t in board["tiles"]]
        groups = [list(g.codes) for g in answers(board["board_id"]).groups]
        wrong = [groups[0][0], groups[0][1], groups[1][0], groups[2][0]]
        # a player with a cookie, before and through the flood: a game in progress
        status, mine, _ = await call(
            app, "POST", "/api/connections/guess", {"token": board["token"], "codes": wrong}, cookie=cookie
        )
        assert status == 200
        before = flooded.size()
        guess = {"token": board["token"], "codes": tiles[:4]}
        statuses: dict[int, int] = {}
        during = 0
        for sent in range(0, flood, 500):
            replies = await asyncio.gather(*(call(app, "POST", "/api/connections/guess", guess) for _ in range(500)))
            for status, _, _ in replies:
                statuses[status] = statuses.get(status, 0) + 1
            if sent % 5_000 == 0:  # Redis expires the first games while the flood goes on
                during = max(during, flooded.size())
        during = max(during, flooded.size())
        flooded.expire()
        after = flooded.size()
        status, again, _ = await call(
            app, "POST", "/api/connections/guess", {"token": mine["token"], "codes": groups[0]}, cookie=cookie
        )
        return before, during, after, statuses, status, again

    try:
        before, during, after, statuses, status, again = run_loop(scenario())
        assert statuses == {200: flood}
        assert during > 10 * before  # the flood did grow the store
        assert after <= before * 1.1, (before, during, after)  # and left it as it was
        assert status == 200 and again["result"] == "correct"  # the player with a cookie kept their game
        assert flooded.games() == 1
    finally:
        flooded.close()


def test_with_a_secret_no_public_call_gives_the_served_daily_of_today_or_tomorrow():
    key = derived_season_key(Signer(SECRET.encode()))
    today = latest_day()
    tomorrow = today + dt.timedelta(days=1)
    app = create_app(SECRET)

    async def scenario():
        served = {}
        for mode in ("flags", "trivia"):
            status, board, _ = await call(
                app, "GET", "/api/connections/board", query=f"daily={today}&mode={mode}".encode()
            )
            assert status == 200
            served[mode] = [t["code"] for t in board["tiles"]]
            # the seed a player might try: refused before its day, another board on it
            status, seeded, _ = await call(
                app, "GET", "/api/connections/board", query=f"seed=daily:{today}&mode={mode}".encode()
            )
            served[mode + " seed"] = [t["code"] for t in seeded["tiles"]]
            status, ahead, _ = await call(
                app, "GET", "/api/connections/board", query=f"seed=daily:{tomorrow}&mode={mode}".encode()
            )
            assert status == 400 and ahead["error"]["code"] == "future_daily"
            status, ahead, _ = await call(
                app, "GET", "/api/connections/board", query=f"daily={tomorrow}&mode={mode}".encode()
            )
            assert status == 400
        status, deal, _ = await call(app, "POST", "/api/puzzle/deal", {"daily": today.isoformat()})
        served["puzzle"] = (deal["flag"], deal["grid"]["name"], deal["tiles_by_slot"])
        flag, grid, _ = puzzle_plan(today)
        status, public, _ = await call(
            app,
            "POST",
            "/api/puzzle/deal",
            {"flag": deal["flag"], "grid": deal["grid"]["name"], "seed": f"puzzle:{today}"},
        )
        served["puzzle public seed"] = public["tiles_by_slot"]
        return served

    served = run_loop(scenario())
    for day in (today, tomorrow):
        for mode in ("flags", "trivia"):
            mine = connections.daily(day, mode, key=key)
            public = connections.daily(day, mode)  # what flagcore connections --daily DAY --reveal prints
            assert [set(g.codes) for g in public.groups] != [set(g.codes) for g in mine.groups]
            if day == today:
                assert served[mode] == list(mine.tiles)  # the server serves the keyed board
                assert served[mode] != list(public.tiles)
                assert served[mode + " seed"] == served[mode]  # the day's seed is the day's board, once begun
        flag, grid, seed = puzzle_plan(day, key)
        public_game = puzzle.daily(day)
        mine_game = puzzle.new_game(flag, grid, seed=seed)
        assert (public_game.flag, list(public_game.start)) != (mine_game.flag, list(mine_game.start))
        if day == today:
            assert served["puzzle"] == (flag, grid, list(mine_game.start))
            assert served["puzzle public seed"] != list(mine_game.start)


def test_the_game_stats_and_readiness_routes_never_make_a_blocking_store_call(tmp_path, monkeypatch):
    # every store call of these routes is an awaitable one (the event loop never waits for the
    # store): a blocking one fails the request here, a 500
    store = SQLiteStore(tmp_path / "games.db")
    app = create_app(SECRET, store=store)
    today = latest_day().isoformat()

    def blocking(op):
        raise AssertionError("a blocking store call on the event loop")

    monkeypatch.setattr(store, "_run", blocking)

    async def scenario():
        replies = []
        for query in (f"daily={today}", "seed=41"):  # a daily (published to the store) and a seed's board
            status, board, cookie = await call(app, "GET", "/api/connections/board", query=query.encode())
            replies.append(status)
            token = board["token"]
            for group in answers(board["board_id"]).groups:
                status, reply, _ = await call(
                    app, "POST", "/api/connections/guess", {"token": token, "codes": list(group.codes)}, cookie=cookie
                )
                replies.append(status)
                token = reply["token"]
            status, again, _ = await call(app, "GET", "/api/connections/board", query=query.encode(), cookie=cookie)
            replies.append(status)
            assert again["over"] and again["today"]["plays"] == 1  # the finished game reopened, with its aggregate
        asked = {"flag": "FR", "grid": "easy", "seed": 5}
        status, deal, _ = await call(app, "POST", "/api/puzzle/deal", asked, cookie=cookie)
        replies.append(status)
        swaps = optimal_log(deal["tiles_by_slot"], deal["classes"])
        body = {"token": deal["token"], "swaps": swaps}
        replies.append((await call(app, "POST", "/api/puzzle/verify", body, cookie=cookie))[0])
        replies.append((await call(app, "POST", "/api/puzzle/deal", asked, cookie=cookie))[0])  # reopened
        replies.append((await call(app, "GET", "/api/stats", cookie=cookie))[0])
        replies.append((await call(app, "GET", "/readyz"))[0])
        return replies

    assert run_loop(scenario()) == [200] * 17
    store.close()
