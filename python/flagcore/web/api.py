"""The JSON API: Connections boards and guesses, Puzzle deals and verified results, flag artwork.

The server keeps no per-game state. A Connections game travels as a signed token holding the
board's game number and mode and the guesses graded so far; each guess replays them through
``ConnectionsGame`` (at most seven, microseconds) and returns a new token. A new game's token is
its board id: a game without guesses holds nothing a client could forge or gain by replaying,
since anyone may open the board again, so it needs no signature of its own. A Puzzle deal returns a token that binds
the flag, grid, start board and par; ``verify`` replays the client's swap log against it.
Every error is a JSON body ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

from .. import Rng, puzzle
from .._args.web import (
    as_bench_tiles,
    as_flag_switch,
    as_guess_codes,
    as_request_seed,
    as_swap_list,
    field,
)
from ..connections import MAX_MISTAKES, Board, ConnectionsGame, Group
from ..errors import ApiError, BoardRequestError
from ..library import Library
from ..signatures import bundled_codes, flag_svg, piece_signatures
from .boards import ID_LENGTH, Dealt, KeyedBoards, check_mode, daily_number, game_number
from .jsonapi import Endpoint, PatternRoute, Reply
from .openapi import SPEC
from .routes import ROUTES
from .tokens import Signer, SpendHook
from .trace import simulate

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

    def __post_init__(self) -> None:
        self.boards = KeyedBoards(self.signer, self._prepare)
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
        return {r.path: Endpoint(r.method, getattr(self, r.handler), r.refuses) for r in ROUTES if "{" not in r.path}

    def patterns(self) -> list[PatternRoute]:
        """The table's routes with a parameter in the path, as (prefix, suffix, handler): ``/flags/{code}.svg``."""
        return [
            (r.path[: r.path.index("{")], r.path[r.path.index("}") + 1 :], getattr(self, r.handler))
            for r in ROUTES
            if "{" in r.path
        ]

    def _name(self, code: str) -> str:
        return self.names.get(code, code)  # the UK's nations have artwork but no library entry

    # ------------------------------------------------------------ Connections

    def board(self, query: dict[str, str]) -> Reply:
        """``GET /api/connections/board``: a keyed board by seed, daily date or id (tiles only)."""
        chosen = [k for k in ("seed", "daily", "id") if k in query]
        if len(chosen) > 1:
            raise ApiError(400, "bad_request", f"give at most one of seed, daily, id (got {chosen})")
        daily = None
        if "id" in query:
            if "mode" in query:
                raise BoardRequestError("mode comes from the board id; do not pass both")
            number, mode = self.boards.parse_id(query["id"])
        else:
            mode = check_mode(query.get("mode", "flags"))
            if "daily" in query:
                daily = query["daily"]
                number = daily_number(daily)
            elif "seed" in query:
                number = game_number(as_request_seed(query["seed"]))
            else:
                number = secrets.randbelow(1 << 32)
        prepared: Prepared = self.boards.dealt(number, mode).extra
        return Reply(prepared.head + orjson.dumps(daily) + prepared.tail)

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

    def guess(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/connections/guess``: grade four codes against the game in the token."""
        token = field(body, "token", str)
        codes = as_guess_codes(field(body, "codes", list))
        if len(token) == ID_LENGTH:  # a new game: its token is the board id
            number, mode = self.boards.parse_token_id(token)
            past: list[list[str]] = []
        else:  # the token names the board by game number and mode (signed, so no id tag to check)
            state = self.signer.check("connections", token)
            number, mode, past = state["n"], state["m"], state["g"]
        dealt: Dealt = self.boards.dealt(number, mode)
        new_game, groups = dealt.extra.grading(dealt.board)
        game = new_game.copy()
        for earlier in past:  # signed by this server: every one was a legal guess
            game.guess(earlier)
        if game.over:
            raise ApiError(409, "game_over", "the game is over; start a new one")
        outcome = game.guess(codes)  # codes not on the board or already solved: bad_guess (routes.py)
        token = self.signer.sign(
            "connections", {"n": number, "m": mode, "g": [list(g) for g in game.guesses]}, self.token_ttl
        )
        reply: dict[str, Any] = {
            "result": outcome.result,
            "group": groups[outcome.matched.tier] if outcome.matched else None,
            "solved": [groups[g.tier] for g in game.solved_groups],
            "mistakes": outcome.mistakes,
            "mistakes_left": outcome.mistakes_left,
            "won": outcome.won,
            "lost": outcome.lost,
            "over": outcome.over,
            "token": token,
        }
        if outcome.over:  # the answers are earned once the game ends, won or lost
            reply["groups"] = list(groups)
            reply["share"] = _share_text(game, dealt.board_id)
        return reply

    def trace(self, query: dict[str, str]) -> dict[str, Any]:
        """``GET /api/connections/trace``: the search simulator's steps for an engine seed."""
        mode = check_mode(query.get("mode", "flags"))
        legacy = as_flag_switch(query.get("legacy", "false"), "legacy")
        seed = as_request_seed(query.get("seed", "12"))
        return simulate(seed, mode, legacy, self.library)

    # ------------------------------------------------------------ Puzzle

    def deal(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/puzzle/deal``: a shuffled board with a signed token binding flag, grid, start and par."""
        grid_name = field(body, "grid", str, required=False) or "hard"
        grid_key = puzzle.GRID_ALIASES.get(grid_name.strip().lower(), grid_name.strip().lower())
        if grid_key not in WEB_GRIDS:
            raise ApiError(400, "bad_grid", "grid must be one of easy, medium, hard (or regular, pro, elite)")
        columns, rows = puzzle.GRIDS[grid_key]
        raw_seed = body.get("seed")
        seed = as_request_seed(raw_seed) if raw_seed is not None else secrets.randbelow(1 << 32)
        flag = field(body, "flag", str, required=False)
        if flag is None or flag.lower() == "random":
            flag = self._random_flags[Rng(f"flag|{seed}").below(len(self._random_flags))]
        else:
            flag = flag.strip().upper()
            if flag not in self.flag_codes:
                raise ApiError(400, "unknown_flag", f"flag {flag[:12]!r} is not a bundled flag")
        # by code: the engine caches each flag's signatures on each grid; ParSearchLimit: no_deal (routes.py)
        game = puzzle.new_game(flag, grid_key, seed=seed)
        start = list(game.start)
        token = self.signer.sign(
            "puzzle", {"f": flag, "c": columns, "r": rows, "st": start, "p": game.par}, self.puzzle_ttl
        )
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

    def verify(self, body: dict[str, Any]) -> dict[str, Any]:
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
        return {
            "swaps": result.swaps,
            "par": result.min_possible,
            "over_par": result.swaps_over_min,
            "perfect": result.perfect,
            "solved": result.solved,
            "flag": claim["f"],
        }

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

    # ------------------------------------------------------------ flags and the rest

    def flags(self, query: dict[str, str]) -> Reply:
        """``GET /api/flags``: every bundled flag's code and name."""
        return self._flags_reply

    def flag_svg(self, code: str) -> Reply:
        """``GET /flags/{code}.svg``: a bundled flag's artwork, cached for a year."""
        code = code.upper()
        if code not in self.flag_codes:  # only names from the bundled list ever reach the disk
            raise ApiError(404, "unknown_flag", f"no bundled flag {code[:12]!r}")
        return Reply(flag_svg(code), b"image/svg+xml", ((b"cache-control", b"public, max-age=31536000, immutable"),))

    def openapi(self, query: dict[str, str]) -> Reply:
        """``GET /api/openapi.json``: the OpenAPI description of this API."""
        return self._openapi_reply


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
