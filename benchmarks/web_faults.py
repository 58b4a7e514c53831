"""The server's Redis store under faults, timed: the store-free routes' latency while redis-server
is hung or killed, against a calm run of the same length on the same server (issue 32's aim:
their p99 within 20% of the calm run's), and what the store routes get meanwhile.

    apt-get install -y wrk redis-server
    python benchmarks/web_faults.py                          # 1 worker, 3 rounds of three 5 s phases
    python benchmarks/web_faults.py --workers 1,2 --write-docs docs/hardening.md

The server is the shipped one as ``flagcore serve`` runs it (uvicorn, ``serve_app``, through
web_load.py's ``start_server``: the shipped app plus web_load's no-op endpoints) with the Redis
store on a redis-server of this run's own on a free port of 127.0.0.1, with an append-only file
written at every command (``appendfsync always``), so a killed redis-server comes back with every
write it acknowledged. ``--store-timeout`` is the server's store deadline.

Each round has three phases of equal length, one after the other:

- **calm**: redis-server runs;
- **stopped**: redis-server SIGSTOPped (a hung store: connections open, no answer), SIGCONT after;
- **killed**: redis-server SIGKILLed (connections refused), started again on its port after.

Throughout every phase two loads run at once:

- the **store-free routes**, each driven by wrk (web_load.py's ``wrk``) with ``--connections``
  connections: ``GET /api/flags`` and ``GET /healthz`` (with a store, a board request of a
  player with a cookie loads the player's game; a cookieless one asks the store nothing, but a
  browser sends its cookie from the second request on).
  Their median and p99 come from wrk's latency distribution;
- the **store route**: ``--store-clients`` threads of this script, each on its own keep-alive
  connection, sending the first guess of a new game by a new player (no cookie; boards from
  web_load's ``first_guesses``), which the server must write to the store before it answers.
  Each request's status and latency are kept, and for every guess answered 200, the player (its
  cookie) and the board.

After each fault the script times the **recovery**: from the SIGCONT or the restart until
``/readyz`` answers 200 and until a store guess is answered 200 again, with the same server
process (no restart). At the end every guess acknowledged with 200 is **read back** from Redis
(``RedisStore.load_game``): none may be missing.

The table gives, per phase, the store-free routes' median and p99 (the median over the rounds,
and the p99 as a ratio to the calm phase's of the same round: medians of the per-round ratios),
the server's run-queue wait (web_load's figure: milliseconds a second its threads were ready
but waited for a core, the shared machine's share of a p99), and the store requests: how many,
their statuses, and the worst latency of those that ended while the fault lasted (each must be
a 503 within the deadline). ``--write-docs PATH`` writes it between the markers DOCS_BEGIN and
DOCS_END of PATH (docs/hardening.md).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import web_load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from redis_server import RedisServer  # noqa: E402  (the tests' redis-server: kill and start again on its port)

# with a store a board request of a player with a cookie loads the player's game (connections_api's
# _stored_board): only a cookieless one is store-free
FREE_ROUTES = {"flags": "/api/flags", "healthz": "/healthz"}
PHASES = ("calm", "stopped", "killed")
# a store request's deadline runs from its store call, not from the request's arrival: the reply
# of a request whose call timed out comes this much later at most (HTTP and the loop's turn)
SLACK = 0.1
BOARDS = 100  # boards the store guesses cycle through (each request is a new player's first guess)


class Redis(RedisServer):
    """The tests' redis-server with an append-only file (fsync at every write) in ``folder``,
    which can also be stopped and resumed."""

    def __init__(self, folder: Path) -> None:
        super().__init__(data_dir=str(folder))

    def start(self) -> None:
        super().start()
        # Redis's own latency log: every event of its (an fsync, a command) over 1 ms, read per calm phase
        self.command("CONFIG", "SET", "latency-monitor-threshold", "1")

    def command(self, *words: str) -> object:
        """One command on a connection of its own (the server's may be the ones the faults break)."""
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=5)
        try:
            return client.execute_command(*words)
        finally:
            client.close()

    def worst_latency(self) -> tuple[str, int]:
        """(event, ms) of the slowest event in Redis's latency log since its last reset ("-", 0
        when none was over 1 ms), then the log reset: LATENCY LATEST's rows are (event, when,
        latest ms, max ms)."""
        rows = self.command("LATENCY", "LATEST")
        self.command("LATENCY", "RESET")
        assert isinstance(rows, list)
        worst = max(
            ((str(r[0], "ascii") if isinstance(r[0], bytes) else str(r[0]), int(r[3])) for r in rows),
            key=lambda r: r[1],
            default=("-", 0),
        )
        return worst

    def signal(self, sig: int) -> None:
        if sig == signal.SIGKILL:
            self.kill()
        else:
            assert self.process is not None
            os.kill(self.process.pid, sig)

    def stop(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGCONT)  # a stopped server cannot act on SIGTERM
        super().stop()


class StoreLoad:
    """``clients`` threads sending new players' first guesses until ``close``, together at most
    ``rate`` a second (each thread paced to its share: the same load in every phase, rather than
    more requests as a failing store answers faster); each request's (phase, start, seconds,
    status), and the (player, board) of each guess answered 200."""

    def __init__(self, port: int, bodies: list[str], clients: int, rate: float) -> None:
        self.port, self.bodies = port, bodies
        self.gap = clients / rate  # seconds between two requests of one thread
        self.phase = "warm-up"
        self.samples: list[tuple[str, float, float, int]] = []
        self.acked: list[tuple[str, str]] = []
        self._done = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(clients)]
        for t in self._threads:
            t.start()

    def _run(self, first: int) -> None:
        conn: http.client.HTTPConnection | None = None
        count = first
        due = time.monotonic() + self.gap * first / len(self._threads)  # the threads' slots spread out
        while not self._done.is_set():
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            due = max(due + self.gap, time.monotonic())  # late: the next slot from now, no burst to catch up
            body = self.bodies[count % len(self.bodies)]
            count += len(self._threads)
            phase, start = self.phase, time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                conn.request("POST", "/api/connections/guess", body, {"Content-Type": "application/json"})
                reply = conn.getresponse()
                reply.read()
                status, cookie = reply.status, reply.getheader("set-cookie")
            except (OSError, http.client.HTTPException):
                status, cookie = -1, None
                if conn is not None:
                    conn.close()
                conn = None
            self.samples.append((phase, start, time.monotonic() - start, status))
            if status == 200:
                assert cookie, "a first visit's reply sets the player's cookie"
                player = cookie.split("=", 1)[1].split(".", 1)[0]
                self.acked.append((player, json.loads(body)["token"]))  # a new board's token is its id

    def close(self) -> None:
        self._done.set()
        for t in self._threads:
            t.join(90)


def free_load(base: str, pid: int, args: argparse.Namespace, scratch: Path, seconds: float) -> dict[str, dict]:
    """The store-free routes under wrk at once for ``seconds``, each in a scratch folder of its own
    (web_load.wrk writes its script there): route -> wrk's figures."""
    out: dict[str, dict] = {}
    errors: list[BaseException] = []
    opts = argparse.Namespace(threads=1, connections=args.connections, duration=int(seconds))

    def run(name: str, path: str) -> None:
        folder = scratch / name
        folder.mkdir(exist_ok=True)
        try:
            out[name] = web_load.wrk(base, path, None, opts, folder, pid)
        except BaseException as exc:  # SystemExit of an invalid run: raised below, in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=item) for item in FREE_ROUTES.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


def status_of(base: str, path: str) -> int:
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return -1


def recovery(base: str, load: StoreLoad, since: float, limit: float = 60) -> tuple[float, float]:
    """Seconds from ``since`` (the fault lifted) until /readyz answers 200, and until a store guess
    started after ``since`` is answered 200 (inf if not within ``limit``)."""
    ready = guess = float("inf")
    deadline = since + limit
    while time.monotonic() < deadline and (ready == float("inf") or guess == float("inf")):
        if ready == float("inf") and status_of(base, "/readyz") == 200:
            ready = time.monotonic() - since
        if guess == float("inf"):
            done = [s + d for _, s, d, st in list(load.samples) if st == 200 and s >= since]
            if done:
                guess = min(done) - since
        time.sleep(0.01)
    return ready, guess


def run_server(workers: int, args: argparse.Namespace, scratch: Path) -> dict:
    """The rounds on one server of ``workers`` workers: per phase and round, the store-free
    routes' figures; the store requests; the recoveries; the read-back."""
    redis = Redis(scratch)
    redis.start()
    proc, base = web_load.start_server("uvicorn", workers, redis.url, FLAGCORE_STORE_TIMEOUT=str(args.store_timeout))
    port = int(base.rsplit(":", 1)[1])
    rounds: list[dict[str, dict]] = []
    recoveries: list[tuple[str, float, float]] = []
    windows: dict[str, list[tuple[float, float]]] = {p: [] for p in PHASES}  # (fault on, fault off)
    load = None
    try:
        bodies = web_load.first_guesses(base, BOARDS)
        for path in FREE_ROUTES.values():
            assert status_of(base, path) == 200  # dealt and cached before any measure
        load = StoreLoad(port, bodies, args.store_clients, args.store_rate)
        time.sleep(1.0)  # every client on its connection
        for _ in range(args.rounds):
            figures: dict[str, dict] = {}
            for phase in PHASES:
                if phase == "stopped":
                    redis.signal(signal.SIGSTOP)
                elif phase == "killed":
                    redis.signal(signal.SIGKILL)
                else:
                    redis.worst_latency()  # the log from here on: this calm phase's own
                load.phase, on = phase, time.monotonic()
                figures[phase] = free_load(base, proc.pid, args, scratch, args.duration)
                off = time.monotonic()
                if phase == "calm":
                    figures[phase]["redis"] = {"worst": redis.worst_latency()}
                load.phase = "recovery"
                windows[phase].append((on, off))
                if phase == "stopped":
                    redis.signal(signal.SIGCONT)
                elif phase == "killed":
                    redis.start()
                if phase != "calm":
                    lifted = time.monotonic()
                    recoveries.append((phase, *recovery(base, load, lifted)))
            rounds.append(figures)
            shown = [f"{p} " + " ".join(f"{n} {f[n]['p99']:.2f}" for n in FREE_ROUTES) for p, f in figures.items()]
            print(f"  {workers} worker(s), p99 ms: " + "; ".join(shown), file=sys.stderr)
    finally:
        if load is not None:
            load.close()
        web_load.stop(proc)
    try:
        from flagcore.store import RedisStore

        acked = list(load.acked) if load is not None else []
        store = RedisStore(redis.url)
        lost = sum(store.load_game(player, board) is None for player, board in acked)
        store.close()
    finally:
        redis.stop()
    return {
        "rounds": rounds,
        "samples": load.samples if load else [],
        "windows": windows,
        "recoveries": recoveries,
        "acked": len(acked),
        "lost": lost,
    }


def rows_of(workers: int, result: dict, timeout: float) -> list[str]:
    """The table rows of one server."""
    rows = []
    rounds = result["rounds"]
    for phase in PHASES:
        cells = []
        for name in FREE_ROUTES:
            p50 = statistics.median(r[phase][name]["p50"] for r in rounds)
            p99 = statistics.median(r[phase][name]["p99"] for r in rounds)
            ratios = [r[phase][name]["p99"] / r["calm"][name]["p99"] for r in rounds]
            if phase == "calm":  # the machine's own noise: how far calm p99s of the rounds are apart
                calm = [r[phase][name]["p99"] for r in rounds]
                cells.append(f"{p50:.2f} / {p99:.2f} (rounds {min(calm):.2f}-{max(calm):.2f})")
            else:
                spread = f"{min(ratios):.0%}-{max(ratios):.0%}"
                cells.append(f"{p50:.2f} / {p99:.2f} ({statistics.median(ratios):.0%}; {spread})")
        ended = [
            (d, st)
            for ph, s, d, st in result["samples"]
            if ph == phase and any(on <= s and s + d <= off for on, off in result["windows"][phase])
        ]
        statuses: dict[int, int] = {}
        for _, st in ended:
            statuses[st] = statuses.get(st, 0) + 1
        told = ", ".join(f"{n:,} x {st if st > 0 else 'no answer'}" for st, n in sorted(statuses.items()))
        worst = max((d for d, _ in ended), default=0.0)
        if phase == "calm":
            verdict = "every one 200" if set(statuses) == {200} else "NOT all 200"
        else:
            ok = set(statuses) == {503} and worst <= timeout + SLACK
            within = f"the deadline + {1000 * SLACK:.0f} ms"
            verdict = f"every one 503 within {within}" if ok else f"NOT all 503 within {within}"
        recovered = [(r, g) for ph, r, g in result["recoveries"] if ph == phase]
        back = "-" if not recovered else f"{max(r for r, _ in recovered):.2f} / {max(g for _, g in recovered):.2f}"
        # the server's threads' wait for a core (web_load's run-queue figure, one server: the flags run's)
        waited = statistics.median(r[phase]["flags"]["waited"] for r in rounds)
        # Redis's slowest event of each calm phase (its latency log): a calm p99 the store's own
        # pauses (an fsync on a busy disk) explain; a faulty phase's Redis is stopped or gone
        redis = "-"
        if phase == "calm":
            events = [r[phase]["redis"]["worst"] for r in rounds]
            redis = ", ".join(f"{ms} ({event})" if ms else "none over 1" for event, ms in events)
        rows.append(
            f"| {workers} | {phase} | {' | '.join(cells)} | {1000 * waited:.0f} | {redis} | {told} ({verdict}) "
            f"| {1000 * worst:.0f} | {back} |"
        )
    rows.append(
        f"| {workers} | read back | | | | | {result['acked']:,} guesses acknowledged with 200, "
        f"{result['lost']} missing from Redis | | |"
    )
    return rows


DOCS_BEGIN = "<!-- web_faults.py writes this table: begin -->"
DOCS_END = "<!-- web_faults.py writes this table: end -->"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, kind, default, what in (
        ("--duration", int, 5, "seconds of each phase"),
        ("--rounds", int, 3, "rounds of the three phases"),
        ("--connections", int, 2, "wrk connections per store-free route"),
        ("--store-clients", int, 16, "threads sending store guesses"),
        ("--store-rate", float, 400, "store guesses a second at most"),
        ("--store-timeout", float, 0.5, "the server's store deadline in seconds"),
    ):
        parser.add_argument(flag, type=kind, default=default, help=f"{what} (default {default})")
    parser.add_argument("--workers", default="1", help="worker counts to measure (default 1; e.g. 1,2)")
    parser.add_argument("--write-docs", metavar="PATH", help="also write the table into PATH's marked block")
    args = parser.parse_args()
    for tool in ("wrk", "redis-server"):
        if not web_load.shutil.which(tool):
            raise SystemExit(f"{tool} not found: apt-get install -y wrk redis-server")
    out = [
        f"`python benchmarks/web_faults.py {' '.join(sys.argv[1:])}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: uvicorn, Redis store (append-only, fsync "
        f"always), store deadline {args.store_timeout:g} s; {args.rounds} rounds of three {args.duration} s "
        f"phases; wrk -c{args.connections} on each store-free route, {args.store_clients} store clients "
        f"(at most {args.store_rate:g} guesses/s); "
        f"load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)",
        "",
        "| workers | phase | `/api/flags` p50 / p99 ms (p99 vs calm: median; range) | `/healthz` p50 / p99 ms "
        "(p99 vs calm) | server's wait for a core, ms/s | Redis's slowest event of each round, ms (its latency "
        "log) | store guesses that ended in the phase | worst store ms | recovery s: /readyz / guess |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (int(w) for w in args.workers.split(",")):
            folder = Path(tmp) / f"w{workers}"
            folder.mkdir()
            out += rows_of(workers, run_server(workers, args, folder), args.store_timeout)
    out += ["", f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"]
    print("\n".join(out))
    if args.write_docs:
        # web_load's writer, with this script's markers (its own block of the page)
        web_load.DOCS_BEGIN, web_load.DOCS_END = DOCS_BEGIN, DOCS_END
        web_load.write_docs(Path(args.write_docs), out)


if __name__ == "__main__":
    main()
