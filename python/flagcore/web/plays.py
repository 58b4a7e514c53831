"""Play records on a server with a store (docs/ratings.md), and the day's aggregate of a board.

Each finished Connections game is recorded once, anonymously: the record names the board, never
the player; its key is a keyed hash (HMAC under the server secret) of the player and the board, so
a game recorded twice (a retried request, another worker) is written once, and no one without the
secret can tell whose game it was. The same atomic step bumps the board's counters for the day:
plays, wins, which colour was found first and last. The aggregate of those counters is what a
player sees after finishing ("62% solved today's board; purple found last by 71%"): the API's
``today`` field, only in a finished game's reply.

Cost: the record is written in the same atomic step as the finishing guess's save (the store's
``save_game(..., play=...)``: both or neither, one commit or one script), and the board's
counters are read in the same store batch, just before it; the reply adds the game's own counts.
A store that fails fails the guess (503, nothing written: the client sends it again), as a save
does; counters that could not be read leave ``today`` out.

A finished Puzzle (a verified result) is recorded the same way, in the very step that keeps its
verified result (the store's ``record_verified``: both or neither), with the counters of its day
(a daily) or of its flag on its grid (any other deal): plays, and the solved games by swaps over
par (``over:0`` .. ``over:20``, the last meaning 20 or more), from which ``puzzle_aggregate``
gives the share at par, the median swaps over par and their spread. (A verified Puzzle is a
solved one: the server never learns of a game given up, so there is no share solved to show.)
The field names of both aggregates are the API's (docs/server.md, "The API").
"""

from __future__ import annotations

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

    def play(self, game: Any, board_id: str, player: str, day: str | None, difficulty: Any) -> Play:
        """A finished game's play record as ``Store.save_game`` takes it with the finishing save
        (key, data, counts, fields, ttl): written once per player and board, with the save."""
        rec = record_of_game(game, board_id, day, difficulty)
        fields = ["plays"]
        if rec.won:  # the order of a won game: which colour came first and last
            fields += ["won", f"first:{COLOURS[rec.solved_at.index(1)]}", f"last:{COLOURS[rec.solved_at.index(4)]}"]
        key = play_key(self.signer, player, board_id)
        return key, orjson.dumps(rec.to_dict()), counts_key(board_id, day), tuple(fields), self.ttl

    async def counts(self, key: str) -> dict[str, int] | None:
        """The counter set ``key``; None when the store fails (the reply goes without ``today``)."""
        try:
            return await self.store.aplay_counts(key)
        except StoreUnavailable as exc:
            log.warning("aggregate %s not read: %s", key, exc)
            return None

    @staticmethod
    def with_own(counts: dict[str, int] | None, play: Play) -> dict[str, int] | None:
        """Counters read before the play was recorded, with the play's own counts added."""
        if counts is None:
            return None
        seen = dict(counts)
        for f in play[3]:
            seen[f] = seen.get(f, 0) + 1
        return seen

    async def today(self, board_id: str, day: str | None) -> dict[str, Any] | None:
        """The aggregate of a board (a finished game reopened); None when the store fails."""
        counts = await self.counts(counts_key(board_id, day))
        return None if counts is None else aggregate(counts)


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
