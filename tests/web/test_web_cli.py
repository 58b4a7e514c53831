"""``flagcore serve``: a real server process on 127.0.0.1, one and two workers sharing a secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from logged_process import serving
from web_helpers import SECRET, answers

FLAGCORE = [sys.executable, "-m", "flagcore"]


def call(url: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def serve(*args: str, env: dict[str, str], store: str | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``flagcore serve`` (logged_process.serving): (its URL, the process); its store in a folder of
    its own unless ``store`` says otherwise (never the user's data folder)."""
    if store is None:
        store = "sqlite://" + tempfile.mkdtemp(prefix="flagcore-serve-") + "/games.db"
    with serving(["--store", store, *args], env) as (port, proc):
        yield f"http://127.0.0.1:{port}", proc


def play(url: str) -> None:
    status, board = call(url + "/api/connections/board?seed=5")
    assert status == 200
    groups = [list(g.codes) for g in answers(board["board_id"]).groups]
    token = board["token"]
    for codes in groups:  # each request opens a new connection, so either worker may grade it
        status, r = call(url + "/api/connections/guess", {"token": token, "codes": codes})
        assert status == 200, r
        token = r["token"]
    assert r["won"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_with_a_shared_secret(workers: str) -> None:
    env = dict(os.environ, FLAGCORE_SECRET=SECRET)
    gen = serve("--workers", workers, env=env)
    url, proc = next(gen)
    try:
        for _ in range(3):
            play(url)
        status, deal = call(url + "/api/puzzle/deal", {"flag": "FR", "grid": "easy", "seed": 5})
        assert status == 200 and deal["flag"] == "FR"
        status, err = call(url + "/api/puzzle/verify", {"token": deal["token"], "swaps": [[0, 0]]})
        assert status == 422 and err["error"]["code"] == "rejected"
    finally:
        gen.close()


def test_serve_without_a_secret_warns_and_still_plays() -> None:
    env = {k: v for k, v in os.environ.items() if k != "FLAGCORE_SECRET"}
    gen = serve("--workers", "2", env=env)
    url, proc = next(gen)
    try:
        status, board = call(url + "/api/connections/board")
        assert status == 200
        token = board["token"]
        for _ in range(4):  # two workers, one random secret for the run: any worker grades it
            status, r = call(
                url + "/api/connections/guess", {"token": token, "codes": [t["code"] for t in board["tiles"][:4]]}
            )
            assert status == 200, r
    finally:
        gen.close()
    assert proc.stderr is not None and "FLAGCORE_SECRET is not set" in proc.stderr.read()


@pytest.mark.parametrize("args,message", [(["--workers", "0"], "--workers"), (["--port", "70000"], "--port")])
def test_serve_bad_arguments(args: list[str], message: str) -> None:
    r = subprocess.run([*FLAGCORE, "serve", *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_serve_rejects_a_short_secret() -> None:
    env = dict(os.environ, FLAGCORE_SECRET="short")
    r = subprocess.run([*FLAGCORE, "serve", "--port", "0"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and "at least 128 bits of entropy" in r.stderr and "token_urlsafe(32)" in r.stderr


def test_serve_help() -> None:
    r = subprocess.run([*FLAGCORE, "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--workers" in r.stdout and "127.0.0.1" in r.stdout


def test_serve_removes_its_metrics_folder_when_stopped(tmp_path: Any) -> None:
    # each run gets a metrics folder of its own (flagcore.web.ops): one left behind per start piled up in /tmp
    env = dict(os.environ, FLAGCORE_SECRET=SECRET, TMPDIR=str(tmp_path))
    gen = serve(env=env, store=f"sqlite://{tmp_path / 'games.db'}")
    url, proc = next(gen)
    try:
        assert call(url + "/api/flags")[0] == 200
        made = list(tmp_path.glob("flagcore-metrics-*"))
        assert len(made) == 1, made  # the run's folder, where the test looks
        proc.terminate()
        assert proc.wait(30) in (0, -15)  # uvicorn stops gracefully, then dies of the signal it caught
        assert not made[0].exists()
    finally:
        gen.close()
