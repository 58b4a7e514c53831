"""Real ``flagcore serve`` processes on a real store: two servers sharing one Redis grade one game
alternately, a restart without FLAGCORE_SECRET changes nothing (the secret kept beside the SQLite
file), and a redis-server killed under load gives JSON 503s (never a 500 or a hang), then the
servers recover by themselves with every finished result kept."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from redis_server import RedisServer
from test_web_cli import FLAGCORE, serve
from web_helpers import SECRET, answers

pytestmark = pytest.mark.slow


def call(url: str, body: Any = None, cookie: str | None = None) -> tuple[int, Any, dict[str, str]]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read()), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), dict(e.headers)


def player_cookie(url: str) -> str:
    status, _, headers = call(url + "/api/connections/board?seed=1")
    assert status == 200
    return headers["set-cookie"].split(";")[0]


def env_with(**extra: str) -> dict[str, str]:
    import os

    return {**{k: v for k, v in os.environ.items() if k != "FLAGCORE_SECRET"}, **extra}


def test_two_servers_sharing_one_redis_grade_one_game_alternately(redis_server: RedisServer):
    env = env_with(FLAGCORE_SECRET=SECRET)
    one = serve(env=env, store=redis_server.url[:-1] + "1")
    two = serve("--server", "uvicorn", env=env, store=redis_server.url[:-1] + "1")
    (a, _), (b, _) = next(one), next(two)
    try:
        cookie = player_cookie(a)
        status, board, _ = call(a + "/api/connections/board?seed=31", cookie=cookie)
        groups = [list(g.codes) for g in answers(board["board_id"]).groups]
        g1, g2, g3 = groups[1], groups[2], groups[3]
        wrong = [[g1[0], g1[1], g2[0], g3[0]], [g1[0], g1[2], g2[1], g3[1]]]
        plan = [wrong[0], groups[0], wrong[1], groups[1], groups[2], groups[3]]
        token = board["token"]
        for i, codes in enumerate(plan):
            url = (a, b)[i % 2]  # alternate servers
            status, reply, _ = call(url + "/api/connections/guess", {"token": token, "codes": codes}, cookie)
            assert status == 200, reply
            token = reply["token"]
        assert reply["won"] and reply["mistakes"] == 2 and len(reply["solved"]) == 4  # none lost, none doubled
        for url in (a, b):
            status, again, _ = call(url + "/api/connections/board?seed=31", cookie=cookie)
            assert again["over"] and again["won"] and again["mistakes"] == 2
        # the same token at both servers at once: exactly one is recorded
        status, board, _ = call(a + "/api/connections/board?seed=32", cookie=cookie)
        groups = [list(g.codes) for g in answers(board["board_id"]).groups]
        results: list[int] = []

        def send(url: str) -> None:
            results.append(
                call(url + "/api/connections/guess", {"token": board["token"], "codes": groups[0]}, cookie)[0]
            )

        threads = [threading.Thread(target=send, args=(u,)) for u in (a, b, a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200, 409, 409, 409]
    finally:
        one.close()
        two.close()


def test_a_restart_without_a_secret_changes_nothing(tmp_path: Path):
    store = f"sqlite://{tmp_path}/games.db"
    first = serve(env=env_with(), store=store)
    url, proc = next(first)
    try:
        cookie = player_cookie(url)
        _, board, _ = call(url + "/api/connections/board?seed=5", cookie=cookie)
        _, daily, _ = call(url + "/api/connections/board?daily=2026-11-30", cookie=cookie)
        codes = [t["code"] for t in board["tiles"][:4]]
        _, reply, _ = call(url + "/api/connections/guess", {"token": board["token"], "codes": codes}, cookie)
    finally:
        first.close()
    assert proc.stderr is not None and "using the secret kept in" in proc.stderr.read()
    secret_file = tmp_path / "games.secret"
    assert secret_file.stat().st_mode & 0o777 == 0o600
    second = serve(env=env_with(), store=store)
    url, _ = next(second)
    try:
        _, again, _ = call(url + "/api/connections/board?seed=5", cookie=cookie)
        assert again["board_id"] == board["board_id"] and again["mistakes"] == reply["mistakes"]
        _, daily_again, _ = call(url + "/api/connections/board?daily=2026-11-30", cookie=cookie)
        assert daily_again["tiles"] == daily["tiles"]
        codes = [t["code"] for t in again["tiles"][4:8]]
        status, _, _ = call(url + "/api/connections/guess", {"token": reply["token"], "codes": codes}, cookie)
        assert status in (200, 400)  # the kept token is read (a 400 only if these tiles were solved)
    finally:
        second.close()


def test_a_weak_secret_stops_serve_with_how_to_make_one(tmp_path: Path):
    import subprocess

    env = env_with(FLAGCORE_SECRET="0123456789abcdef")
    r = subprocess.run(
        [*FLAGCORE, "serve", "--store", f"sqlite://{tmp_path}/g.db"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 2 and "at least 128 bits" in r.stderr and "secrets.token_urlsafe(32)" in r.stderr


def test_killing_redis_under_load_gives_503_json_then_recovery_with_results_kept(tmp_path: Path):
    redis = RedisServer(data_dir=str(tmp_path))  # append-only file: what it acknowledged survives
    redis.start()
    env = env_with(FLAGCORE_SECRET=SECRET)
    server = serve(env=env, store=redis.url)
    url, _ = next(server)
    try:
        cookie = player_cookie(url)
        # a finished game and a verified Puzzle result, before the fault
        _, board, _ = call(url + "/api/connections/board?seed=9", cookie=cookie)
        token = board["token"]
        for group in answers(board["board_id"]).groups:
            _, reply, _ = call(url + "/api/connections/guess", {"token": token, "codes": list(group.codes)}, cookie)
            token = reply["token"]
        assert reply["won"]
        _, deal, _ = call(url + "/api/puzzle/deal", {"flag": "FR", "grid": "easy", "seed": 5}, cookie)
        from web_helpers import optimal_log

        log = optimal_log(deal["tiles_by_slot"], deal["classes"])
        assert call(url + "/api/puzzle/verify", {"token": deal["token"], "swaps": log}, cookie)[0] == 200

        statuses: list[tuple[int, Any]] = []
        stop = threading.Event()

        def load() -> None:  # board requests with the player's cookie: each one reads the store
            while not stop.is_set() and len(statuses) < 5000:
                status, body, _ = call(url + "/api/connections/board?seed=9", cookie=cookie)
                statuses.append((status, body))

        threads = [threading.Thread(target=load) for _ in range(4)]
        for t in threads:
            t.start()
        while len(statuses) < 50:
            threading.Event().wait(0.02)
        redis.kill()
        seen = len(statuses)
        while not any(s == 503 for s, _ in statuses[seen:]):
            threading.Event().wait(0.02)
        redis.start()
        while not any(s == 200 for s, _ in statuses[-20:]) or statuses[-1][0] != 200:
            threading.Event().wait(0.02)
        stop.set()
        for t in threads:
            t.join()
        codes = {s for s, _ in statuses}
        assert codes <= {200, 503}, codes  # never a 500
        for status, body in statuses:
            if status == 503:
                assert body["error"]["code"] == "store_unavailable"
                assert "127.0.0.1" not in body["error"]["message"]  # the store's address is for the log only
        # recovered by itself; the finished game and the verified result are still there
        _, again, _ = call(url + "/api/connections/board?seed=9", cookie=cookie)
        assert again["over"] and again["won"]
        status, err, _ = call(url + "/api/puzzle/verify", {"token": deal["token"], "swaps": log}, cookie)
        assert status == 409 and err["error"]["code"] == "already_verified"
    finally:
        server.close()
        redis.stop()
