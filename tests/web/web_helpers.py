"""Helpers shared by the web tests: the answers a test may know (it holds the server secret),
swap logs that solve a Puzzle deal, and a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
from collections import deque
from typing import Any

from flagcore.connections import Board
from flagcore.web.boards import KeyedBoards
from flagcore.web.tokens import Signer

SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"  # 32 base64url characters: 192 bits


def answers(board_id: str, secret: str = SECRET) -> Board:
    """The board behind an id, rebuilt with the server's secret (what no client can do), a daily
    from the schedule keyed by the season key the server derives from it; an id of a server
    dealing with the package's shipped ratings (``flagcore serve``'s default, when the package
    has them: flagcore.ratings.shipped) rebuilt with them."""
    from flagcore.errors import BoardRequestError
    from flagcore.ratings import load_ratings
    from flagcore.ratings.shipped import shipped_ratings
    from flagcore.web.app import derived_season_key

    signer = Signer(secret.encode())
    boards = KeyedBoards(signer, season_key=derived_season_key(signer))
    try:
        return boards.board(*boards.parse_id(board_id))
    except BoardRequestError:
        shipped = shipped_ratings()
        if shipped is None:
            raise
    rated = KeyedBoards(signer, ratings=load_ratings(shipped), season_key=derived_season_key(signer))
    return rated.board(*rated.parse_id(board_id))


def looks_solved(tiles: list[int], classes: list[int]) -> bool:
    return all(classes[p] == classes[s] for s, p in enumerate(tiles))


def greedy_log(start: list[int], classes: list[int]) -> list[list[int]]:
    """A swap log that makes the board look solved, stopping as soon as it does (not optimal)."""
    tiles, log = list(start), []
    for i in range(len(tiles)):
        if looks_solved(tiles, classes):
            break
        if classes[tiles[i]] == classes[i]:
            continue
        # prefer a partner that also gets its own look-alike back (closes a 2-cycle)
        options = [j for j in range(i + 1, len(tiles)) if classes[tiles[j]] == classes[i]]
        j = next((j for j in options if classes[tiles[i]] == classes[j]), options[0])
        tiles[i], tiles[j] = tiles[j], tiles[i]
        log.append([i, j])
    assert looks_solved(tiles, classes)
    return log


def optimal_log(start: list[int], classes: list[int]) -> list[list[int]]:
    """A shortest swap log by breadth-first search (small boards only)."""
    first = tuple(start)
    seen: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int]] | None] = {first: None}
    queue = deque([first])
    n = len(start)
    while queue:
        board = queue.popleft()
        if looks_solved(list(board), classes):
            log = []
            while seen[board] is not None:
                board, move = seen[board]  # type: ignore[misc]
                log.append(list(move))
            return log[::-1]
        for a in range(n):
            for b in range(a + 1, n):
                nxt = list(board)
                nxt[a], nxt[b] = nxt[b], nxt[a]
                key = tuple(nxt)
                if key not in seen:
                    seen[key] = (board, (a, b))
                    queue.append(key)
    raise AssertionError("unsolvable")


def par_log(start: list[int], classes: list[int]) -> list[list[int]]:
    """A shortest swap log of any board: each swap one that takes the engine's exact par one lower
    (one always does). For boards too large for optimal_log's search (a 5x3 daily)."""
    from flagcore.puzzle import min_swaps_to_visual_solve

    tiles, log = list(start), []
    pairs = [(a, b) for a in range(len(tiles)) for b in range(a + 1, len(tiles))]
    left = min_swaps_to_visual_solve(tiles, classes)
    while left:
        for a, b in pairs:
            tiles[a], tiles[b] = tiles[b], tiles[a]
            if min_swaps_to_visual_solve(tiles, classes) == left - 1:
                log.append([a, b])
                left -= 1
                break
            tiles[a], tiles[b] = tiles[b], tiles[a]
    return log


class ServerThread:
    """uvicorn serving ``app`` on 127.0.0.1 (a port the OS picks) in a background thread, with the
    HTTP protocol ``flagcore serve`` runs (flagcore.web.one_write)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from flagcore.web.one_write import OneWriteHttpToolsProtocol

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, http=OneWriteHttpToolsProtocol, log_level="warning", access_log=False, lifespan="off"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
