"""Load run of the web server (uvicorn, as ``flagcore serve`` runs it) with wrk: requests per
second and p50/p99 latency of board, guess, deal and verify beside the no-op endpoint of the same
server, with 1 and 2 workers. The no-op endpoints are the benchmark's own (``create_bench_app``):
the shipped app has none.

    apt-get install -y wrk            # the load tool
    python benchmarks/web_load.py     # defaults: 3 rounds of 4 s pairs, 64 connections, 1 wrk thread

Each endpoint is measured in rounds, and each round runs its no-op endpoint and then the
endpoint, for the same number of seconds: the two are seconds apart, so a drift of the shared
machine (the no-op's rate moves by half from one minute to the next here) moves both rates, not
their ratio. The ratio shown is the median over the rounds. A GET endpoint stands beside
``GET /api/noop``; a POST endpoint beside ``POST /api/noop/post`` sent the same body, which the
server reads and parses as JSON and then ignores, so the two differ only by what the endpoint
does. Each round of a POST endpoint also measures ``GET /api/noop``, and the ratio to it is shown
too: it adds the cost of receiving a request body.

Beside each rate, the server's CPU time per request (user + system of the server process and
its workers, from /proc): on a shared machine the rate moves with what else runs, the CPU cost
much less.

Every request is a real one: board builds a new keyed board (a random game number per request,
so the cache never answers), daily asks for one day's board (dealt once, then cached: what most
board requests of a real server are), guess checks a signed game token one wrong guess in,
replays that guess and grades a second wrong one, deal deals Japan 5x3 with a random seed
(signatures, exact par, signed token), verify replays a solving swap log. The server listens on
127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
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

SECRET = "load-test-secret-0123456789"
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def noop(request: dict) -> dict:
    """Does nothing: the ceiling of the other endpoints (``POST``: with the same body as the
    endpoint it stands beside, read and parsed, so the two differ only by what the endpoint does)."""
    return {"ok": True}


def create_bench_app() -> object:
    """The web app with the no-op endpoints ``GET /api/noop`` and ``POST /api/noop/post`` (the
    shipped app has none); ``uvicorn web_load:create_bench_app --factory`` serves it."""
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
    with urllib.request.urlopen(req, timeout=10) as r:
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
    with urllib.request.urlopen(base + "/api/connections/board?seed=12", timeout=10) as r:
        board = json.loads(r.read())
    deal_body = {"flag": "JP", "grid": "hard", "seed": 3}
    deal = post(base + "/api/puzzle/deal", deal_body)
    guess_body = mid_game_guess(board, lambda body: post(base + "/api/connections/guess", body))
    verify = {"token": deal["token"], "swaps": solving_log(deal["tiles_by_slot"], deal["classes"])}
    assert post(base + "/api/puzzle/verify", verify)["solved"]
    return {
        "board": ("/api/connections/board?seed={seed}", None),
        "daily": ("/api/connections/board?daily=2026-12-01", None),
        "guess": ("/api/connections/guess", guess_body),
        "deal": ("/api/puzzle/deal", {"flag": "JP", "grid": "hard", "seed": "{seed}"}),
        "verify": ("/api/puzzle/verify", verify),
    }


def lua(path: str, body: object | None) -> str:
    """A wrk script sending ``body`` to ``path``; "{seed}" becomes a random seed per request, so
    board and deal build a new board every time (no cache can answer them)."""
    text = json.dumps(body) if body is not None else ""

    def quoted(s: str) -> str:
        return " .. math.random(0, 2147483647) .. ".join(
            json.dumps(part) for part in s.replace('"{seed}"', "{seed}").split("{seed}")
        )

    method = "POST" if body is not None else "GET"
    return (
        f'wrk.headers["Content-Type"] = "application/json"\n'
        f'request = function() return wrk.format("{method}", {quoted(path)}, nil, {quoted(text) if body is not None else "nil"}) end\n'  # noqa: E501
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and all its descendants so far (Linux /proc)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))  # ppid, utime + stime
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += stats.get(current, (0, 0))[1]
        todo.extend(child for child, (parent, _) in stats.items() if parent == current)
    return total / os.sysconf("SC_CLK_TCK")


def wrk(
    base: str, path: str, body: object | None, args: argparse.Namespace, scratch: Path, server_pid: int
) -> dict[str, float]:
    script = scratch / "request.lua"
    script.write_text(lua(path, body))
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "--latency", "-s", str(script)]
    url = base + path.split("?")[0]
    cpu_before = cpu_seconds(server_pid)
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server_pid) - cpu_before
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise SystemExit(f"wrk saw error responses for {url}:\n{out}")

    def latency(pct: str) -> float:
        m = re.search(rf"^\s*{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        assert m, out
        return float(m.group(1)) * _UNITS[m.group(2)]

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    count = re.search(r"(\d+) requests in", out)
    assert rps and count, out
    return {
        "rps": float(rps.group(1)),
        "p50": latency("50"),
        "p99": latency("99"),
        "cpu_us": cpu / int(count.group(1)) * 1e6,
    }


ENDPOINTS = ("board", "daily", "guess", "deal", "verify")


def run_block(workers: int, args: argparse.Namespace, scratch: Path) -> dict[str, list[tuple[dict, dict, dict]]]:
    """For each endpoint, ``args.rounds`` rounds of (GET no-op, its own no-op, the endpoint)
    measured back to back (a GET endpoint's own no-op is the GET no-op)."""
    port = free_port()
    env = dict(os.environ, FLAGCORE_SECRET=SECRET)
    proc = subprocess.Popen(  # what `flagcore serve` runs, on the app with the no-op endpoints
        [
            sys.executable,
            "-m",
            "uvicorn",
            "web_load:create_bench_app",
            "--factory",
            "--app-dir",
            str(Path(__file__).resolve().parent),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/noop", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        reqs = requests_for(base)
        rounds: dict[str, list[tuple[dict, dict, dict]]] = {}
        for name in ENDPOINTS:
            path, body = reqs[name]
            for _ in range(args.rounds):
                get_noop = wrk(base, "/api/noop", None, args, scratch, proc.pid)
                own = get_noop if body is None else wrk(base, "/api/noop/post", body, args, scratch, proc.pid)
                result = wrk(base, path, body, args, scratch, proc.pid)
                rounds.setdefault(name, []).append((get_noop, own, result))
                print(
                    f"  {workers} worker(s) {name:7s} {result['rps']:8,.0f} rps beside {own['rps']:8,.0f}: "
                    f"{result['rps'] / own['rps']:.0%}",
                    file=sys.stderr,
                )
        return rounds
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=4, help="seconds of each measurement (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="no-op/endpoint pairs per endpoint (default 3)")
    parser.add_argument("--connections", type=int, default=64, help="open connections (default 64)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure (default 1,2)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk not found: apt-get install -y wrk")
    print(
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, {args.rounds} rounds; load average "
        f"before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        "| workers | endpoint | requests/s | p50 ms | p99 ms | vs its no-op: median (range) | vs GET no-op "
        "| server CPU µs/request (its no-op) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (int(w) for w in args.workers.split(",")):
            rounds = run_block(workers, args, Path(tmp))
            for name in ENDPOINTS:
                rows = rounds[name]
                ratios = [r["rps"] / own["rps"] for _, own, r in rows]
                to_get = statistics.median(r["rps"] / g["rps"] for g, _, r in rows)
                med = {k: statistics.median(r[k] for _, _, r in rows) for k in ("rps", "p50", "p99", "cpu_us")}
                noop_cpu = statistics.median(own["cpu_us"] for _, own, _ in rows)
                print(
                    f"| {workers} | {name} | {med['rps']:,.0f} | {med['p50']:.2f} | {med['p99']:.2f} | "
                    f"{statistics.median(ratios):.0%} ({min(ratios):.0%}-{max(ratios):.0%}) | "
                    f"{to_get:.0%} | {med['cpu_us']:.0f} ({noop_cpu:.0f}) |"
                )
            get_rps = [g["rps"] for name in ENDPOINTS for g, _, _ in rounds[name]]
            print(
                f"| {workers} | no-op (GET), every round | {statistics.median(get_rps):,.0f} "
                f"({min(get_rps):,.0f}-{max(get_rps):,.0f}) | | | 100% | 100% | |"
            )


if __name__ == "__main__":
    main()
