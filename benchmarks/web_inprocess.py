"""In-process cost per request of the web app's endpoints: the Python glue, without network or wrk.

    python benchmarks/web_inprocess.py                  # median CPU microseconds per request
    python benchmarks/web_inprocess.py --profile guess  # cProfile of one endpoint, top 25 by own time
    python benchmarks/web_inprocess.py --store redis://127.0.0.1:6379/0   # guess-new with a store
    python benchmarks/web_inprocess.py --store sqlite:///tmp/g.db --concurrent 16   # 16 requests in flight

Each request is a direct ASGI call (scope, receive, send) of web_load.create_bench_app (the
shipped app plus the benchmark's no-op endpoints) with the same requests as
benchmarks/web_load.py: board and deal with a new random seed per request, daily the same
(cached) board, guess grading a second wrong guess on a token one wrong guess in, verify
replaying a solving swap log. The no-op endpoint is the app's floor; "minus no-op" is what an
endpoint adds to it (handler, engine and reply). The HTTP server (uvicorn) and the kernel add their own cost
to every request (35-60 us of CPU in benchmarks/web_load.py's runs here), which this leaves
out; and a request in a loaded server costs more than in this tight loop, which keeps the
interpreter's and the engine's data in the CPU caches.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from flagcore.web import calls
from flagcore.web.boards import daily_numbers, game_number
from flagcore.web.calls import http_scope

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import create_bench_app, mid_game_guess, solving_log  # noqa: E402

Request = tuple[str, str, bytes, bytes] | tuple[str, str, bytes, bytes, bytes]  # method, path, query, body[, player]


async def call(app: Any, request: Request) -> tuple[int, bytes]:
    """(status, body) of the app's reply to ``request``."""
    method, path, query, body = request[:4]
    scope = http_scope(method, path, query, body)
    if len(request) == 5:  # a named player, as an embedding server names it
        scope["flagcore.player"] = request[4].decode()
    status, _, data = await calls.call(app, scope, body)
    return status, data


def requests_for(app: Any) -> dict[str, Callable[[], Request]]:
    """A maker of the next request per endpoint (the same requests as the load run)."""

    def run(request: Request) -> Any:
        status, data = asyncio.run(call(app, request))
        assert status == 200, (request, status, data)
        return orjson.loads(data)

    board = run(("GET", "/api/connections/board", b"seed=12", b""))
    guess = orjson.dumps(
        mid_game_guess(board, lambda body: run(("POST", "/api/connections/guess", b"", orjson.dumps(body))))
    )
    deal = run(("POST", "/api/puzzle/deal", b"", orjson.dumps({"flag": "JP", "grid": "hard", "seed": 3})))
    verify = orjson.dumps({"token": deal["token"], "swaps": solving_log(deal["tiles_by_slot"], deal["classes"])})
    assert run(("POST", "/api/puzzle/verify", b"", verify))["solved"]
    seeds = random.Random(1)

    def plain_seed() -> int:
        """A random seed whose board is no day's: a day's, asked before its day, is refused (400)."""
        while game_number(seed := seeds.randrange(1 << 31)) in daily_numbers():
            pass
        return seed

    first = orjson.dumps({"token": board["token"], "codes": [t["code"] for t in board["tiles"][:4]]})
    run_id = os.urandom(8).hex().encode()  # a store keeps the games of earlier runs: new players every run
    players = iter(range(1 << 62))
    return {
        "no-op": lambda: ("GET", "/api/noop", b"", b""),
        "board": lambda: ("GET", "/api/connections/board", b"seed=%d" % plain_seed(), b""),
        "daily": lambda: ("GET", "/api/connections/board", b"daily=2026-12-01", b""),
        "guess": lambda: ("POST", "/api/connections/guess", b"", guess),
        # the store run's request (web_load.py --stores): a new game's first guess by a new player
        "guess-new": lambda: ("POST", "/api/connections/guess", b"", first, b"%s-%d" % (run_id, next(players))),
        # a browser's first visit: no cookie, so the server makes an anonymous player and sets its cookie
        "guess-anon": lambda: ("POST", "/api/connections/guess", b"", first),
        "deal": lambda: (
            "POST",
            "/api/puzzle/deal",
            b"",
            b'{"flag": "JP", "grid": "hard", "seed": %d}' % seeds.randrange(1 << 31),
        ),
        "verify": lambda: ("POST", "/api/puzzle/verify", b"", verify),
    }


async def time_endpoint(app: Any, make: Callable[[], Request], n: int, concurrent: int = 1) -> float:
    """CPU microseconds per request over n requests, ``concurrent`` of them at a time on the event
    loop (the requests are built before the clock starts; CPU time rather than wall time, so other
    processes on the machine count less)."""
    batch = [make() for _ in range(n)]
    failed = 0
    start = time.process_time()
    for at in range(0, n, concurrent):
        if concurrent == 1:  # no task around a lone request: its cost would count
            replies = [await call(app, batch[at])]
        else:
            replies = await asyncio.gather(*(call(app, request) for request in batch[at : at + concurrent]))
        failed += sum(status != 200 for status, _ in replies)
    elapsed = time.process_time() - start
    if failed:  # an error reply costs less than the request: its time would flatter the endpoint
        raise SystemExit(f"{failed} of {n} requests of {batch[0][1]} failed")
    return elapsed / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000, help="requests per repeat (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats per endpoint (default 5)")
    parser.add_argument("--profile", metavar="ENDPOINT", help="cProfile one endpoint instead of timing all")
    parser.add_argument(
        "--concurrent",
        type=int,
        default=1,
        help="requests in flight together (default 1; a load run's 64 connections let a store batch its writes)",
    )
    parser.add_argument(
        "--store",
        default="none",
        help="the app's store URL (default none); with a store: no-op, guess-new, guess-anon",
    )
    parser.add_argument("--endpoints", help="only these endpoints, comma-separated (e.g. no-op,guess-new)")
    args = parser.parse_args()
    os.environ["FLAGCORE_STORE"] = args.store
    app = create_bench_app()
    makers = requests_for(app)
    if args.store != "none":  # a guess token is single-use, a deal verified once: only these repeat
        makers = {name: makers[name] for name in ("no-op", "guess-new", "guess-anon")}
    if args.endpoints:
        makers = {name: makers[name] for name in args.endpoints.split(",")}
    if args.profile:
        batch = [makers[args.profile]() for _ in range(args.requests)]

        async def run_all() -> None:
            for at in range(0, len(batch), args.concurrent):
                await asyncio.gather(*(call(app, request) for request in batch[at : at + args.concurrent]))

        profiler = cProfile.Profile()
        profiler.runcall(asyncio.run, run_all())
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return

    async def measure() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {name: [] for name in makers}
        for _ in range(args.repeat):  # interleaved, so a drift of the machine hits every endpoint alike
            for name, make in makers.items():
                times[name].append(await time_endpoint(app, make, args.requests, args.concurrent))
        return times

    times = asyncio.run(measure())
    floor = statistics.median(times["no-op"])
    print(
        f"{args.repeat} x {args.requests} requests per endpoint, {args.concurrent} at a time; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print("| endpoint | CPU us/request (median) | min-max | median minus no-op |")
    print("|---|---|---|---|")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.1f} | {min(values):.1f}-{max(values):.1f} | {median - floor:.1f} |")


if __name__ == "__main__":
    main()
