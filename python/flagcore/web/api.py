"""The JSON API: Connections boards and guesses, Puzzle deals and verified results, flag artwork.

Two ways to keep a game, chosen by the app's store (flagcore.store):

- **stateless** (no store): a Connections game travels as a signed token holding the board's game
  number and mode and the guesses graded so far; each guess replays them through
  ``ConnectionsGame`` (at most seven, microseconds) and returns a new token. Nothing is binding:
  any kept token replays the game from its point, and a Puzzle deal can be verified again.
- **bound** (a store): each player (flagcore.web.players) has one game per board, kept in the
  store. The token names the player, the board and the game's version; a guess is recorded only
  if the stored game is still at that version (compare-and-set), so a replayed or older token
  gets 409 ``stale_token``, reopening the board returns the game where it is, and a finished
  game stays finished. A Puzzle deal's result is recorded once per (player, flag, grid, seed).
  The day's board is published to the store the first time it is served, and read from there
  after, so an upgrade never changes a board players have seen.

A new game's token is its board id, spelt exactly as the server wrote it. A Puzzle deal returns a
token that binds the flag, grid, start board and par; ``verify`` replays the client's swap log
against it. Every error is a JSON body ``{"error": {"code", "message"}}`` with a 4xx status (503
when the store does not answer).
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Coroutine
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache
from typing import Any

import orjson

from .. import Rng, days, puzzle
from .._args.web import (
    as_bench_tiles,
    as_daily_deal,
    as_difficulty_query,
    as_flag_switch,
    as_guess_codes,
    as_request_seed,
    as_swap_list,
    field,
)
from ..connections import MAX_MISTAKES, Board, ConnectionsGame, Group
from ..errors import ApiError, BoardRequestError, TokenError
from ..library import Library, flag_name
from ..season import puzzle_plan
from ..signatures import bundled_codes, flag_svg, piece_signatures
from ..store import Store
from . import stats
from .boards import ID_LENGTH, Dealt, KeyedBoards, check_mode, daily_number, game_number
from .jsonapi import Endpoint, PatternRoute, Reply
from .openapi import SPEC
from .routes import ROUTES
from .tokens import Signer, SpendHook
from .trace import simulate

# the handlers that know the player (with a store: games bound to a player, the player's stats)
PLAYER_HANDLERS = frozenset({"board", "guess", "deal", "verify", "player_stats"})
STALE = (
    "this guess token was already used, or the game has moved on since it was issued "
    "(another tab or device): reload the board to continue the game where it is"
)
WEB_GRIDS = ("easy", "medium", "hard")  # the game's grids; their signatures are precomputed
_SVG_SIZE = re.compile(rb'viewBox\s*=\s*["\']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)[\s,]+([\d.eE+]+)')


class Prepared:
    """What the API keeps with each dealt board (``Dealt.extra``): the board reply in two encoded
    halves around its "daily" value and, from the first guess on, a new game to copy and the
    groups as JSON objects (most boards of random seeds are never guessed: these wait)."""

    def __init__(self, head: bytes, tail: bytes) -> None:
        self.head, self.tail = head, tail
        self._grading: tuple[ConnectionsGame, tuple[dict[str, Any], ...]] | None = None

    def grading(self, board: Board) -> tuple[ConnectionsGame, tuple[dict[str, Any], ...]]:
        """A new game on ``board`` (copy it before guessing) and its groups by tier as JSON objects."""
        if self._grading is None:  # two threads may both build it: the same value, either is kept
            self._grading = (ConnectionsGame(board), tuple(_group(g) for g in board.groups))
        return self._grading


def _group(g: Group) -> dict[str, Any]:
    return {"tier": g.tier, "tier_name": g.tier_name, "label": g.label, "codes": list(g.codes)}


@dataclass
class Api:
    """The API's handlers under one server secret; ``endpoints()`` and ``patterns()`` route them.

    Handlers are plain functions: a GET handler takes the query string as a dict, a POST handler
    the JSON body object; each returns a JSON value or a Reply, or raises an exception that
    flagcore.web.jsonapi sends as a JSON error (ApiError, TokenError, BoardRequestError, ...).
    """

    signer: Signer
    library: Library
    token_ttl: int
    puzzle_ttl: int
    on_spend: SpendHook | None
    store: Store | None = None
    private_library: bool = False  # boards are dealt from ``library``, not the bundled one
    # boards read from the store's published boards, by (game number, mode, secret): never change
    _published: dict[tuple[int, str, int], Dealt] = dataclass_field(default_factory=dict)
    # the day of each daily's game number from days.EPOCH to _daily_until: only these can be published
    _daily_days: dict[int, str] = dataclass_field(default_factory=dict)
    _daily_until: datetime.date = days.EPOCH - datetime.timedelta(days=1)

    def __post_init__(self) -> None:
        self.boards = KeyedBoards(self.signer, self._prepare, library=self.library if self.private_library else None)
        self.flag_codes = frozenset(bundled_codes())
        self._random_flags = sorted(self.flag_codes)
        self.names = {code: self.library.name(code) for code in self.library.codes}
        # each tile's JSON object, encoded once: a board reply is these joined
        self._tile_json = {
            code: orjson.dumps({"code": code, "name": self._name(code)}) for code in self.flag_codes | set(self.names)
        }
        # replies that never change, encoded once
        self._flags_reply = Reply(
            orjson.dumps([{"code": c, "name": self._name(c)} for c in self._random_flags]),
            headers=((b"cache-control", b"public, max-age=3600"),),
        )
        self._openapi_reply = Reply(orjson.dumps(SPEC))

    def endpoints(self) -> dict[str, Endpoint]:
        """Every route of the table (flagcore.web.routes) with an exact path."""
        return {
            r.path: Endpoint(r.method, getattr(self, r.handler), r.refuses, r.handler in PLAYER_HANDLERS)
            for r in ROUTES
            if "{" not in r.path
        }

    def patterns(self) -> list[PatternRoute]:
        """The table's routes with a parameter in the path, as (prefix, suffix, handler): ``/flags/{code}.svg``."""
        return [
            (r.path[: r.path.index("{")], r.path[r.path.index("}") + 1 :], getattr(self, r.handler))
            for r in ROUTES
            if "{" in r.path
        ]

    def _name(self, code: str) -> str:
        # the library's name first (a private library may rename), else the bundled artwork's name
        return self.names.get(code) or flag_name(code)

    # ------------------------------------------------------------ Connections

    def board(self, query: dict[str, str], player: str | None = None) -> Reply | dict[str, Any]:
        """``GET /api/connections/board``: a keyed board by seed, daily date or id (tiles only); with
        a store, the player's game on it where it is."""
        chosen = [k for k in ("seed", "daily", "id") if k in query]
        if len(chosen) > 1:
            raise ApiError(400, "bad_request", f"give at most one of seed, daily, id (got {chosen})")
        daily = None
        key = 0
        if "id" in query:
            if "mode" in query:
                raise BoardRequestError("mode comes from the board id; do not pass both")
            number, mode, key = self.boards.parse_id(query["id"])
        else:
            mode = check_mode(query.get("mode", "flags"))
            if "daily" in query:
                daily = query["daily"]
                number = daily_number(daily)
                _check_not_future(daily)
            elif "seed" in query:
                number = game_number(as_request_seed(query["seed"]))
            else:
                number = secrets.randbelow(1 << 32)
        dealt = self._dealt(number, mode, key, publish=daily is not None)
        if self.store is not None and player is not None:
            record = self.store.load_game(player, dealt.board_id)
            if record is not None:  # the game in progress (or finished), exactly where it is
                guesses = orjson.loads(record.data)
                return self._game_state(dealt, guesses, number, mode, key, player, record.version, daily)
        prepared: Prepared = dealt.extra
        return Reply(prepared.head + orjson.dumps(daily) + prepared.tail)

    def _dealt(self, number: int, mode: str, key: int, publish: bool = False) -> Dealt:
        """The board of (number, mode, secret): its published version when the store has one
        (``publish``: publishing this one if there is none yet, the first writer winning)."""
        dealt = self.boards.dealt(number, mode, key)
        if self.store is None:
            return dealt
        known = self._published.get((number, mode, key))
        if known is not None:
            return known
        if not publish and not self._may_be_published(number):
            return dealt  # a board of a seed or an id: never a day's board, so never published
        mine = orjson.dumps(_board_json(dealt.board))
        data = self.store.publish_board(dealt.board_id, mine) if publish else self.store.published_board(dealt.board_id)
        if data is None:
            return dealt  # not published: a board of a seed or an id, never served as a daily
        if data != mine:  # published by another version of flagcore or of the library: that one stays
            board = _board_from_json(orjson.loads(data), dealt.board_id)
            dealt = Dealt(board, dealt.board_id, self._prepare(board, dealt.board_id))
        self._published[(number, mode, key)] = dealt
        return dealt

    def _may_be_published(self, number: int) -> bool:
        """Whether ``number`` is the game number of a daily board so far (only those are published)."""
        return self._daily_day(number) is not None

    def _daily_day(self, number: int) -> str | None:
        """The day (YYYY-MM-DD) whose daily board has game number ``number``, among the days so far."""
        latest = days.latest_day()
        while self._daily_until < latest:
            self._daily_until += datetime.timedelta(days=1)
            day = self._daily_until.isoformat()
            self._daily_days[daily_number(day)] = day
        return self._daily_days.get(number)

    def _game_state(
        self,
        dealt: Dealt,
        guesses: list[list[str]],
        number: int,
        mode: str,
        key: int,
        player: str,
        version: int,
        daily: str | None,
    ) -> dict[str, Any]:
        """A stored game as the board request returns it: the tiles left, the groups solved, the
        mistakes, and a token for its next guess."""
        new_game, groups = dealt.extra.grading(dealt.board)
        game = new_game.copy()
        for earlier in guesses:
            game.guess(earlier)
        reply: dict[str, Any] = {
            "board_id": dealt.board_id,
            "mode": mode,
            "daily": daily,
            "tiles": [orjson.Fragment(self._tile_json[c]) for c in game.remaining_tiles],
            "mistakes": game.mistakes,
            "mistakes_left": game.mistakes_left,
            "solved": [groups[g.tier] for g in game.solved_groups],
            "over": game.over,
            "token": self._bound_token(number, mode, key, player, version, guesses),
        }
        if game.over:
            reply.update(won=game.won, lost=game.lost, groups=list(groups), share=_share_text(game, dealt.board_id))
        return reply

    def _bound_token(
        self, number: int, mode: str, key: int, player: str, version: int, guesses: list[list[str]]
    ) -> str:
        """The token of a stored game: its board, player, version and guesses (the version and
        guesses are what the next guess's compare-and-set expects)."""
        payload: dict[str, Any] = {"n": number, "m": mode, "u": player, "v": version, "g": guesses}
        if key:  # a board of an old secret (rotation): name it, since the new secret signs the token
            payload["bk"] = self.signer.kid(key)
        return self.signer.sign("connections", payload, self.token_ttl)

    def _prepare(self, board: Board, board_id: str) -> Prepared:
        """A dealt board's reply, encoded once in two halves around its "daily" value."""
        tiles = b",".join([self._tile_json[c] for c in board.tiles])
        quoted_id = b'"' + board_id.encode("ascii") + b'"'  # 13 letters and digits: nothing to escape
        return Prepared(
            b'{"board_id":' + quoted_id + b',"mode":"' + board.mode.encode("ascii") + b'","daily":',
            b',"tiles":['
            + tiles
            + b'],"mistakes":0,"mistakes_left":%d,"solved":[],"over":false,"token":' % MAX_MISTAKES
            + quoted_id
            + b"}",
        )

    def guess(
        self, body: dict[str, Any], player: str | None = None
    ) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
        """``POST /api/connections/guess``: grade four codes against the game in the token (with a
        store: the player's stored game, at the token's version; the reply then waits for the
        store's write, see ``_bound_guess``)."""
        token = field(body, "token", str)
        codes = as_guess_codes(field(body, "codes", list))
        version = 0
        if len(token) == ID_LENGTH:  # a new game: its token is the board id
            number, mode, key = self.boards.parse_token_id(token)
            past: list[list[str]] = []
        else:  # the token names the board by game number and mode (signed, so no id tag to check)
            state = self.signer.check("connections", token)
            number, mode, past = state["n"], state["m"], state["g"]
            key = self._board_key(state)
            if self.store is not None:
                if "u" not in state:
                    raise TokenError("token is of a stateless game; this server keeps games: reload the board")
                player, version = state["u"], state["v"]
        dealt: Dealt = self._dealt(number, mode, key)
        new_game, groups = dealt.extra.grading(dealt.board)
        game = new_game.copy()
        for earlier in past:  # signed by this server: every one was a legal guess
            game.guess(earlier)
        if game.over:
            raise ApiError(409, "game_over", "the game is over; start a new one")
        outcome = game.guess(codes)  # codes not on the board or already solved: bad_guess (routes.py)
        guesses = [list(g) for g in game.guesses]
        reply: dict[str, Any] = {
            "result": outcome.result,
            "group": groups[outcome.matched.tier] if outcome.matched else None,
            "solved": [groups[g.tier] for g in game.solved_groups],
            "mistakes": outcome.mistakes,
            "mistakes_left": outcome.mistakes_left,
            "won": outcome.won,
            "lost": outcome.lost,
            "over": outcome.over,
            "token": None,
        }
        if outcome.over:  # the answers are earned once the game ends, won or lost
            reply["groups"] = list(groups)
            reply["share"] = _share_text(game, dealt.board_id)
        if self.store is not None and player is not None:
            return self._bound_guess(reply, dealt, number, mode, key, player, version, past, guesses)
        payload: dict[str, Any] = {"n": number, "m": mode, "g": guesses}
        if key:
            payload["bk"] = self.signer.kid(key)
        reply["token"] = self.signer.sign("connections", payload, self.token_ttl)
        return reply

    async def _bound_guess(
        self,
        reply: dict[str, Any],
        dealt: Dealt,
        number: int,
        mode: str,
        key: int,
        player: str,
        version: int,
        past: list[list[str]],
        guesses: list[list[str]],
    ) -> dict[str, Any]:
        """Record a graded guess in the player's stored game, then answer it. Written only if the
        stored game is exactly the token's (its version and guesses, so no read first): a replayed
        or older token, or a guess recorded meanwhile, finds another game and gets 409. The write
        waits for the end of the event loop's turn and goes with the other requests' (the store's
        ``save_game_batched``): the loop stops for the store once per turn, not once per guess."""
        assert self.store is not None  # only called with a store (guess)
        previous = orjson.dumps(past) if version else None
        data = orjson.dumps(guesses)
        if not await self.store.save_game_batched(player, dealt.board_id, version, data, self.token_ttl, previous):
            raise ApiError(409, "stale_token", STALE)
        reply["token"] = self._bound_token(number, mode, key, player, version + 1, guesses)
        day = self._daily_day(number) if reply["over"] else None
        if day is not None and stats.counts(day):  # a daily's end: the player's stats (once per day)
            entry = stats.result_data(reply["won"], reply["mistakes"])
            self.store.record_player_result(player, stats.result_key(stats.connections_game(mode), day), entry)
        return reply

    def _board_key(self, state: dict[str, Any]) -> int:
        """The secret a token's board is keyed under: the one named by "bk", else the token's own."""
        if "bk" not in state:
            return int(state["key"])
        key = self.signer.key_of(state["bk"])
        if key is None:
            raise TokenError("token's board was made under a secret this server no longer has; start a new game")
        return key

    def trace(self, query: dict[str, str]) -> dict[str, Any]:
        """``GET /api/connections/trace``: the search simulator's steps for an engine seed."""
        mode = check_mode(query.get("mode", "flags"))
        legacy = as_flag_switch(query.get("legacy", "false"), "legacy")
        seed = as_request_seed(query.get("seed", "12"))
        # the simulator shows the search alone unless asked for a difficulty (docs/difficulty.md)
        difficulty = as_difficulty_query(query["difficulty"]) if "difficulty" in query else None
        return simulate(seed, mode, legacy, self.library, difficulty)

    # ------------------------------------------------------------ Puzzle

    def deal(self, body: dict[str, Any], player: str | None = None) -> dict[str, Any]:
        """``POST /api/puzzle/deal``: a shuffled board with a signed token binding flag, grid, start and par;
        ``{"daily": "YYYY-MM-DD"}`` deals that day's Puzzle (the reply says the day)."""
        day = as_daily_deal(body)
        if day is not None:
            _check_not_future(day)
            return {**self._deal(*puzzle_plan(day), player, day), "daily": day}  # the deal of puzzle.daily
        grid_name = field(body, "grid", str, required=False) or "hard"
        grid_key = puzzle.GRID_ALIASES.get(grid_name.strip().lower(), grid_name.strip().lower())
        if grid_key not in WEB_GRIDS:
            raise ApiError(400, "bad_grid", "grid must be one of easy, medium, hard (or regular, pro, elite)")
        raw_seed = body.get("seed")
        seed = as_request_seed(raw_seed) if raw_seed is not None else secrets.randbelow(1 << 32)
        flag = field(body, "flag", str, required=False)
        if flag is None or flag.lower() == "random":
            flag = self._random_flags[Rng(f"flag|{seed}").below(len(self._random_flags))]
        else:
            # ASCII only before upper(): "ﬁ".upper() is "FI" (a code is matched exactly, never folded)
            flag = flag.strip().upper() if flag.isascii() else flag
            if flag not in self.flag_codes:
                raise ApiError(400, "unknown_flag", f"flag {flag[:12]!r} is not a bundled flag")
        return self._deal(flag, grid_key, seed, player)

    def _deal(
        self, flag: str, grid_key: str, seed: int | str, player: str | None, day: str | None = None
    ) -> dict[str, Any]:
        columns, rows = puzzle.GRIDS[grid_key]
        # by code: the engine caches each flag's signatures on each grid; ParSearchLimit: no_deal (routes.py)
        game = puzzle.new_game(flag, grid_key, seed=seed)
        start = list(game.start)
        claim: dict[str, Any] = {"f": flag, "c": columns, "r": rows, "st": start, "p": game.par}
        if player is not None:  # with a store: one verified result per (player, flag, grid, seed)
            claim.update(u=player, s=seed)
            if day is not None:  # a daily's deal: its result counts in the player's stats
                claim["d"] = day
        token = self.signer.sign("puzzle", claim, self.puzzle_ttl)
        return {
            "flag": flag,
            "name": self._name(flag),
            "seed": seed,
            "grid": {"name": grid_key, "columns": columns, "rows": rows},
            "tiles_by_slot": start,
            "classes": _signatures(flag, columns, rows)[1],
            "positions": _positions(columns, rows),
            "aspect": _aspect(flag),
            "token": token,
        }

    def verify(self, body: dict[str, Any], player: str | None = None) -> dict[str, Any]:
        """``POST /api/puzzle/verify``: replay a swap log against a deal's token; the verified result."""
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
            # a token verifies once; a deal (the same seed dealt again: another token) has one result
            deal_key = orjson.dumps(["puzzle", claim["u"], claim["f"], claim["c"], claim["r"], claim["s"]]).decode()
            mine = orjson.dumps({"jti": claim["jti"], **verified})
            if (
                not self.store.spend("puzzle", claim["jti"], claim["exp"])
                or self.store.record_result(deal_key, mine) != mine
            ):
                raise ApiError(
                    409, "already_verified", "this Puzzle deal already has a verified result (one per player)"
                )
            if "d" in claim and stats.counts(claim["d"]):
                entry = stats.result_data(result.solved, result.swaps_over_min)
                self.store.record_player_result(claim["u"], stats.result_key("puzzle", claim["d"]), entry)
        return verified

    def cycles(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/puzzle/cycles``: the swap bench's cycles, min swaps and each slot's cycle."""
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

    # ------------------------------------------------------------ stats

    def player_stats(self, query: dict[str, str], player: str | None = None) -> dict[str, Any]:
        """``GET /api/stats``: the player's figures per game (flagcore.web.stats) when the server has
        a store; ``{"kept": false}`` without one (a normal answer: the browser then shows its own)."""
        if self.store is None or player is None:
            return {"kept": False}
        return {"kept": True, "games": stats.summary(self.store.player_results(player))}

    # ------------------------------------------------------------ flags and the rest

    def flags(self, query: dict[str, str]) -> Reply:
        """``GET /api/flags``: every bundled flag's code and name."""
        return self._flags_reply

    def flag_svg(self, code: str) -> Reply:
        """``GET /flags/{code}.svg``: a bundled flag's artwork, cached for a year."""
        code = code.upper() if code.isascii() else code  # never folded: "ﬁ".upper() is "FI"
        if code not in self.flag_codes:  # only names from the bundled list ever reach the disk
            raise ApiError(404, "unknown_flag", f"no bundled flag {code[:12]!r}")
        return Reply(flag_svg(code), b"image/svg+xml", ((b"cache-control", b"public, max-age=31536000, immutable"),))

    def openapi(self, query: dict[str, str]) -> Reply:
        """``GET /api/openapi.json``: the OpenAPI description of this API."""
        return self._openapi_reply


_EPOCH_TEXT = days.EPOCH.isoformat()


def _check_not_future(date: str) -> None:
    """A daily board is served from the moment its day has begun somewhere (UTC+14), not before,
    and from the schedule's epoch on (flagcore.days)."""
    if date < _EPOCH_TEXT:
        raise ApiError(400, "bad_board", f"there is no daily board before {_EPOCH_TEXT}")
    latest = days.latest_day_text()
    if date > latest:  # both YYYY-MM-DD (daily_number checked the date), so text order is date order
        raise ApiError(
            400, "future_daily", f"the daily board of {date} is not out yet: it is {latest} in the earliest time zone"
        )


def _board_json(board: Board) -> dict[str, Any]:
    """What a published board keeps: its mode, tiles and groups (all a game needs)."""
    return {"mode": board.mode, "tiles": list(board.tiles), "groups": [g.to_dict() for g in board.groups]}


def _board_from_json(data: dict[str, Any], board_id: str) -> Board:
    groups = tuple(Group(g["tier"], g["label"], tuple(g["codes"]), g["category_id"]) for g in data["groups"])
    return Board(tuple(data["tiles"]), groups, board_id, data["mode"])  # type: ignore[arg-type]


def _share_text(game: ConnectionsGame, board_id: str) -> str:
    lines = game.share().split("\n")
    lines[0] = f"flagcore Connections {board_id}"  # the engine's title names the engine seed's id
    return "\n".join(lines)


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
