"""Play records on a server with a store (docs/ratings.md), and the day's aggregate of a board.

Each finished Connections game is recorded once, anonymously: the record names the board, never
the player; its key is a keyed hash (HMAC under the server secret) of the player and the board, so
a game recorded twice (a retried request, another worker) is written once, and no one without the
secret can tell whose game it was. The same atomic step bumps the board's counters for the day:
plays, wins, which colour was found first and last. The aggregate of those counters is what a
player sees after finishing ("62% solved today's board; purple found last by 71%"): the API's
``today`` field, only in a finished game's reply.

Cost: the finishing guess reads the board's counters in the same batch as its save, and the
record is written in the next batch, after the reply (nothing more for the player to wait for).
A store that fails while recording costs the record, never the guess: the guess is saved
already, the failure is logged and counted (``Plays.failed``), and the reply goes without
``today`` when the counters could not be read.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from .._args.ratings import COLOURS
from ..errors import StoreUnavailable
from ..ratings import record_of_game
from ..store import Store
from .tokens import Signer

log = logging.getLogger("flagcore.web")
DEFAULT_TTL = 400 * 86400  # seconds a play record is kept (a season and a month)


def counts_key(board_id: str, day: str | None) -> str:
    """The counter set of a board on a day (a daily) or of a board (a random seed's)."""
    return f"day:{day}:{board_id}" if day else f"board:{board_id}"


def aggregate(counts: dict[str, int]) -> dict[str, Any] | None:
    """The counters as the API shows them: plays, the share won, and per colour the share of the
    won games that found it first and last (None before any play)."""
    plays = counts.get("plays", 0)
    if plays <= 0:
        return None
    won = counts.get("won", 0)
    return {
        "plays": plays,
        "won": round(won / plays, 4),
        "found_first": {c: round(counts.get(f"first:{c}", 0) / max(won, 1), 4) for c in COLOURS},
        "found_last": {c: round(counts.get(f"last:{c}", 0) / max(won, 1), 4) for c in COLOURS},
    }


class Plays:
    """What a server with a store does at the end of each Connections game."""

    def __init__(self, store: Store, signer: Signer, ttl: int = DEFAULT_TTL) -> None:
        self.store, self.signer, self.ttl = store, signer, ttl
        self.recorded = 0  # this process's records written
        self.failed = 0  # records lost to a failing store (the guesses themselves were saved)
        self._writing: set[asyncio.Task[bool]] = set()  # records on their way (a task needs a reference)

    def _key(self, player: str, board_id: str) -> str:
        return self.signer.derive(b"play|" + player.encode() + b"|" + board_id.encode(), 16).hex()

    def _fields(self, solved_at: tuple[int, ...], won: bool) -> tuple[str, ...]:
        fields = ["plays"]
        if won:  # the order of a won game: which colour came first and last
            fields += ["won", f"first:{COLOURS[solved_at.index(1)]}", f"last:{COLOURS[solved_at.index(4)]}"]
        return tuple(fields)

    def counts(self, board_id: str, day: str | None) -> asyncio.Task[dict[str, int]]:
        """Start reading the board's counters, to go in the batch of the finishing guess's save."""
        return asyncio.ensure_future(self.store.aplay_counts(counts_key(board_id, day)))

    async def finished(
        self,
        counts: asyncio.Task[dict[str, int]],
        game: Any,
        board_id: str,
        player: str,
        day: str | None,
        difficulty: Any,
    ) -> dict[str, Any] | None:
        """The day's aggregate of a finished game's board, this game included (the counters read
        with its save, plus its own), and its play record written after the reply, in the next
        batch (once per player and board: the finishing save itself happens once). None when the
        store failed."""
        rec = record_of_game(game, board_id, day, difficulty)
        fields = self._fields(rec.solved_at, rec.won)
        write = asyncio.ensure_future(
            self.store.arecord_play(
                self._key(player, board_id), orjson.dumps(rec.to_dict()), counts_key(board_id, day), fields, self.ttl
            )
        )
        self._writing.add(write)
        write.add_done_callback(self._written)
        try:
            seen = dict(await counts)
        except StoreUnavailable as exc:
            log.warning("aggregate of %s not read: %s", board_id, exc)
            return None
        for f in fields:
            seen[f] = seen.get(f, 0) + 1
        return aggregate(seen)

    def _written(self, task: asyncio.Task[bool]) -> None:
        self._writing.discard(task)
        if task.cancelled():
            self.failed += 1
            return
        exc = task.exception()
        if exc is not None:
            self.failed += 1
            log.warning("play record not kept: %s", exc)
        else:
            self.recorded += bool(task.result())

    def today(self, board_id: str, day: str | None) -> dict[str, Any] | None:
        """The aggregate of a board (a finished game reopened); None when the store fails."""
        try:
            return aggregate(self.store.play_counts(counts_key(board_id, day)))
        except StoreUnavailable as exc:
            log.warning("aggregate of %s not read: %s", board_id, exc)
            return None
