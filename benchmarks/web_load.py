"""Load run of the web server with wrk: requests per second, p50/p99 latency and the server's CPU
per request of board, guess, deal and verify beside the no-op endpoint of the same server, with 1
and 2 workers, under uvicorn (what ``flagcore serve`` runs, with its options: httptools, uvloop)
and granian (``--server granian``); then, with ``--stores``, the first guess of a new game with
each store beside the stateless guess, by anonymous and by returning players. The no-op endpoints
are the benchmark's own (``create_bench_app``: the shipped app plus two ``extra_endpoints``,
served by the same layer as the API's).

    apt-get install -y wrk redis-server   # the load tool; Redis for the store run
    python benchmarks/web_load.py         # defaults: 3 rounds of 4 s pairs, 64 connections, 1 wrk thread
    python benchmarks/web_load.py --stores none,sqlite,redis --write-docs docs/performance.md

Each endpoint is measured in rounds, and each round runs its no-op endpoint and then the
endpoint, for the same number of seconds: the two are seconds apart, so a drift of the shared
machine moves both rates, not their ratio. The ratio shown is the median over the rounds. A GET
endpoint stands beside ``GET /api/noop``; a POST endpoint beside ``POST /api/noop/post`` sent the
same body, which the server reads and parses as JSON and then ignores, so the two differ only by
what the endpoint does. Each round of a POST endpoint also measures ``GET /api/noop``, and the
ratio to it is shown too: it adds the cost of receiving a request body.

Beside each rate, the server's CPU time per request (user + system of the server process and
its workers, from /proc): on a shared machine the rate moves with what else runs, the CPU cost
much less. That CPU is set beside what a served request cannot cost less than: its no-op's CPU
on the same server (the HTTP path) plus the same request called directly on the ASGI app in this
process, with no server (``direct_costs``: benchmarks/web_inprocess.py's requests and timing,
measured once before the servers); "CPU / (no-op + direct)" is the median over the rounds.
Last, the time the server's threads spent ready to run but waiting for a core (the kernel's
run-queue delay, ms per second of the run): a server that waits for a core stalls every
request it holds, so a p99 of a run with a high wait is the machine's, not the server's.

Every request is a real one: board builds a new keyed board (a random game number per request,
so the cache never answers), daily asks for one day's board (dealt once, then cached: what most
board requests of a real server are), guess checks a signed game token one wrong guess in,
replays that guess and grades a second wrong one, deal deals Japan 5x3 with a random seed
(signatures, exact par, signed token), verify replays a solving swap log. The server listens on
127.0.0.1 only.

The store run (``--stores``) drives the server as browsers do. With a store a guess token is used
once, so each request is the first guess of a new game (on one of 400 boards): by an
**anonymous** player (a first visit: no cookie, so the server makes a player, grades the guess,
writes the game and sets the player's signed cookie) or by a **returning** player (one of 1,000
cookies the server set at earlier visits; each (player, board) pair once over all the rounds:
wrk's threads and runs are seeded and numbered apart, see ``lua``). The stateless server
("none") gets the same requests. Each round measures every store's server back to back (GET
no-op, then both guesses), so the ratios to the stateless guess are side by side. wrk re-sends
the request it was writing when a connection drops; with a store that second copy is refused
(409, the replay protection at work). The server's own count of its 4xx and 5xx replies (its
/metrics, every worker's, before and after each run) is the judge: a run with more than 0.1 %
4xx or any 5xx is invalid (the benchmark stops), and the table gives the 4xx count. The servers
run from this interpreter through ``flagcore.cli.serve.serve_app``, with the options ``flagcore
serve`` gives them, so they serve the flagcore it imports as the shipped server runs it.

``--write-docs PATH`` writes the tables into PATH's block between the markers DOCS_BEGIN and
DOCS_END (docs/performance.md's server section), so the page holds the figures of a run, not
figures copied by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

SECRET = "kR7wPz2QmX9vTn4LcY8sHf3JdG6bEa1U"  # 32 base64url characters: 192 bits
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def noop(request: dict) -> dict:
    """Does nothing: the ceiling of the other endpoints (``POST``: with the same body as the
    endpoint it stands beside, read and parsed, so the two differ only by what the endpoint does)."""
    return {"ok": True}


def create_bench_app() -> object:
    """The shipped web app plus the no-op endpoints ``GET /api/noop`` and ``POST /api/noop/post``
    (``create_app``'s ``extra_endpoints``: served by the same layer as the API's own), on the store
    FLAGCORE_STORE names; ``uvicorn web_load:create_bench_app --factory`` serves it. Players are
    named as a browser names them: by the signed cookie the server set at their first visit."""
    from flagcore.web import create_app
    from flagcore.web.jsonapi import Endpoint

    return create_app(
        SECRET, extra_endpoints={"/api/noop": Endpoint("GET", noop), "/api/noop/post": Endpoint("POST", noop)}
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: object) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def solving_log(start: list[int], classes: list[int]) -> list[list[int]]:
    tiles, log = list(start), []
    for i in range(len(tiles)):
        if all(classes[p] == classes[s] for s, p in enumerate(tiles)):
            break
        if classes[tiles[i]] != classes[i]:
            j = next(j for j in range(i + 1, len(tiles)) if classes[tiles[j]] == classes[i])
            tiles[i], tiles[j] = tiles[j], tiles[i]
            log.append([i, j])
    return log


def mid_game_guess(board: dict, grade: Callable[[dict], dict]) -> dict:
    """The guess request of the load runs: a game one wrong guess in (a signed token to check and a
    guess to replay, as every guess after a game's first has), then a second wrong guess, which
    the server grades afresh at every request. ``grade(body)`` posts a guess and returns the reply."""
    codes = [t["code"] for t in board["tiles"]]
    token, wrong = board["token"], []
    for k in range(13):
        reply = grade({"token": token, "codes": codes[k : k + 4]})
        if reply["result"] != "correct":
            wrong.append(codes[k : k + 4])
            if len(wrong) == 2:
                return {"token": token, "codes": wrong[1]}
            token = reply["token"]
    raise AssertionError("no two wrong guesses among the tiles' windows")


def requests_for(base: str) -> dict[str, tuple[str, object | None]]:
    with urllib.request.urlopen(base + "/api/connections/board?seed=12", timeout=60) as r:
        board = json.loads(r.read())
    deal_body = {"flag": "JP", "grid": "hard", "seed": 3}
    deal = post(base + "/api/puzzle/deal", deal_body)
    guess_body = mid_game_guess(board, lambda body: post(base + "/api/connections/guess", body))
    verify = {"token": deal["token"], "swaps": solving_log(deal["tiles_by_slot"], deal["classes"])}
    assert post(base + "/api/puzzle/verify", verify)["solved"]
    with urllib.request.urlopen(base + "/api/connections/board?daily=2026-12-01", timeout=60) as r:
        r.read()  # the day's board is dealt once (the schedule is planned at the first): measure it cached
    return {
        "board": ("/api/connections/board?seed={seed}", None),
        "daily": ("/api/connections/board?daily=2026-12-01", None),
        "guess": ("/api/connections/guess", guess_body),
        "deal": ("/api/puzzle/deal", {"flag": "JP", "grid": "hard", "seed": "{seed}"}),
        "verify": ("/api/puzzle/verify", verify),
    }


def lua(
    path: str,
    body: object | None,
    run: tuple[int, int, int],
    bodies: list[str] | None = None,
    cookies: list[str] | None = None,
) -> str:
    """A wrk script sending ``body`` to ``path``; "{seed}" becomes a random seed per request, so
    board and deal build a new board every time (no cache can answer them). ``bodies``: each
    request the next of these bodies instead (the store run's first guesses, one per board);
    ``cookies``: with them, each request a player of these cookies, every (player, board) pair
    once (a player coming back); without them a first visit (no cookie: a new player).

    ``run`` is (seed, start, threads). wrk's LuaJIT starts every thread's generator from one fixed
    seed, so unseeded, every run and every thread draws the same numbers: rounds replayed the
    same seeds and the same (player, board) pairs, which a store refuses (409). Each thread seeds
    its generator with the run's seed plus its number, and thread t of n sends request numbers
    start + t, start + t + n, ...: no two requests of the run share a pair, and the caller gives
    the next run a start past this one's requests."""
    seed, start, threads = run
    text = json.dumps(body) if body is not None else ""

    def quoted(s: str) -> str:
        return " .. math.random(0, 2147483647) .. ".join(
            json.dumps(part) for part in s.replace('"{seed}"', "{seed}").split("{seed}")
        )

    method = "POST" if body is not None else "GET"
    # setup runs in wrk's main Lua state, once per thread; init in the thread's own state
    lines = [
        'wrk.headers["Content-Type"] = "application/json"',
        "local made = 0",
        'function setup(thread) thread:set("tid", made); made = made + 1 end',
        f"function init(args) math.randomseed({seed} + tid); count = {start} + tid - {threads} end",
    ]
    if bodies is None:
        lines.append(
            f'request = function() return wrk.format("{method}", {quoted(path)}, nil, '
            f"{quoted(text) if body is not None else 'nil'}) end"
        )
        return "\n".join(lines) + "\n"
    lines.append("bodies = {" + ", ".join(json.dumps(b) for b in bodies) + "}")
    if cookies:
        lines.append("cookies = {" + ", ".join(json.dumps(c) for c in cookies) + "}")
        lines.append(
            f"request = function() count = count + {threads}\n"
            "  local c = cookies[count % #cookies + 1]\n"
            "  local b = bodies[math.floor(count / #cookies) % #bodies + 1]\n"
            f'  return wrk.format("POST", {json.dumps(path)}, {{["Cookie"] = c}}, b) end'
        )
    else:
        lines.append(
            f"request = function() count = count + {threads}\n"
            f'  return wrk.format("POST", {json.dumps(path)}, nil, bodies[count % #bodies + 1]) end'
        )
    return "\n".join(lines) + "\n"


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue  # gone meanwhile
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(child for child, parent in parents.items() if parent == current)
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and all its descendants so far (Linux /proc)."""
    total = 0
    for each in _tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / os.sysconf("SC_CLK_TCK")


def cpu_waits(pid: int) -> dict[str, int]:
    """Nanoseconds each thread of a process and its descendants has so far spent ready to run but
    waiting for a CPU (the scheduler's run-queue delay, /proc/PID/task/TID/schedstat), by thread:
    a server that waits for a core stalls every request it holds, whatever its code does."""
    waits = {}
    for each in _tree(pid):
        for task in Path(f"/proc/{each}/task").glob("*/schedstat"):
            try:
                waits[task.parent.name] = int(task.read_text().split()[1])
            except (OSError, IndexError):
                continue  # gone meanwhile
    return waits


def waited_since(pid: int, before: dict[str, int]) -> float:
    """Seconds of run-queue delay of ``pid``'s threads since ``before`` (cpu_waits), a thread that
    ended meanwhile left out (its figures went with it), one started meanwhile counted whole."""
    return sum(now - before.get(tid, 0) for tid, now in cpu_waits(pid).items()) / 1e9


def wrk(
    base: str,
    path: str,
    body: object | None,
    args: argparse.Namespace,
    scratch: Path,
    server_pid: int,
    bodies: list[str] | None = None,
    cookies: list[str] | None = None,
    start: int = 0,
) -> dict[str, float]:
    """One wrk run; with ``bodies`` (the store run), the server's own count of its 4xx and 5xx
    replies too (its /metrics before and after), and the run is valid only with at most 0.1 % 4xx
    and no 5xx. ``start``: the first request number (``lua``)."""
    script = scratch / "request.lua"
    script.write_text(lua(path, body, (random.randrange(2**31), start, args.threads), bodies, cookies))
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "--latency", "-s", str(script)]
    url = base + path.split("?")[0]
    before = replies_by_class(base) if bodies else {}
    cpu_before, wait_before, clock = cpu_seconds(server_pid), cpu_waits(server_pid), time.monotonic()
    done = subprocess.run([*cmd, url], capture_output=True, text=True, check=True)
    out = done.stdout
    cpu = cpu_seconds(server_pid) - cpu_before
    waited = waited_since(server_pid, wait_before) / (time.monotonic() - clock)
    count = re.search(r"(\d+) requests in", out)
    if not count or not int(count.group(1)):
        raise SystemExit(f"wrk sent no request to {url}:\n{out}\n{done.stderr}")
    sent = int(count.group(1))
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = int(failed.group(1)) if failed else 0
    refused = server_errors = 0
    if bodies:
        time.sleep(FLUSH_WAIT)  # every worker has written its figures (flagcore.web.ops)
        after = replies_by_class(base)
        refused, server_errors = (after.get(c, 0) - before.get(c, 0) for c in (4, 5))
    # a bound guess that wrk sends twice (it re-sends the request it was writing when a connection
    # drops) is refused the second time (409): a handful of those are the rule working, more
    # means the run replayed games (the measure is then of refusals, not of guesses)
    # stateless, a board of a random seed that is a daily's game number (1 in about 117,000) is
    # refused (400 future_daily) by design: up to one per mille of non-2xx is tolerated there too
    if server_errors or errors > sent * 0.001 or refused > sent * 0.001:
        raise SystemExit(f"invalid run of {url}: {refused} 4xx and {server_errors} 5xx by the server's count:\n{out}")

    def latency(pct: str) -> float:
        m = re.search(rf"^\s*{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        assert m, out
        return float(m.group(1)) * _UNITS[m.group(2)]

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert rps and count, out
    return {
        "rps": float(rps.group(1)),
        "p50": latency("50"),
        "p99": latency("99"),
        "cpu_us": cpu / sent * 1e6,
        "waited": waited,  # run-queue delay of the server's threads per second of the run (cpu_waits)
        "errors": errors,
        "refused": refused,
        "sent": sent,
    }


FLUSH_WAIT = 1.5  # seconds: a worker writes its metrics within a second of its last request


def replies_by_class(base: str) -> dict[int, float]:
    """The server's replies so far by status class (4: 4xx, ...), every worker's (its /metrics,
    read with prometheus-client's parser), the scrapes themselves left out."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(base + "/metrics", timeout=60) as r:
        text = r.read().decode()
    classes: dict[int, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name == "flagcore_http_requests":
            for sample in family.samples:
                if sample.name.endswith("_total") and sample.labels["route"] != "/metrics":
                    c = int(sample.labels["status"]) // 100
                    classes[c] = classes.get(c, 0) + sample.value
    return classes


ENDPOINTS = ("board", "daily", "guess", "deal", "verify")


def start_server(
    server: str, workers: int, store: str, app: str = "web_load:create_bench_app", **env_extra: str
) -> tuple[subprocess.Popen[bytes], str]:
    """The benchmark's app (``app``, a factory of this folder) under ``server`` (granian or uvicorn,
    as ``flagcore serve`` runs them) on a free port of 127.0.0.1, with ``store`` (a store URL) and
    the environment's ``env_extra``; returns the process and its base URL."""
    port = free_port()
    here = str(Path(__file__).resolve().parent)
    # the metrics' folder, as flagcore serve makes one per run: /metrics adds up every worker's
    metrics = tempfile.mkdtemp(prefix="web_load_metrics_")
    env = dict(os.environ, FLAGCORE_SECRET=SECRET, FLAGCORE_STORE=store, PYTHONPATH=here, FLAGCORE_METRICS_DIR=metrics)
    env.update(env_extra)
    # the server as flagcore serve runs it (flagcore.cli.serve.serve_app: the same options), on this app
    launch = "from flagcore.cli.serve import serve_app; serve_app(%r, %r, '127.0.0.1', %d, %d, 'warning', False)"
    cmd = [sys.executable, "-c", launch % (app, server, port, workers)]
    proc = subprocess.Popen(cmd, env=env, cwd=here)
    _metrics_dirs[proc.pid] = metrics
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 240  # each worker deals its first boards before it serves (seconds under load)
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(base + "/api/noop", timeout=5).read()
            settle(proc.pid)
            return proc, base
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise SystemExit(f"{server} did not start")


def settle(pid: int, limit: float = 180) -> None:
    """Wait until the server is idle: a worker answers once it has dealt its first boards, but the
    daily's plans of the days ahead go on in a background thread of the worker (seconds of CPU,
    flagcore.connections.daily.ahead), whose CPU time no measurement should count."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(1.0)
        if cpu_seconds(pid) - before < 0.05:
            return


_metrics_dirs: dict[int, str] = {}  # a started server's pid -> its metrics folder, removed by stop


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server of ``start_server`` (or redis-server) and remove the metrics folder it was given."""
    proc.terminate()
    proc.wait(30)
    folder = _metrics_dirs.pop(proc.pid, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def run_block(
    workers: int, args: argparse.Namespace, scratch: Path, server: str
) -> dict[str, list[tuple[dict, dict, dict]]]:
    """For each endpoint, ``args.rounds`` rounds of (GET no-op, its own no-op, the endpoint)
    measured back to back (a GET endpoint's own no-op is the GET no-op), on the stateless app."""
    proc, base = start_server(server, workers, "none")
    try:
        reqs = requests_for(base)
        rounds: dict[str, list[tuple[dict, dict, dict]]] = {}
        for name in args.endpoints:
            path, body = reqs[name]
            for _ in range(args.rounds):
                get_noop = wrk(base, "/api/noop", None, args, scratch, proc.pid)
                own = get_noop if body is None else wrk(base, "/api/noop/post", body, args, scratch, proc.pid)
                result = wrk(base, path, body, args, scratch, proc.pid)
                rounds.setdefault(name, []).append((get_noop, own, result))
                print(
                    f"  {server} {workers} worker(s) {name:7s} {result['rps']:8,.0f} rps beside {own['rps']:8,.0f}: "
                    f"{result['rps'] / own['rps']:.0%}",
                    file=sys.stderr,
                )
        return rounds
    finally:
        stop(proc)


def direct_costs(endpoints: tuple[str, ...] = ENDPOINTS, repeat: int = 5, requests: int = 2000) -> dict[str, float]:
    """CPU µs per request of each endpoint (and the no-op) called directly on the ASGI app in this
    process, with no HTTP server: web_inprocess.py's requests and timing (the same requests as
    the load run), ``repeat`` interleaved rounds of ``requests`` each, the median. The app is
    stateless and warmed as a worker is at start-up, and measured once its daily planning thread
    is done (``settle``: this process's CPU time counts every thread)."""
    import asyncio

    from web_inprocess import requests_for as direct_requests
    from web_inprocess import time_endpoint

    os.environ["FLAGCORE_STORE"] = "none"
    app: Any = create_bench_app()
    app.warm()
    makers = direct_requests(app)
    settle(os.getpid())

    async def measure() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {name: [] for name in ("no-op", *endpoints)}
        for _ in range(repeat):
            for name in times:
                times[name].append(await time_endpoint(app, makers[name], requests))
        return times

    return {name: statistics.median(values) for name, values in asyncio.run(measure()).items()}


def first_guesses(base: str, boards: int) -> list[str]:
    """The first guess of a new game on each of ``boards`` boards (the first four tiles)."""
    bodies = []
    for seed in range(boards):
        with urllib.request.urlopen(f"{base}/api/connections/board?seed=bench{seed}", timeout=60) as r:
            board = json.loads(r.read())
        bodies.append(json.dumps({"token": board["token"], "codes": [t["code"] for t in board["tiles"][:4]]}))
    return bodies


def player_cookies(base: str, players: int) -> list[str]:
    """``players`` players' cookies, each set by the server at the player's first visit."""
    cookies = []
    for _ in range(players):
        with urllib.request.urlopen(base + "/api/stats", timeout=60) as r:
            cookie = r.headers.get("set-cookie")
        assert cookie, "a server with a store sets a player's cookie at the first visit"
        cookies.append(cookie.split(";", 1)[0])
    return cookies


STORE_PLAYERS = ("anonymous", "returning")  # a first visit (no cookie), and a player with a cookie
PLAYERS = 1000  # returning players' cookies: with 400 boards, 400,000 (player, board) pairs per server


def store_block(workers: int, args: argparse.Namespace, scratch: Path, stores: dict[str, str]) -> list[str]:
    """The first guess of a new game on one server per store, the servers side by side, by
    anonymous players (a first visit: no cookie, so the server makes a player and sets its
    cookie) and by returning players (a cookie from an earlier visit; each (player, board) pair
    once); each round measures every server's GET no-op and both guesses back to back. Returns
    the table rows."""
    server = args.servers.split(",")[0]
    servers = {name: start_server(server, workers, url) for name, url in stores.items()}
    rows: list[str] = []
    try:
        # each server deals the boards first, as a browser loads a board from the server it then
        # plays on: a worker's first deal costs seconds (its start), which no guess run should meet;
        # the same secret on every server, so the same boards
        every = [first_guesses(base, 400) for _, base in servers.values()]
        bodies = every[0]
        assert all(b == bodies for b in every), "the servers deal different boards"
        cookies = {
            name: player_cookies(base, PLAYERS) if stores[name] != "none" else None
            for name, (_, base) in servers.items()
        }
        # each server's next request number: a run starts past the (player, board) pairs of the
        # runs before it, so no returning player's game is played twice
        start = dict.fromkeys(servers, 0)
        results: dict[tuple[str, str], list[tuple[dict, dict]]] = {}
        for _ in range(args.rounds):
            for name, (proc, base) in servers.items():
                noop_run = wrk(base, "/api/noop", None, args, scratch, proc.pid)
                for kind in STORE_PLAYERS:
                    jar = cookies[name] if kind == "returning" else None
                    guess_run = wrk(
                        base, "/api/connections/guess", {}, args, scratch, proc.pid, bodies, jar, start[name]
                    )
                    if jar:
                        start[name] += int(guess_run["sent"]) + args.connections  # and wrk's re-sent ones
                        if start[name] > PLAYERS * len(bodies):
                            raise SystemExit("the run outgrew its (player, board) pairs: raise PLAYERS")
                    results.setdefault((name, kind), []).append((noop_run, guess_run))
                    print(
                        f"  {server} {workers} worker(s) {name:6s} {kind:9s} guess {guess_run['rps']:8,.0f} rps"
                        f" ({guess_run['refused']:.0f} 4xx of {guess_run['sent']:.0f})",
                        file=sys.stderr,
                    )
    finally:
        for proc, _ in servers.values():
            stop(proc)
    for kind in STORE_PLAYERS:
        stateless = results.get(("none", kind))
        base_rps = statistics.median(g["rps"] for _, g in stateless) if stateless else None
        for name in servers:
            runs = results[(name, kind)]
            rps = statistics.median(g["rps"] for _, g in runs)
            med = {k: statistics.median(g[k] for _, g in runs) for k in ("p50", "p99", "cpu_us")}
            noop_rps = statistics.median(n["rps"] for n, _ in runs)
            noop_cpu = statistics.median(n["cpu_us"] for n, _ in runs)
            ratio = f"{rps / base_rps:.0%}" if base_rps else "-"
            refused = sum(g["refused"] for _, g in runs)
            sent = sum(g["sent"] for _, g in runs)
            rows.append(
                f"| {server} | {workers} | {name} | {kind} | {rps:,.0f} | {med['p50']:.2f} | {med['p99']:.2f} | "
                f"{ratio} | {noop_rps:,.0f} | {med['cpu_us']:.0f} ({noop_cpu:.0f}) | {refused:.0f} of {sent:,.0f} |"
            )
    return rows


def start_redis(scratch: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A redis-server without persistence on a free port of 127.0.0.1, for the store run."""
    if not shutil.which("redis-server"):
        raise SystemExit("redis-server not found: apt-get install -y redis-server")
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        cwd=scratch,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


DOCS_BEGIN = "<!-- web_load.py writes this table: begin -->"
DOCS_END = "<!-- web_load.py writes this table: end -->"


def write_docs(path: Path, lines: list[str]) -> None:
    """Replace the table between DOCS_BEGIN and DOCS_END in ``path`` with ``lines``."""
    text = path.read_text(encoding="utf-8")
    head, begin, rest = text.partition(DOCS_BEGIN)
    _, end, tail = rest.partition(DOCS_END)
    if not begin or not end:
        raise SystemExit(f"{path} has no {DOCS_BEGIN} ... {DOCS_END} block")
    path.write_text(head + begin + "\n" + "\n".join(lines) + "\n" + end + tail, encoding="utf-8")


def endpoint_rows(
    server: str, workers: int, rounds: dict[str, list[tuple[dict, dict, dict]]], direct: dict[str, float]
) -> list[str]:
    """The table rows of one server and worker count (run_block's rounds; ``direct``: direct_costs)."""
    rows = []
    for name in rounds:
        runs = rounds[name]
        ratios = [r["rps"] / own["rps"] for _, own, r in runs]
        to_get = statistics.median(r["rps"] / g["rps"] for g, _, r in runs)
        med = {k: statistics.median(r[k] for _, _, r in runs) for k in ("rps", "p50", "p99", "cpu_us", "waited")}
        noop_cpu = statistics.median(own["cpu_us"] for _, own, _ in runs)
        # the served request's CPU beside what it cannot cost less than: the server's no-op (its
        # HTTP path) plus the app's own work on the same request, called without a server
        bound = statistics.median(r["cpu_us"] / (own["cpu_us"] + direct[name]) for _, own, r in runs)
        rows.append(
            f"| {server} | {workers} | {name} | {med['rps']:,.0f} | {med['p50']:.2f} | "
            f"{med['p99']:.2f} | {statistics.median(ratios):.0%} ({min(ratios):.0%}-{max(ratios):.0%}) "
            f"| {to_get:.0%} | {med['cpu_us']:.0f} ({noop_cpu:.0f}) | {direct[name]:.0f} | {bound:.2f}x "
            f"| {med['waited'] * 1000:.0f} |"
        )
    get_rps = [g["rps"] for name in rounds for g, _, _ in rounds[name]]
    get_wait = statistics.median(g["waited"] for name in rounds for g, _, _ in rounds[name])
    rows.append(
        f"| {server} | {workers} | no-op (GET), every round | {statistics.median(get_rps):,.0f} "
        f"({min(get_rps):,.0f}-{max(get_rps):,.0f}) | | | 100% | 100% | | {direct['no-op']:.0f} | "
        f"| {get_wait * 1000:.0f} |"
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=4, help="seconds of each measurement (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="no-op/endpoint pairs per endpoint (default 3)")
    parser.add_argument("--connections", type=int, default=64, help="open connections (default 64)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure (default 1,2)")
    parser.add_argument("--servers", default="uvicorn,granian", help="servers to measure (default uvicorn,granian)")
    parser.add_argument("--stores", default="", help="also the bound guess with these stores, e.g. none,sqlite,redis")
    parser.add_argument("--skip-endpoints", action="store_true", help="only the store run")
    parser.add_argument(
        "--endpoints",
        default=",".join(ENDPOINTS),
        help=f"the endpoints to measure beside the no-op, comma-separated (default {','.join(ENDPOINTS)})",
    )
    parser.add_argument(
        "--write-docs", metavar="PATH", help="also write the tables into PATH's marked block (docs/performance.md)"
    )
    args = parser.parse_args()
    args.endpoints = tuple(args.endpoints.split(","))
    if unknown := set(args.endpoints) - set(ENDPOINTS):
        parser.error(f"--endpoints: unknown {', '.join(sorted(unknown))} (of {', '.join(ENDPOINTS)})")
    if not shutil.which("wrk"):
        raise SystemExit("wrk not found: apt-get install -y wrk")
    out = [
        f"`python benchmarks/web_load.py {' '.join(sys.argv[1:])}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, {args.rounds} rounds; load average before "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        if not args.skip_endpoints:
            direct = direct_costs(args.endpoints)
            out.append(
                "| server | workers | endpoint | requests/s | p50 ms | p99 ms | vs its no-op: median (range) "
                "| vs GET no-op | server CPU µs/request (its no-op) | direct ASGI call µs | CPU / (no-op + direct) "
                "| server's wait for a CPU, ms/s |"
            )
            out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
            for server in args.servers.split(","):
                for workers in (int(w) for w in args.workers.split(",")):
                    out += endpoint_rows(server, workers, run_block(workers, args, scratch, server), direct)
            out.append("")
        if args.stores:
            out += store_tables(args, scratch)
    print("\n".join(out))
    if args.write_docs:
        write_docs(Path(args.write_docs), out)


def store_tables(args: argparse.Namespace, scratch: Path) -> list[str]:
    """The store run's table: each store's first guess beside the stateless one, by kind of player."""
    redis = None
    stores = {}
    for name in args.stores.split(","):
        if name == "redis":
            redis = start_redis(scratch)
            stores[name] = redis[1]
        elif name == "sqlite":
            stores[name] = f"sqlite://{scratch}/games.db"
        else:
            stores[name] = "none"
    out = [
        "The first guess of a new game, with each store beside the stateless server (anonymous: a first "
        "visit, no cookie; returning: a player's cookie from an earlier visit):",
        "",
        "| server | workers | store | player | requests/s | p50 ms | p99 ms | vs stateless | GET no-op req/s "
        "| server CPU µs/request (GET no-op) | 4xx (all rounds) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    try:
        for workers in (int(w) for w in args.workers.split(",")):
            out += store_block(workers, args, scratch, stores)
    finally:
        if redis is not None:
            stop(redis[0])
    return out


if __name__ == "__main__":
    main()
