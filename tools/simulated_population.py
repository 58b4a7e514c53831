"""A simulated population plays Connections through the real HTTP API; the ratings close the loop.

    python tools/simulated_population.py [--store sqlite|redis] [--players 2000] [--games 20000]
                                          [--check-games 2000] [--json]

Each category of both modes gets a hidden true difficulty (normal, seeded; not the model's
saliences) and each player a skill (normal). A player finds the open groups in turn by
Plackett-Luce draws on the hidden difficulty (the easiest most likely next) and, before finding
one, fails at it (a one-away guess: a mistake) with a chance that grows with its difficulty over
the player's skill; four mistakes lose. The games go to ``flagcore serve`` on 127.0.0.1 with a
store (a fresh SQLite file, or a fresh redis-server from Debian), one cookie per player, one
board per game (a fresh seed), half of them trivia. The server records each finished game's play
record; then:

1. the ratings are fitted from the store (``flagcore ratings fit --store``'s code path), and
   Spearman(learned, hidden) is taken over the categories with 30 plays or more, per mode;
2. skill robustness: the records of the strongest third and of the weakest third of the players
   (matched by board id, one board per game) are fitted apart and their rankings compared;
3. the colours: the share of boards whose simulated solve order is exactly the colour order, has
   yellow first, has purple last, with today's model colours (the games above) and with the
   learned colours (``--check-games`` more games by the same players through the API of a server
   started with ``--ratings`` the fitted file, on a fresh store of the same kind).

The player knows the answers (a simulation measures the difficulty, not the search for groups):
it deals the server's board itself under the server's secret (flagcore.web.boards.KeyedBoards),
checks that the tiles are the ones the API sent, and reads the groups' categories from it (many
categories share their four tiles on a board, so the tiles alone do not name the category).
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from flagcore._args.secret import as_secret
from flagcore.connections.tables import default_library
from flagcore.ratings import fit, read_records, spearman
from flagcore.store import open_store
from flagcore.web.boards import KeyedBoards, daily_numbers, game_number
from flagcore.web.tokens import Signer

MODES = ("flags", "trivia")
SHARPNESS = 1.5  # how strongly the hidden difficulty orders a player's finds (Plackett-Luce scale)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Truth:
    """The hidden difficulty of every category."""

    def __init__(self, seed: int = 2026) -> None:
        rng = np.random.default_rng(seed)
        lib = default_library()
        self.difficulty: dict[str, dict[str, float]] = {}
        for mode in MODES:
            cats = lib.categories(mode)
            self.difficulty[mode] = {c.id: float(rng.normal(0, 1)) for c in cats}


class Player:
    """One simulated player: a skill, a cookie, a random stream of their own."""

    def __init__(self, number: int, skill: float) -> None:
        self.number, self.skill, self.cookie = number, skill, None
        self.rng = np.random.default_rng(10_000 + number)

    def plan(self, mode: str, groups: list[tuple[str, frozenset[str]]], truth: Truth) -> list[tuple[int, int]]:
        """The game this player plays: per find, (group index, mistakes made before it)."""
        open_ = list(range(4))
        out = []
        for _ in range(4):
            d = np.array([truth.difficulty[mode][groups[g][0]] for g in open_])
            pick = open_[int(np.argmax(-SHARPNESS * d + self.rng.gumbel(size=len(open_))))]
            h = truth.difficulty[mode][groups[pick][0]]
            fails = 0
            if len(open_) > 1:  # the last four tiles are the last group
                p_fail = 1 / (1 + math.exp(-(h - self.skill - 0.5)))
                while self.rng.random() < p_fail and fails < 4:
                    fails += 1
            out.append((pick, fails))
            open_.remove(pick)
        return out


class Client:
    """Keep-alive HTTP/1.1 to the server, JSON in and out."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, player: Player, body: Any = None) -> Any:
        headers = {"Host": "127.0.0.1", "Content-Type": "application/json"}
        if player.cookie:
            headers["Cookie"] = player.cookie
        data = None if body is None else json.dumps(body)
        for busy in range(20):  # a store busy past its timeout answers 503: wait and ask again
            status, reply = self._send(method, path, headers, data, player)
            if status != 503:
                return status, reply
            time.sleep(0.2 * (busy + 1))
        raise RuntimeError(f"{method} {path}: HTTP 503 twenty times: {reply}")

    def _send(self, method: str, path: str, headers: dict[str, str], data: str | None, player: Player) -> Any:
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                break
            except (ConnectionError, http.client.HTTPException):
                if attempt == 2:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            player.cookie = cookie.split(";", 1)[0]
        if resp.status >= 500:
            raise RuntimeError(f"{method} {path}: HTTP {resp.status} {raw[:200]!r}")
        return resp.status, json.loads(raw)


def play_http(client: Client, keyed: Any, player: Player, seed: int, mode: str, truth: Truth) -> dict[str, Any]:
    """One game through the API: the order found (by the board's colours) and the end."""
    status, board = client.call("GET", f"/api/connections/board?seed={seed}&mode={mode}", player)
    if status != 200:
        raise RuntimeError(f"board: HTTP {status} {board}")
    tiles = [t["code"] if isinstance(t, dict) else t for t in board["tiles"]]
    dealt = keyed.board(game_number(seed), mode)
    if sorted(dealt.tiles) != sorted(tiles):
        raise RuntimeError(f"seed {seed}: the server's tiles are not the board dealt under its secret")
    groups = [(g.category_id, frozenset(g.codes)) for g in dealt.groups]  # in the server's colours
    token = board["token"]

    def guess(codes: list[str]) -> dict[str, Any]:
        status, reply = client.call("POST", "/api/connections/guess", player, {"token": token, "codes": codes})
        if status == 409:  # a retried guess that the store had kept: the game as it is now
            status, reply = client.call("GET", f"/api/connections/board?seed={seed}&mode={mode}", player)
        if status != 200:
            raise RuntimeError(f"guess: HTTP {status} {reply}")
        return reply  # type: ignore[no-any-return]

    found: list[str] = []
    reply: dict[str, Any] = {}
    tried: set[frozenset[str]] = set()
    for g, fails in player.plan(mode, groups, truth):
        cid, codes = groups[g]
        solved = {x for f in found for x in dict(groups)[f]}
        others = [c for _, cs in groups for c in cs if c not in codes and c not in solved]
        for _ in range(fails):
            inside = sorted(codes)
            player.rng.shuffle(inside)
            wrong = frozenset([*inside[:3], others[int(player.rng.integers(len(others)))]])
            if wrong in tried:
                continue
            tried.add(wrong)
            reply = guess(sorted(wrong))
            token = reply.get("token")
            if reply.get("over"):
                break
        if reply.get("over"):
            break
        reply = guess(sorted(codes))
        token = reply.get("token")
        found.append(cid)
        if reply.get("over"):
            break
    colour_of = {tuple(sorted(x["codes"])): x["tier"] for x in reply.get("groups", [])}
    order = [colour_of.get(tuple(sorted(dict(groups)[cid])), -1) for cid in found]
    return {
        "board": board["board_id"],
        "mode": mode,
        "order": order,
        "won": bool(reply.get("won")),
        "today": reply.get("today"),
    }


def colour_figures(orders: list[list[int]]) -> dict[str, float]:
    """Shares of games solved exactly in colour order, with yellow first, with purple last."""
    full = [o for o in orders if len(o) == 4]
    n = max(len(full), 1)
    return {
        "games": len(full),
        "exact": sum(o == [0, 1, 2, 3] for o in full) / n,
        "yellow_first": sum(o[0] == 0 for o in full) / n,
        "purple_last": sum(o[-1] == 3 for o in full) / n,
    }


def start_server(store_url: str, secret: str, extra: Sequence[str] = ()) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "FLAGCORE_SECRET": secret}
    cmd = [sys.executable, "-m", "flagcore", "serve", "--port", str(port), "--store", store_url, "--no-access-log",
           "--log-level", "warning", *extra]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server did not start: {proc.stderr.read().decode()[-500:] if proc.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not listen within 60 s")


def start_redis(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def play_many(
    port: int,
    secret: str,
    people: list[Player],
    games: int,
    first_seed: int,
    truth: Truth,
    clients: int,
    rng: np.random.Generator,
    ratings: Any,
) -> list[dict[str, Any]]:
    """``games`` games through the API on ``clients`` connections at once (seeds from ``first_seed``)."""
    picks = rng.integers(len(people), size=games)
    dailies = daily_numbers()

    def worker(k: int) -> list[dict[str, Any]]:
        # games g with g % clients == k, each by a player of this client's share (a player's random
        # stream is never used by two threads)
        client = Client(port)
        keyed = KeyedBoards(Signer(as_secret(secret, "secret")), ratings=ratings)
        out = []
        for g in range(k, games, clients):
            player = people[min(len(people) - 1, (int(picks[g]) // clients) * clients + k)]
            seed = first_seed + g
            while game_number(seed) in dailies:  # a day's daily is refused before its day: not a random board
                seed += 10_000_000
            game = play_http(client, keyed, player, seed, MODES[g % 2], truth)
            game["skill"] = player.skill
            out.append(game)
        return out

    log: list[dict[str, Any]] = []
    with ThreadPoolExecutor(clients) as pool:
        for part in pool.map(worker, range(clients)):
            log.extend(part)
    return log


def learned_vs_hidden(ratings: Any, truth: Truth) -> dict[str, Any]:
    out = {}
    for mode in MODES:
        cs = {c: r for c, r in ratings.categories.get(mode, {}).items() if r.plays >= 30}
        out[mode] = {
            "categories": len(cs),
            "spearman": spearman([r.difficulty for r in cs.values()], [truth.difficulty[mode][c] for c in cs]),
        }
    return out


def run(
    store_kind: str, players: int, games: int, check_games: int, clients: int = 4, seed: int = 2026
) -> dict[str, Any]:
    truth = Truth(seed)
    rng = np.random.default_rng(seed)
    people = [Player(i, float(rng.normal(0, 1))) for i in range(players)]
    tmp = Path(tempfile.mkdtemp(prefix="flagcore-sim-"))
    redis = None
    if store_kind == "redis":
        redis, url = start_redis(tmp)
    else:
        url = f"sqlite:///{tmp / 'games.db'}"
    secret = secrets.token_urlsafe(32)
    server, port = start_server(url, secret, ["--ratings", "none"])  # today's model (not the shipped ratings)
    started = time.perf_counter()
    try:
        log = play_many(port, secret, people, games, 1_000_000, truth, clients, rng, None)
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(30)
    store = open_store(url)
    assert store is not None
    try:
        got = read_records(raw.decode() for raw in store.play_records())
    finally:
        store.close()
        if redis is not None:
            redis.terminate()
            redis.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    ratings = fit(got.records)
    skill_of = {x["board"]: x["skill"] for x in log}
    skills = sorted(x["skill"] for x in log)
    lo, hi = skills[len(skills) // 3], skills[2 * len(skills) // 3]
    strong = fit([r for r in got.records if skill_of.get(r.board, 0) >= hi])
    weak = fit([r for r in got.records if skill_of.get(r.board, 0) <= lo])
    robust = {}
    for mode in MODES:
        s, w = strong.categories.get(mode, {}), weak.categories.get(mode, {})
        common = [c for c in s if c in w and s[c].plays >= 30 and w[c].plays >= 30]
        robust[mode] = {
            "categories": len(common),
            "spearman": spearman([s[c].difficulty for c in common], [w[c].difficulty for c in common]),
        }
    model_orders = {m: [x["order"] for x in log if x["mode"] == m] for m in MODES}
    # the same players against a server dealing with the fitted ratings, on a fresh store
    tmp2 = Path(tempfile.mkdtemp(prefix="flagcore-sim-"))
    ratings_file = tmp2 / "ratings.json"
    ratings.save(ratings_file)
    if store_kind == "redis":
        redis, url2 = start_redis(tmp2)
    else:
        redis, url2 = None, f"sqlite:///{tmp2 / 'games.db'}"
    server, port = start_server(url2, secret, ["--ratings", str(ratings_file)])
    try:
        rated_log = play_many(port, secret, people, check_games, 2_000_000, truth, clients, rng, ratings)
    finally:
        server.terminate()
        server.wait(30)
        if redis is not None:
            redis.terminate()
            redis.wait(10)
        shutil.rmtree(tmp2, ignore_errors=True)
    learned_orders = {m: [x["order"] for x in rated_log if x["mode"] == m] for m in MODES}
    return {
        "store": store_kind,
        "players": players,
        "games": games,
        "http_seconds": round(elapsed, 1),
        "records": len(got.records),
        "skipped": got.skipped,
        "won": sum(x["won"] for x in log) / max(len(log), 1),
        "won_learned": sum(x["won"] for x in rated_log) / max(len(rated_log), 1),  # the checked games
        "learned_vs_hidden": learned_vs_hidden(ratings, truth),
        "strong_vs_weak": robust,
        "colours_model": {m: colour_figures(model_orders[m]) for m in MODES},
        "colours_learned": {m: colour_figures(learned_orders[m]) for m in MODES},
        "ratings_digest": ratings.digest,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--check-games", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=4, help="HTTP clients at once (threads)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = run(a.store, a.players, a.games, a.check_games, a.clients)
    print(json.dumps(out, indent=1 if a.json else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
