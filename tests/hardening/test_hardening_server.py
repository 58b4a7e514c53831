"""A real ``flagcore serve`` (uvicorn, the default server) against faults and hostile requests: a
hung or killed redis-server under load (every store request answered 503 within the deadline,
the store-free routes as fast as without the fault, recovery without a restart, no acknowledged
guess lost), SIGTERM under load on SQLite and on Redis (every guess acknowledged with 200 is in
the store after), a flood of cookieless guesses gone from Redis once they expire, the SQLite file
deleted (503 and a log line), malformed and oversized requests (no 5xx), a 56 KiB cookie (refused
at about a normal request's cost), and /metrics of two workers read back by prometheus-client's
own parser."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from logged_process import FLAGCORE_SERVE, serving
from redis_server import RedisServer, free_port

from flagcore.store import RedisStore, SQLiteStore

pytestmark = pytest.mark.slow
SECRET = "Hk2s9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"
TIMEOUT = 0.5  # the server's store timeout in these tests (--store-timeout)


@contextmanager
def serve(
    store: str, *args: str, env: dict[str, str] | None = None, wrap: tuple[str, ...] = ()
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``flagcore serve`` with ``store`` and this file's secret (logged_process.serving): (port, process)."""
    with serving(["--store", store, *args], {**os.environ, "FLAGCORE_SECRET": SECRET, **(env or {})}, wrap) as served:
        yield served


def request(
    port: int, method: str, path: str, body: Any = None, cookie: str | None = None, timeout: float = 30
) -> tuple[int, Any, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if cookie:
            headers["Cookie"] = cookie
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        reply = conn.getresponse()
        data = reply.read()
        try:
            value = json.loads(data)
        except ValueError:
            value = data
        return reply.status, value, {k.lower(): v for k, v in reply.getheaders()}
    finally:
        conn.close()


def player_cookie(port: int) -> str:
    status, _, headers = request(port, "GET", "/api/connections/board?seed=1")
    assert status == 200
    return headers["set-cookie"].split(";")[0]


def load(port: int, seconds: float, cookie: str) -> dict[str, list[tuple[float, int]]]:
    """Four threads for ``seconds``: two ask /api/flags (no store), two a board with the player's
    cookie (a store read); each request's (seconds, status) by route."""
    out: dict[str, list[tuple[float, int]]] = {"flags": [], "board": []}
    stop = time.monotonic() + seconds

    def run(route: str, path: str) -> None:
        while time.monotonic() < stop:
            start = time.monotonic()
            try:
                status = request(port, "GET", path, cookie=cookie, timeout=20)[0]
            except OSError:
                status = -1
            out[route].append((time.monotonic() - start, status))

    threads = [
        threading.Thread(target=run, args=("flags", "/api/flags")),
        threading.Thread(target=run, args=("flags", "/api/flags")),
        threading.Thread(target=run, args=("board", "/api/connections/board?seed=5")),
        threading.Thread(target=run, args=("board", "/api/connections/board?seed=6")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def median_ms(*windows: dict[str, list[tuple[float, int]]]) -> list[float]:
    """The flags route's median latency in each window, in ms (for the assertion's message)."""
    return [round(1000 * statistics.median(s for s, _ in w["flags"]), 2) for w in windows]


def guess(port: int, cookie: str, seed: int) -> tuple[int, str]:
    """A wrong first guess on the board of ``seed``: (the guess's status, or the board request's
    when that failed; the board id)."""
    status, board, _ = request(port, "GET", f"/api/connections/board?seed={seed}", cookie=cookie)
    if status != 200:
        return status, ""
    tiles = [t["code"] for t in board["tiles"]]
    status, reply, _ = request(
        port, "POST", "/api/connections/guess", {"token": board["token"], "codes": tiles[:4]}, cookie=cookie
    )
    return status, board["board_id"]


def guess_once(port: int, cookie: str, seed: int) -> tuple[str, int] | None:
    """A wrong first guess on the board of ``seed``: (board id, version) when acknowledged with 200."""
    status, board_id = guess(port, cookie, seed)
    return (board_id, 1) if status == 200 else None


@pytest.mark.parametrize("fault", ["SIGSTOP", "SIGKILL"])
def test_a_hung_or_killed_redis_under_load(tmp_path: Path, fault: str) -> None:
    redis = RedisServer(data_dir=str(tmp_path))
    redis.start()
    calm: dict[str, list[tuple[float, int]]] = {"flags": [], "board": []}
    faulty: dict[str, list[tuple[float, int]]] = {"flags": [], "board": []}
    try:
        with serve(redis.url, "--store-timeout", str(TIMEOUT)) as (port, _):
            cookie = player_cookie(port)
            player = cookie.split("=", 1)[1].split(".")[0]
            acked = [g for g in (guess_once(port, cookie, seed) for seed in range(100, 110)) if g]
            # three rounds of a calm and a faulty window, interleaved: a shared machine's noise
            # falls on both alike, and the server recovers each time without a restart
            for round_ in range(3):
                for route, samples in load(port, 2, cookie).items():
                    calm[route] += samples
                if fault == "SIGSTOP":
                    os.kill(redis.process.pid, signal.SIGSTOP)
                else:
                    redis.kill()
                try:
                    for route, samples in load(port, 2, cookie).items():
                        faulty[route] += samples
                finally:
                    if fault == "SIGSTOP":
                        os.kill(redis.process.pid, signal.SIGCONT)
                    else:
                        redis.start()
                deadline = time.monotonic() + 30
                while request(port, "GET", "/readyz")[0] != 200 and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert request(port, "GET", "/api/connections/board?seed=5", cookie=cookie)[0] == 200
                seeds = range(200 + 10 * round_, 205 + 10 * round_)
                acked += [g for g in (guess_once(port, cookie, seed) for seed in seeds) if g]
    finally:
        if redis.process is not None:
            os.kill(redis.process.pid, signal.SIGCONT)
    # every request that needs the store: a 503 within the deadline (generous: twice it, and a second
    # for a loaded machine's scheduling), none left hanging, none a 500
    statuses = {status for _, status in faulty["board"]}
    assert statuses == {503}, statuses
    assert max(s for s, _ in faulty["board"]) < 2 * TIMEOUT + 1.0
    # the store-free route never waited for the store: were store calls on the event loop, the two
    # board threads would hold it for the deadline at each call and a flags request would wait for
    # a good part of it (TIMEOUT / 2 on average). The median against a fifth of the deadline tells
    # the two apart by 20x on a quiet machine and is not moved by a shared machine's spikes (a p99
    # against the calm window's was: 25 against 15 ms once in CI, with nothing blocked).
    assert {status for _, status in calm["flags"] + faulty["flags"]} == {200}
    assert statistics.median(s for s, _ in faulty["flags"]) < TIMEOUT / 5, median_ms(calm, faulty)
    # no acknowledged guess lost, the ones before the faults and after each
    assert len(acked) == 25
    store = RedisStore(redis.url)
    for board_id, version in acked:
        record = store.load_game(player, board_id)
        assert record is not None and record.version >= version
    store.close()
    redis.stop()


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_sigterm_under_load_keeps_every_acknowledged_guess(tmp_path: Path, kind: str) -> None:
    redis = None
    if kind == "redis":  # a redis-server of its own, which outlives the server
        redis = RedisServer(data_dir=str(tmp_path))
        redis.start()
    url = f"sqlite://{tmp_path / 'games.db'}" if redis is None else redis.url
    acked: list[tuple[str, str, int]] = []
    try:
        with serve(url, "--workers", "2") as (port, proc):
            cookies = [player_cookie(port) for _ in range(4)]
            stop = threading.Event()

            def player(i: int) -> None:
                seed = 1000 * (i + 1)
                while not stop.is_set():
                    seed += 1
                    try:
                        got = guess_once(port, cookies[i], seed)
                    except OSError:
                        return  # the server is gone
                    if got:
                        acked.append((cookies[i].split("=", 1)[1].split(".")[0], *got))

            threads = [threading.Thread(target=player, args=(i,)) for i in range(4)]
            for t in threads:
                t.start()
            time.sleep(6)
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
            stop.set()
            for t in threads:
                t.join()
        assert len(acked) >= 4  # every player had guesses acknowledged before the signal
        store = SQLiteStore(tmp_path / "games.db") if redis is None else RedisStore(redis.url)
        for player_id, board_id, version in acked:
            record = store.load_game(player_id, board_id)
            assert record is not None and record.version >= version, (player_id, board_id)
        store.close()
    finally:
        if redis is not None:
            redis.stop()


def test_a_flood_of_cookieless_guesses_through_the_server_leaves_redis_as_it_was_once_they_expire(
    tmp_path: Path,
) -> None:
    import redis as redis_client

    redis = RedisServer()
    redis.start()
    client = redis_client.Redis.from_url(redis.url)

    def size() -> int:  # the bytes of the live keys (reading a key past its time expires it)
        pipe = client.pipeline(transaction=False)
        for key in client.scan_iter(count=1000):
            pipe.memory_usage(key)
        return sum(n or 0 for n in pipe.execute())

    ttl = 3
    statuses: list[int] = []
    try:
        with serve(redis.url, "--workers", "2", "--new-player-ttl", str(ttl)) as (port, _):
            cookie = player_cookie(port)
            _, board, _ = request(port, "GET", "/api/connections/board?seed=77", cookie=cookie)
            tiles = [t["code"] for t in board["tiles"]]
            status, mine, _ = request(
                port, "POST", "/api/connections/guess", {"token": board["token"], "codes": tiles[4:8]}, cookie=cookie
            )
            assert status == 200  # a player with a cookie: a game in progress through the flood
            before = size()
            guess = {"token": board["token"], "codes": tiles[:4]}

            def flood() -> None:  # cookieless: each guess a new player's new game
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                got = []
                for _ in range(500):
                    conn.request(
                        "POST", "/api/connections/guess", json.dumps(guess), {"Content-Type": "application/json"}
                    )
                    reply = conn.getresponse()
                    reply.read()
                    got.append(reply.status)
                conn.close()
                statuses.extend(got)

            threads = [threading.Thread(target=flood) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            during = size()
            time.sleep(ttl + 1)
            after = size()
            status, again, _ = request(
                port, "POST", "/api/connections/guess", {"token": mine["token"], "codes": tiles[8:12]}, cookie=cookie
            )
    finally:
        client.close()
        redis.stop()
    assert statuses == [200] * 2000, set(statuses)
    assert during > 10 * before, (before, during)  # the flood did grow the store
    assert after <= 1.1 * before, (before, during, after)  # and left it as it was
    assert status == 200, again  # the player with a cookie kept their game (a lost one would be a 409)


def test_a_sqlite_file_deleted_under_the_server_gives_503_and_a_log_line(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with serve(f"sqlite://{path}") as (port, proc):
        cookie = player_cookie(port)
        assert guess_once(port, cookie, 7)
        path.unlink()
        status, body, _ = request(port, "GET", "/api/connections/board?seed=7", cookie=cookie)
        ready = request(port, "GET", "/readyz")[0]
        proc.terminate()
        proc.wait(30)
        assert proc.stderr is not None
        err = proc.stderr.read()
    assert status == 503 and body["error"]["code"] == "store_unavailable"
    assert str(tmp_path) not in json.dumps(body)
    assert ready == 503
    logged = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any("deleted or replaced" in e["message"] and e.get("request_id") for e in logged), err[-2000:]


# runs argv[2:] with no file of the process allowed past argv[1] bytes (RLIMIT_FSIZE: what a full
# disk does to writes; Python ignores SIGXFSZ, so a write past it fails as on a full disk)
FULL_DISK = (
    "import os, resource, sys; "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY)); "
    "os.execv(sys.argv[2], sys.argv[2:])"
)


def test_a_full_disk_under_the_server_gives_503s_keeps_every_acknowledged_guess_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    acked: list[tuple[str, int]] = []
    statuses: dict[int, int] = {}
    with serve(f"sqlite://{path}", wrap=(sys.executable, "-c", FULL_DISK, str(256 * 1024))) as (port, _):
        cookie = player_cookie(port)
        player = cookie.split("=", 1)[1].split(".")[0]
        for seed in range(1000, 4000):  # new games, each a new row, until the disk is full
            status, board_id = guess(port, cookie, seed)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                acked.append((board_id, 1))
            if statuses.get(503, 0) >= 20:
                break
        alive = request(port, "GET", "/api/flags")[0]
    assert set(statuses) <= {200, 503} and statuses.get(503, 0) >= 20, statuses  # the disk filled; never a 500
    assert statuses.get(200, 0) > 0 and alive == 200  # it served before, and the store-free routes after
    store = SQLiteStore(path)  # every guess acknowledged with 200 is there
    for board_id, version in acked:
        record = store.load_game(player, board_id)
        assert record is not None and record.version >= version, board_id
    assert store._call(lambda conn: conn.execute("PRAGMA integrity_check").fetchone()[0]) == "ok"
    store.close()
    with serve(f"sqlite://{path}") as (port, _):  # space again: the same file serves and keeps writing
        assert guess(port, cookie, 5000)[0] == 200


def raw(port: int, data: bytes, gone: bool = False) -> int:
    """Send raw bytes and read the reply's status; 0 when the server closed without one (what it
    may do to a request it cannot frame, and to a client gone away). ``gone``: the client closes
    its side after sending (a request cut short is then answered or dropped, not waited for; a
    complete one is not half-closed, as a server may drop a request whose client closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(data)
            if gone:
                s.shutdown(socket.SHUT_WR)
            head = b""
            while b"\r\n" not in head:
                chunk = s.recv(4096)
                if not chunk:
                    break
                head += chunk
        except ConnectionError:  # reset by the server: it refused the request without a reply
            return 0
    return int(head.split()[1]) if head.startswith(b"HTTP/") else 0


CHUNKED = b"Transfer-Encoding: chunked\r\n"
# a body cut short, its client gone: HTTP owes no reply (a server may answer 400 or just close)
CUT_SHORT = b"POST /api/connections/guess HTTP/1.1\r\nHost: 127.0.0.1\r\n" + CHUNKED + b'\r\n5\r\n{"tok\r\n'
HOSTILE = [
    b"POST /api/connections/guess HTTP/1.1\r\nHost: 127.0.0.1\r\n" + CHUNKED + b"\r\nzz\r\n{}\r\n0\r\n\r\n",
    b"POST /api/puzzle/cycles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n"
    + CHUNKED
    + b"\r\n2\r\n{}\r\n0\r\n\r\n",
    b"POST /api/puzzle/cycles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    b"GET /api/flags HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
    b"GET /api/flags HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n",
    b"GET /api/flags HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(200)) + b"\r\n",
    b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: flagcore_player=" + b"x" * 5000 + b"\r\n\r\n",
    b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: "
    + b"; ".join(b"flagcore_player=a:%d.t" % i for i in range(300))
    + b"\r\n\r\n",
    b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \xff\xfe=\x00; flagcore_player=..\r\n\r\n",
    CUT_SHORT,
]


def test_hostile_requests_never_get_a_5xx_and_a_56_kib_cookie_costs_about_a_normal_request(tmp_path: Path) -> None:
    with serve(f"sqlite://{tmp_path / 'games.db'}") as (port, proc):
        statuses: dict[tuple[int, int], int] = {}  # (request kind, status) -> how many
        for i in range(10_000):
            hostile = HOSTILE[i % len(HOSTILE)]
            status = raw(port, hostile, gone=hostile is CUT_SHORT)
            statuses[i % len(HOSTILE), status] = statuses.get((i % len(HOSTILE), status), 0) + 1
        assert not [s for _, s in statuses if s >= 500], statuses
        # every complete request is answered (a 4xx, or a 200 when what is junk is only ignored)
        assert all(0 < s < 500 for kind, s in statuses if HOSTILE[kind] is not CUT_SHORT), statuses
        assert request(port, "GET", "/healthz")[0] == 200  # alive after it all
        normal = "flagcore_player=" + player_cookie(port).split("=", 1)[1]
        junk = "; ".join(f"flagcore_player=a:{i:040d}.tag" for i in range(896))  # 56 KiB
        assert 55_000 < len(junk) < 60_000
        costs = {}
        for name, cookie in (("normal", normal), ("junk", junk), ("normal again", normal)):
            before = _tree_cpu(proc.pid)
            for _ in range(300):
                request(port, "GET", "/api/stats", cookie=cookie)
            costs[name] = _tree_cpu(proc.pid) - before
    assert costs["junk"] <= 2 * min(costs["normal"], costs["normal again"]), costs


@pytest.mark.timeout(600)  # a regression stalls the server: each request then waits out its socket timeout
def test_a_server_whose_stderr_nobody_reads_keeps_serving(tmp_path: Path) -> None:
    # uvicorn logs a line per malformed request: a pipe nobody reads is full after a couple of
    # thousand, and a server writing its logs on the event loop would stop there (issue 32)
    port = free_port()
    proc = subprocess.Popen(
        [*FLAGCORE_SERVE, "--port", str(port), "--store", f"sqlite://{tmp_path / 'games.db'}"],
        env={**os.environ, "FLAGCORE_SECRET": SECRET},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 240  # a worker deals its first boards before it serves
        while not _answers(port):
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        statuses = [raw(port, HOSTILE[0]) for _ in range(5000)]  # a malformed chunk size: 400, and a log line
        assert statuses.count(400) == len(statuses)
        assert request(port, "GET", "/healthz", timeout=10)[0] == 200
    finally:
        proc.kill()
        proc.wait()


def _answers(port: int) -> bool:
    try:
        return request(port, "GET", "/healthz", timeout=5)[0] == 200
    except OSError:
        return False


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its descendants so far."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pending = [pid]
    while pending:
        p = pending.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return total


def test_metrics_of_two_workers_add_up_and_parse(tmp_path: Path) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    with serve(f"sqlite://{tmp_path / 'games.db'}", "--workers", "2") as (port, _):
        for _ in range(200):
            assert request(port, "GET", "/api/flags")[0] == 200
        time.sleep(2.5)  # each worker writes its figures within a second of its last request
        totals = []
        for _ in range(6):  # whichever worker answers, every worker's figures
            text = request(port, "GET", "/metrics")[1].decode()
            families = {f.name: f for f in text_string_to_metric_families(text)}
            totals.append(
                sum(
                    s.value
                    for s in families["flagcore_http_requests"].samples
                    if s.name == "flagcore_http_requests_total" and s.labels == {"route": "/api/flags", "status": "200"}
                )
            )
    assert totals == [200] * 6, totals
