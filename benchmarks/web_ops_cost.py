"""What the operations layer (flagcore.web.ops.Ops: /healthz, /readyz, /metrics, the request id,
the header checks and every request's metrics) costs a served request: the same app with and
without it.

    python benchmarks/web_ops_cost.py                   # in process: CPU us per request, both apps
    python benchmarks/web_ops_cost.py --wrk             # served by uvicorn (as flagcore serve runs it), with wrk

In process, each request is a direct ASGI call with a browser's 13 headers (a player's cookie
among them) to ``create_bench_app()`` (benchmarks/web_load.py) and to its inner JsonApi, with a
metrics folder set as ``flagcore serve`` sets one. With ``--wrk``, two uvicorn servers (one
worker each, httptools and uvloop) serve the two apps; each round measures both, in alternating
order, so a drift of the shared machine falls on both alike. Reported: the medians over the
rounds of the requests per second and of the server's CPU per request (user + system, /proc),
and what the layer costs, the rate lost and the CPU added, in percent: taken within each round
(the two runs of a round are seconds apart), their median and range over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import create_bench_app, requests_for, start_server, stop, wrk  # noqa: E402

BROWSER = [
    (b"host", b"127.0.0.1:8000"),
    (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0"),
    (b"accept", b"application/json"),
    (b"accept-language", b"en-GB,en;q=0.9"),
    (b"accept-encoding", b"gzip, deflate, br"),
    (b"referer", b"http://127.0.0.1:8000/connections"),
    (b"sec-fetch-dest", b"empty"),
    (b"sec-fetch-mode", b"cors"),
    (b"sec-fetch-site", b"same-origin"),
    (b"connection", b"keep-alive"),
    (b"content-type", b"application/json"),
    (b"content-length", b"0"),
    (b"cookie", b"flagcore_player=" + b"a" * 60),
]
PATHS = {"no-op": ("/api/noop", b""), "daily": ("/api/connections/board", b"daily=2026-12-01")}


def create_without_ops() -> Any:
    """The benchmark app without its operations layer (``uvicorn web_ops_cost:create_without_ops --factory``)."""
    return create_bench_app().inner  # type: ignore[attr-defined]


async def call(app: Any, path: str, query: bytes) -> None:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": list(BROWSER),
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    await app(scope, receive, send)


async def cpu_us(app: Any, path: str, query: bytes, n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        await call(app, path, query)
    return (time.process_time() - start) / n * 1e6


def in_process(rounds: int, n: int) -> None:
    from flagcore.web.ops import METRICS

    METRICS.directory = Path(tempfile.mkdtemp(prefix="flagcore-metrics-"))  # as flagcore serve sets it
    with_ops = create_bench_app()
    apps = {"with": with_ops, "without": with_ops.inner}  # type: ignore[attr-defined]

    async def measure() -> dict[tuple[str, str], list[float]]:
        times: dict[tuple[str, str], list[float]] = {}
        for r in range(rounds):
            for name, (path, query) in PATHS.items():
                for label in ("with", "without") if r % 2 == 0 else ("without", "with"):
                    times.setdefault((name, label), []).append(await cpu_us(apps[label], path, query, n))
        return times

    times = asyncio.run(measure())
    print(f"in process, {rounds} rounds x {n} requests; load average {os.getloadavg()[0]:.2f}")
    print("| endpoint | without Ops, CPU us | with Ops, CPU us | Ops adds |")
    print("|---|---|---|---|")
    for name in PATHS:
        bare, full = statistics.median(times[name, "without"]), statistics.median(times[name, "with"])
        print(f"| {name} | {bare:.1f} | {full:.1f} | {full - bare:.1f} us |")


def served(args: argparse.Namespace) -> None:
    metrics = {"FLAGCORE_METRICS_DIR": tempfile.mkdtemp(prefix="flagcore-metrics-")}  # as flagcore serve sets it
    servers = {
        "with": start_server("uvicorn", 1, "none", "web_load:create_bench_app", **metrics),
        "without": start_server("uvicorn", 1, "none", "web_ops_cost:create_without_ops", **metrics),
    }
    scratch = Path(tempfile.mkdtemp(prefix="flagcore-ops-cost-"))
    try:
        guess = requests_for(servers["with"][1])["guess"]  # a stateless token: any server of the secret grades it
        with urllib.request.urlopen(
            servers["without"][1] + "/api/connections/board?daily=2026-12-01", timeout=120
        ) as r:
            r.read()  # the day's board dealt once (requests_for did it for the other server): measured cached
        endpoints = {"no-op": ("/api/noop", None), "daily": ("/api/connections/board?daily=2026-12-01", None)}
        endpoints["guess"] = guess
        results: dict[tuple[str, str], list[dict[str, float]]] = {}
        for r in range(args.rounds):
            for name, (path, body) in endpoints.items():
                for label in ("with", "without") if r % 2 == 0 else ("without", "with"):
                    proc, base = servers[label]
                    results.setdefault((name, label), []).append(wrk(base, path, body, args, scratch, proc.pid))
    finally:
        for proc, _ in servers.values():
            stop(proc)
    print(
        f"uvicorn, 1 worker, wrk -c{args.connections} -t{args.threads}, {args.rounds} rounds of {args.duration} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        "| endpoint | rps without Ops | rps with | rate lost: median (range) of the rounds | "
        "CPU us/request without | with | CPU added: median (range) |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in endpoints:
        bare, full = results[name, "without"], results[name, "with"]
        # each round's pair saw the same moment of the machine: the ratio is taken within the round
        lost = [1 - w["rps"] / b["rps"] for w, b in zip(full, bare, strict=True)]
        added = [w["cpu_us"] / b["cpu_us"] - 1 for w, b in zip(full, bare, strict=True)]
        print(
            f"| {name} | {statistics.median(b['rps'] for b in bare):,.0f} | "
            f"{statistics.median(w['rps'] for w in full):,.0f} | "
            f"{statistics.median(lost):.1%} ({min(lost):.1%} to {max(lost):.1%}) | "
            f"{statistics.median(b['cpu_us'] for b in bare):.1f} | "
            f"{statistics.median(w['cpu_us'] for w in full):.1f} | "
            f"{statistics.median(added):.1%} ({min(added):.1%} to {max(added):.1%}) |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wrk", action="store_true", help="serve both apps with uvicorn and load them with wrk")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--requests", type=int, default=3000, help="in process: requests per round (default 3000)")
    parser.add_argument("--duration", type=int, default=3, help="with --wrk: seconds of each run (default 3)")
    parser.add_argument("--connections", type=int, default=64, help="with --wrk: open connections (default 64)")
    parser.add_argument("--threads", type=int, default=1, help="with --wrk: wrk threads (default 1)")
    args = parser.parse_args()
    if args.wrk:
        served(args)
    else:
        in_process(args.rounds, args.requests)


if __name__ == "__main__":
    main()
