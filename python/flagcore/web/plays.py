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

A finished Puzzle (a verified result, solved or not) is recorded the same way, in the very step
that keeps its verified result (the store's ``record_verified``: both or neither), with the
counters of its day (a daily) or of its flag on its grid (any other deal): plays, and the solved
games by swaps over par (``over:0`` .. ``over:20``, the last meaning 20 or more), from which
``puzzle_aggregate`` gives the share at par, the median swaps over par and their spread. (A
verified Puzzle is a solved one: the server never learns of a game given up, so there is no
share solved to show.) The field names of both aggregates are the API's (docs/server.md, "The API").
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from .._args.ratings import COLOURS
from ..errors import StoreUnavailable
from ..ratings import PuzzleRecord, record_of_game
from ..store import Store
from ..store.base import Play
from .tokens import Signer

log = logging.getLogger("flagcore.web")
DEFAULT_TTL = 400 * 86400  # seconds a play record is kept (a season and a month)


def play_key(signer: Signer, player: str, board: str) -> str:
    """A play record's write-once key: a keyed hash of the player and the board (names neither)."""
    return signer.derive(b"play|" + player.encode() + b"|" + board.encode(), 16).hex()


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
                play_key(self.signer, player, board_id),
                orjson.dumps(rec.to_dict()),
                counts_key(board_id, day),
                fields,
                self.ttl,
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

    async def today(self, board_id: str, day: str | None) -> dict[str, Any] | None:
        """The aggregate of a board (a finished game reopened), read without blocking the event
        loop; None when the store fails."""
        try:
            return aggregate(await self.store.aplay_counts(counts_key(board_id, day)))
        except StoreUnavailable as exc:
            log.warning("aggregate of %s not read: %s", board_id, exc)
            return None


MAX_OVER_PAR = 20  # the last bucket of the Puzzle's counters: 20 swaps over par or more


def puzzle_counts_key(flag: str, grid: str, day: str | None) -> str:
    """The counter set of a Puzzle: its day's (a daily), else its flag's on its grid."""
    return f"puzzle-day:{day}" if day else f"puzzle:{flag}:{grid}"


def puzzle_play(signer: Signer, player: str, deal: str, record: PuzzleRecord, ttl: int = DEFAULT_TTL) -> Play:
    """A finished Puzzle's play record as ``Store.record_verified`` takes it (``deal``: the deal's
    key, so a deal is recorded once per player): (key, data, counts, fields, ttl)."""
    fields = ["plays"]
    if record.solved and record.swaps_over_par is not None:
        fields.append(f"over:{min(record.swaps_over_par, MAX_OVER_PAR)}")
    counts = puzzle_counts_key(record.flag, record.grid, record.day)
    return play_key(signer, player, deal), orjson.dumps(record.to_dict()), counts, tuple(fields), ttl


def puzzle_aggregate(counts: dict[str, int]) -> dict[str, Any] | None:
    """A Puzzle's counters as the API shows them: ``plays`` (verified games), ``perfect`` (the
    share of them at par), ``median_over_par`` (the lower median of swaps over par; None before
    any solved game) and ``over_par`` (how many games were k swaps over par, k = 0 .. the highest
    seen; the last place of 21 means 20 or more). None before any play."""
    plays = counts.get("plays", 0)
    if plays <= 0:
        return None
    over = [counts.get(f"over:{k}", 0) for k in range(MAX_OVER_PAR + 1)]
    while over and not over[-1]:
        over.pop()
    median, seen, half = None, 0, (sum(over) + 1) // 2
    for k, n in enumerate(over):
        seen += n
        if seen >= half:
            median = k
            break
    return {
        "plays": plays,
        "perfect": round((over[0] if over else 0) / plays, 4),
        "median_over_par": median,
        "over_par": over,
    }
