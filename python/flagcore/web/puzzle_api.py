"""The Puzzle API: deals, verified results and the swap bench.

A deal returns its par and a token that binds the flag, grid, start board and par; ``verify``
replays the client's swap log against it. With a store, a deal's result is recorded once per
(player, flag, grid, seed), and a daily's counts in the player's stats; the player's game on a
deal is kept too (issue 34): ``progress`` keeps the swaps so far, and dealing the same deal again
(a reload, another browser of the player) returns them, or the result once verified. Every store
call is the awaitable one (the event loop never waits for the store; each answers or is 503
``store_unavailable`` within the store's timeout). A verified result keeps its play record in
the same atomic step, and the reply carries the aggregate of the day's Puzzle (or of the flag on
its grid), ``today``, this game included: only once the player finished (flagcore.web.plays).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Coroutine
from functools import cache
from typing import Any

import orjson

from .. import Rng, puzzle
from .._args.web import as_bench_tiles, as_deal_request, as_kept_swaps, as_swap_list, field
from ..days import latest_day_text
from ..errors import ApiError, StoreUnavailable
from ..ratings import PuzzleRecord
from ..season import puzzle_plan
from ..signatures import flag_svg, piece_signatures
from ..store import Store
from . import stats
from .flag_names import FlagNames
from .ops import METRICS
from .players import new_player
from .plays import puzzle_aggregate, puzzle_counts_key, puzzle_play
from .tokens import Signer, SpendHook

log = logging.getLogger("flagcore.web")
_SVG_SIZE = re.compile(rb'viewBox\s*=\s*["\']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)[\s,]+([\d.eE+]+)')


class PuzzleApi:
    """``POST /api/puzzle/deal``, ``/verify`` and ``/cycles`` under one server secret (``signer``)."""

    def __init__(
        self,
        signer: Signer,
        names: FlagNames,
        puzzle_ttl: int,
        on_spend: SpendHook | None,
        store: Store | None,
        season_key: bytes | None = None,
    ) -> None:
        self.signer, self.names, self.puzzle_ttl, self.on_spend, self.store = signer, names, puzzle_ttl, on_spend, store
        self.season_key = season_key  # the dailies' schedule (season.puzzle_plan's key; None: the public one)

    def deal(
        self, body: dict[str, Any], player: str | None = None
    ) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
        """A shuffled board with a signed token binding flag, grid, start and par;
        ``{"daily": "YYYY-MM-DD"}`` deals that day's Puzzle (the reply says the day)."""
        asked = as_deal_request(body, self.names.codes, latest_day_text())
        if asked.daily is not None:  # the deal of puzzle.daily
            plan = puzzle_plan(asked.daily, self.season_key)
            reply = {**self._deal(*plan, player, asked.daily), "daily": asked.daily}
        else:
            seed = asked.seed if asked.seed is not None else secrets.randbelow(1 << 32)
            flag = asked.flag
            if flag is None:
                flag = self.names.sorted_codes[Rng(f"flag|{seed}").below(len(self.names.sorted_codes))]
            reply = self._deal(flag, asked.grid, seed, player)
        if self.store is not None and player is not None:
            if new_player.get():  # a player this request made (no cookie yet) has no game: no store call
                reply["kept"] = True
                return reply
            return self._with_game(reply, player, asked.daily)
        return reply

    async def _with_game(self, reply: dict[str, Any], player: str, day: str | None) -> dict[str, Any]:
        """The player's game on a deal where it is: its verified result ("result", with the
        aggregate "today"), else the swaps kept so far ("swaps", when there are some); "kept": the
        page sends its swaps to ``progress``. The result and the game in one batch; the counters
        after, only for a finished deal."""
        assert self.store is not None  # only called with a store (deal)
        reply["kept"] = True
        grid = reply["grid"]
        deal = (reply["flag"], grid["columns"], grid["rows"], reply["seed"])
        done, record = await asyncio.gather(
            self.store.aresult(_deal_key(player, *deal)), self.store.aload_game(player, _game_key(*deal))
        )
        if done is not None:
            result = orjson.loads(done)
            del result["jti"]
            reply["result"] = result
            counts = await self._counts(
                puzzle_counts_key(reply["flag"], _grid_text(grid["columns"], grid["rows"]), day)
            )
            reply["today"] = puzzle_aggregate(counts) if counts is not None else None
        elif record is not None:
            reply["swaps"] = orjson.loads(record.data)
        return reply

    async def _counts(self, key: str) -> dict[str, int] | None:
        """A Puzzle's counters; None when the store fails (the reply goes without the aggregate)."""
        assert self.store is not None  # only called with a store
        try:
            return await self.store.aplay_counts(key)
        except StoreUnavailable as exc:
            log.warning("aggregate %s not read: %s", key, exc)
            return None

    def progress(self, body: dict[str, Any]) -> Coroutine[Any, Any, dict[str, Any]]:
        """Keep the swaps so far of the token's deal for its player (the latest log wins: a page
        sends its whole log after each swap); 409 once the deal has a verified result."""
        claim = self.signer.check("puzzle", field(body, "token", str))
        swaps = as_kept_swaps(field(body, "swaps", list), len(claim["st"]))
        if self.store is None or "u" not in claim:
            raise ApiError(409, "not_kept", "this server keeps no Puzzle games (no store): the page keeps the swaps")
        return self._keep(claim, swaps)

    async def _keep(self, claim: dict[str, Any], swaps: list[Any]) -> dict[str, Any]:
        """``progress`` with a store: compare-and-set on the kept game's version."""
        assert self.store is not None  # only called with a store (progress)
        player, deal = claim["u"], (claim["f"], claim["c"], claim["r"], claim["s"])
        key, data = _game_key(*deal), orjson.dumps(swaps)
        done, record = await asyncio.gather(
            self.store.aresult(_deal_key(player, *deal)), self.store.aload_game(player, key)
        )
        if done is not None:
            raise ApiError(409, "already_verified", "this Puzzle deal already has a verified result (one per player)")
        for _ in range(3):  # read the version, write on it; another tab's write meanwhile: read again
            if await self.store.asave_game(player, key, record.version if record else 0, data, self.puzzle_ttl):
                return {"swaps": len(swaps)}
            record = await self.store.aload_game(player, key)
        raise ApiError(409, "stale_token", "this game is being played in another tab: reload it")

    def _deal(
        self, flag: str, grid_key: str, seed: int | str, player: str | None, day: str | None = None
    ) -> dict[str, Any]:
        columns, rows = puzzle.GRIDS[grid_key]
        # by code: the engine caches each flag's signatures on each grid; ParSearchLimit: no_deal (routes.py)
        game = puzzle.new_game(flag, (columns, rows), seed=seed)
        start = list(game.start)
        claim: dict[str, Any] = {"f": flag, "c": columns, "r": rows, "st": start, "p": game.par}
        if player is not None:  # with a store: one verified result per (player, flag, grid, seed)
            claim.update(u=player, s=seed)
            if day is not None:  # a daily's deal: its result counts in the player's stats
                claim["d"] = day
        token = self.signer.sign("puzzle", claim, self.puzzle_ttl)
        METRICS.count("games_started", "puzzle")
        return {
            "flag": flag,
            "name": self.names.name(flag),
            "seed": seed,
            "grid": {"name": grid_key, "columns": columns, "rows": rows},
            "tiles_by_slot": start,
            "classes": _signatures(flag, columns, rows)[1],
            "positions": _positions(columns, rows),
            "aspect": _aspect(flag),
            "par": game.par,  # shown before the first swap; the token binds it
            "token": token,
        }

    def verify(
        self, body: dict[str, Any], player: str | None = None
    ) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
        """Replay a swap log against a deal's token; the verified result."""
        claim = self.signer.check("puzzle", field(body, "token", str))
        swaps = as_swap_list(field(body, "swaps", list))
        sigs, _ = _signatures(claim["f"], claim["c"], claim["r"])
        # the engine reads a JSON list of [a, b] lists directly, checks included; a log it refuses
        # is malformed (400) or rejected (422): _args.web.refused_swap_log, named in routes.py
        result = puzzle.verify(claim["st"], swaps, sigs)
        if result.min_possible != claim["p"]:  # the engine's par changed since the deal
            raise ApiError(409, "stale_token", "this board's par has changed since the deal; deal again")
        if self.on_spend is not None and not self.on_spend("puzzle", claim["jti"], claim["exp"]):
            raise ApiError(409, "token_used", "this Puzzle result was already verified")
        verified = {
            "swaps": result.swaps,
            "par": result.min_possible,
            "over_par": result.swaps_over_min,
            "perfect": result.perfect,
            "solved": result.solved,
            "flag": claim["f"],
        }
        if self.store is not None and "u" in claim:
            return self._record(claim, verified)
        _count_verified(verified)
        return verified

    async def _record(self, claim: dict[str, Any], verified: dict[str, Any]) -> dict[str, Any]:
        """Keep a verified result: a token verifies once, and a deal (the same seed dealt again:
        another token) has one result per player; a daily's counts in the player's stats. The
        token's spend, both results and the play record are one atomic step (the store's
        ``record_verified``): a store failing midway records none, and the client told 503 may
        verify again. The counters of the aggregate are read in the same batch."""
        assert self.store is not None  # only called with a store (verify)
        deal_key = _deal_key(claim["u"], claim["f"], claim["c"], claim["r"], claim["s"])
        mine = orjson.dumps({"jti": claim["jti"], **verified})
        result = None
        day = claim.get("d")
        if day is not None and stats.counts(day):
            entry = stats.result_data(verified["solved"], verified["over_par"])
            result = (stats.result_key("puzzle", day), entry)
        player = claim["u"] if result is not None else None
        over = verified["over_par"] if verified["solved"] else None
        record = PuzzleRecord(claim["f"], _grid_text(claim["c"], claim["r"]), over, verified["solved"], day)
        play = puzzle_play(self.signer, claim["u"], deal_key, record)
        # one batch, the counters read first (before the record, even when Redis must be sent the
        # script again after the batch), then this game's own counts added to them
        counts, kept = await asyncio.gather(
            self._counts(play[2]),
            self.store.arecord_verified("puzzle", claim["jti"], claim["exp"], deal_key, mine, player, result, play),
        )
        if not kept:
            raise ApiError(409, "already_verified", "this Puzzle deal already has a verified result (one per player)")
        _count_verified(verified)
        if counts is not None:
            for f in play[3]:
                counts[f] = counts.get(f, 0) + 1
        return {**verified, "today": puzzle_aggregate(counts) if counts is not None else None}

    def cycles(self, body: dict[str, Any]) -> dict[str, Any]:
        """The swap bench's cycles, min swaps and each slot's cycle."""
        tiles = as_bench_tiles(field(body, "tiles_by_slot", list))
        cycle_of = [-1] * len(tiles)
        count = 0
        for start in range(len(tiles)):
            if cycle_of[start] < 0:
                slot = start
                while cycle_of[slot] < 0:
                    cycle_of[slot] = count
                    slot = tiles[slot]
                count += 1
        cycles = puzzle.count_cycles(tiles)  # the engine's count; the labels above only colour the bench
        return {
            "cycles": cycles,
            "min_swaps": puzzle.min_swaps_to_identity(tiles),
            "cycle_of": cycle_of,
            "solved": puzzle.is_strictly_solved(tiles),
        }


def _grid_text(columns: int, rows: int) -> str:
    """A grid as play records name it: 'CxR'."""
    return f"{columns}x{rows}"


def _deal_key(player: str, flag: str, columns: int, rows: int, seed: int | str) -> str:
    """The store key of a player's verified result on a deal (one per player and deal)."""
    return orjson.dumps(["puzzle", player, flag, columns, rows, seed]).decode()


def _game_key(flag: str, columns: int, rows: int, seed: int | str) -> str:
    """The store's board key of a player's game in progress on a deal."""
    return orjson.dumps(["puzzle", flag, columns, rows, seed]).decode()


@cache
def _signatures(flag: str, columns: int, rows: int) -> tuple[tuple[int, ...] | None, list[int]]:
    """A bundled flag's tile signatures (None: every tile distinct) and each piece's look-alike
    class, numbered by first appearance."""
    sigs = piece_signatures(flag, columns, rows)
    if sigs is None:
        return None, list(range(columns * rows))
    seen: dict[int, int] = {}
    return tuple(int(s) for s in sigs), [seen.setdefault(s, len(seen)) for s in sigs]


@cache
def _positions(columns: int, rows: int) -> list[list[str]]:
    """CSS background-position of each piece: the spec's background_percent of its column and row."""
    return [
        [puzzle.background_percent(i % columns, columns), puzzle.background_percent(i // columns, rows)]
        for i in range(columns * rows)
    ]


@cache
def _aspect(code: str) -> float:
    """Width / height of a bundled flag's artwork (its viewBox), for sizing the Puzzle board."""
    match = _SVG_SIZE.search(flag_svg(code)[:4096])
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        if w > 0 and h > 0:
            return round(w / h, 4)
    return 1.5


def _count_verified(verified: dict[str, Any]) -> None:
    METRICS.count("games_finished", "puzzle")
    if verified["solved"]:
        METRICS.count("games_won", "puzzle")
