"""The JSON API: Connections boards and guesses, Puzzle deals and verified results, flag artwork.

The server keeps no per-game state. A Connections game travels as a signed token holding the
board id and the guesses graded so far; each guess replays them through ``ConnectionsGame``
(at most seven, microseconds) and returns a new token. A Puzzle deal returns a token that binds
the flag, grid, start board and par; ``verify`` replays the client's swap log against it.
Every error is a JSON body ``{"error": {"code", "message"}}`` with a 4xx status.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson
from starlette.requests import Request
from starlette.responses import Response

from .. import puzzle
from ..connections import MAX_MISTAKES, ConnectionsGame, Group, NoBoardError
from ..library import Library
from ..signatures import bundled_codes, flag_svg, piece_signatures
from .boards import BoardRequestError, KeyedBoards, check_mode, daily_number, game_number, parse_seed
from .tokens import Signer, SpendHook
from .trace import simulate

MAX_BODY_BYTES = 16 * 1024  # a Puzzle log of MAX_SWAPS moves with its token fits in about 12 kB
MAX_SWAPS = 1000            # a 5x3 board needs at most 14; anything near this is not a game
MAX_BENCH_TILES = 64
MAX_CODE_CHARS = 8
WEB_GRIDS = ("easy", "medium", "hard")  # the game's grids; their signatures are precomputed
_SVG_SIZE = re.compile(rb'viewBox\s*=\s*["\']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)[\s,]+([\d.eE+]+)')


class JSONResponse(Response):
    """A JSON response encoded by orjson (the stdlib encoder costs more than the engine here)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, read up to MAX_BODY_BYTES; ApiError otherwise."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise ApiError(413, "body_too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, "body_too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:  # strict JSON: no NaN or Infinity, integers within 64 bits, nesting within 1024
        body = orjson.loads(b"".join(chunks))
    except orjson.JSONDecodeError:
        raise ApiError(400, "bad_json", "request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", f"request body must be a JSON object, not {type(body).__name__}")
    return body


def _field(body: dict[str, Any], name: str, kinds: type | tuple[type, ...], required: bool = True) -> Any:
    value = body.get(name)
    if value is None:
        if required:
            raise ApiError(400, "missing_field", f"{name} is required")
        return None
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise ApiError(400, "bad_type", f"{name} must not be a boolean")
    if not isinstance(value, kinds):
        raise ApiError(400, "bad_type", f"{name} has the wrong type ({type(value).__name__})")
    return value


def _seed_value(value: Any, name: str = "seed") -> int | str:
    """A seed from JSON (int, or str parsed as the CLI does) or from a query string."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ApiError(400, "bad_type", f"{name} must be an int or a string")
    try:
        if isinstance(value, int):
            if not 0 <= value < 1 << 32:
                raise BoardRequestError(f"{name} {value}: an int seed must be in [0, 2^32)")
            return value
        return parse_seed(value)
    except BoardRequestError as exc:
        raise ApiError(400, "bad_seed", str(exc)) from None


def _group(g: Group) -> dict[str, Any]:
    return {"tier": g.tier, "tier_name": g.tier_name, "label": g.label, "codes": list(g.codes)}


@dataclass
class Api:
    signer: Signer
    library: Library
    token_ttl: int
    puzzle_ttl: int
    on_spend: SpendHook | None

    def __post_init__(self) -> None:
        self.boards = KeyedBoards(self.signer)
        self.flag_codes = frozenset(bundled_codes())
        self.names = {code: self.library.name(code) for code in self.library.codes}

    def _name(self, code: str) -> str:
        return self.names.get(code, code)  # the UK's nations have artwork but no library entry

    # ------------------------------------------------------------ Connections

    async def board(self, request: Request) -> Response:
        q = request.query_params
        chosen = [k for k in ("seed", "daily", "id") if k in q]
        if len(chosen) > 1:
            raise ApiError(400, "bad_request", f"give at most one of seed, daily, id (got {chosen})")
        try:
            daily = None
            if "id" in q:
                if "mode" in q:
                    raise BoardRequestError("mode comes from the board id; do not pass both")
                number, mode = self.boards.parse_id(q["id"])
            else:
                mode = check_mode(q.get("mode", "flags"))
                if "daily" in q:
                    daily = q["daily"]
                    number = daily_number(daily)
                elif "seed" in q:
                    number = game_number(_seed_value(q["seed"]))
                else:
                    number = secrets.randbelow(1 << 32)
        except BoardRequestError as exc:
            raise ApiError(400, "bad_board", str(exc)) from None
        board_id = self.boards.board_id(number, mode)
        board = self._board(number, mode)
        token = self.signer.sign("connections", {"b": board_id, "g": []}, self.token_ttl)
        return JSONResponse({
            "board_id": board_id, "mode": mode, "daily": daily,
            "tiles": [{"code": c, "name": self._name(c)} for c in board.tiles],
            "mistakes": 0, "mistakes_left": MAX_MISTAKES, "solved": [], "over": False, "token": token,
        })

    def _board(self, number: int, mode: str) -> Any:
        try:
            return self.boards.board(number, mode)
        except NoBoardError as exc:  # no keyed seed of the bundled library has hit this; say so if one does
            raise ApiError(422, "no_board", str(exc)) from None

    async def guess(self, request: Request) -> Response:
        body = await read_json(request)
        state = self.signer.check("connections", _field(body, "token", str))
        codes = _field(body, "codes", list)
        if len(codes) != 4 or not all(isinstance(c, str) and 0 < len(c) <= MAX_CODE_CHARS for c in codes):
            raise ApiError(400, "bad_codes", "codes must be a list of 4 country codes (strings)")
        number, mode = self.boards.parse_id(state["b"])
        board = self._board(number, mode)
        game = ConnectionsGame(board)
        for past in state["g"]:  # signed by this server: every one was a legal guess
            game.guess(past)
        if game.over:
            raise ApiError(409, "game_over", "the game is over; start a new one")
        try:
            outcome = game.guess(codes)
        except (TypeError, ValueError) as exc:
            raise ApiError(400, "bad_guess", str(exc)) from None
        token = self.signer.sign("connections", {"b": state["b"], "g": [list(g) for g in game.guesses]},
                                 self.token_ttl)
        reply: dict[str, Any] = {
            "result": outcome.result,
            "group": _group(outcome.matched) if outcome.matched else None,
            "solved": [_group(g) for g in game.solved_groups],
            "mistakes": game.mistakes, "mistakes_left": game.mistakes_left,
            "won": game.won, "lost": game.lost, "over": game.over, "token": token,
        }
        if game.over:  # the answers are earned once the game ends, won or lost
            reply["groups"] = [_group(g) for g in board.groups]
            reply["share"] = _share_text(game, state["b"])
        return JSONResponse(reply)

    async def trace(self, request: Request) -> Response:
        q = request.query_params
        try:
            mode = check_mode(q.get("mode", "flags"))
        except BoardRequestError as exc:
            raise ApiError(400, "bad_board", str(exc)) from None
        legacy_text = q.get("legacy", "false").lower()
        if legacy_text not in ("true", "false", "1", "0"):
            raise ApiError(400, "bad_type", "legacy must be true or false")
        seed = _seed_value(q.get("seed", "12"))
        try:
            data = simulate(seed, mode, legacy_text in ("true", "1"), self.library)
        except NoBoardError as exc:
            raise ApiError(422, "no_board", str(exc)) from None
        return JSONResponse(data)

    # ------------------------------------------------------------ Puzzle

    async def deal(self, request: Request) -> Response:
        body = await read_json(request)
        grid_name = _field(body, "grid", str, required=False) or "hard"
        grid_key = puzzle.GRID_ALIASES.get(grid_name.strip().lower(), grid_name.strip().lower())
        if grid_key not in WEB_GRIDS:
            raise ApiError(400, "bad_grid", "grid must be one of easy, medium, hard (or regular, pro, elite)")
        columns, rows = puzzle.GRIDS[grid_key]
        raw_seed = body.get("seed")
        seed = _seed_value(raw_seed) if raw_seed is not None else secrets.randbelow(1 << 32)
        flag = _field(body, "flag", str, required=False)
        if flag is None or flag.lower() == "random":
            from .. import Rng

            codes = sorted(self.flag_codes)
            flag = codes[Rng(f"flag|{seed}").below(len(codes))]
        else:
            flag = flag.strip().upper()
            if flag not in self.flag_codes:
                raise ApiError(400, "unknown_flag", f"flag {flag[:12]!r} is not a bundled flag")
        sigs, classes = _signatures(flag, columns, rows)
        try:  # signatures rather than the code: new_game takes two-letter codes only (not GB-ENG)
            game = puzzle.new_game(sigs, grid_key, seed=seed)
        except (TypeError, ValueError) as exc:  # ParSearchLimit is a ValueError
            raise ApiError(422, "no_deal", str(exc)) from None
        token = self.signer.sign("puzzle", {"f": flag, "c": columns, "r": rows, "st": list(game.start),
                                            "p": game.par}, self.puzzle_ttl)
        return JSONResponse({
            "flag": flag, "name": self._name(flag), "seed": seed,
            "grid": {"name": grid_key, "columns": columns, "rows": rows},
            "tiles_by_slot": list(game.start), "classes": classes,
            "positions": _positions(columns, rows),
            "aspect": _aspect(flag), "token": token,
        })

    async def verify(self, request: Request) -> Response:
        body = await read_json(request)
        claim = self.signer.check("puzzle", _field(body, "token", str))
        swaps = _field(body, "swaps", list)
        if len(swaps) > MAX_SWAPS:
            raise ApiError(400, "bad_swaps", f"swaps holds at most {MAX_SWAPS} moves")
        for i, move in enumerate(swaps):
            if not (isinstance(move, list) and len(move) == 2
                    and all(isinstance(s, int) and not isinstance(s, bool) for s in move)):
                raise ApiError(400, "bad_swaps", f"swaps[{i}] must be a pair of slot numbers [a, b]")
        sigs, _ = _signatures(claim["f"], claim["c"], claim["r"])
        try:
            result = puzzle.verify(claim["st"], swaps, sigs)
        except (TypeError, ValueError) as exc:
            raise ApiError(422, "rejected", f"swap log rejected: {exc}") from None
        if result.min_possible != claim["p"]:  # the engine's par changed since the deal
            raise ApiError(409, "stale_token", "this board's par has changed since the deal; deal again")
        if self.on_spend is not None and not self.on_spend("puzzle", claim["jti"], claim["exp"]):
            raise ApiError(409, "token_used", "this Puzzle result was already verified")
        return JSONResponse({"swaps": result.swaps, "par": result.min_possible,
                             "over_par": result.swaps_over_min, "perfect": result.perfect,
                             "solved": result.solved, "flag": claim["f"]})

    async def cycles(self, request: Request) -> Response:
        body = await read_json(request)
        tiles = _field(body, "tiles_by_slot", list)
        if not 2 <= len(tiles) <= MAX_BENCH_TILES:
            raise ApiError(400, "bad_board", f"tiles_by_slot must hold 2..{MAX_BENCH_TILES} tiles")
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in tiles) \
                or sorted(tiles) != list(range(len(tiles))):
            raise ApiError(400, "bad_board", "tiles_by_slot must be a permutation of 0..n-1")
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
        return JSONResponse({"cycles": cycles, "min_swaps": puzzle.min_swaps_to_identity(tiles),
                             "cycle_of": cycle_of, "solved": puzzle.is_strictly_solved(tiles)})

    # ------------------------------------------------------------ flags and the rest

    async def flags(self, request: Request) -> Response:
        return JSONResponse([{"code": c, "name": self._name(c)} for c in sorted(self.flag_codes)],
                            headers={"Cache-Control": "public, max-age=3600"})

    async def flag_svg(self, request: Request) -> Response:
        code = str(request.path_params["code"]).upper()
        if code not in self.flag_codes:  # only names from the bundled list ever reach the disk
            raise ApiError(404, "unknown_flag", f"no bundled flag {code[:12]!r}")
        return Response(flag_svg(code), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def noop(self, request: Request) -> Response:
        return JSONResponse({"ok": True})


def _share_text(game: ConnectionsGame, board_id: str) -> str:
    lines = game.share().split("\n")
    lines[0] = f"flagcore Connections {board_id}"  # the engine's title names the engine seed's id
    return "\n".join(lines)


@lru_cache(maxsize=None)
def _signatures(flag: str, columns: int, rows: int) -> tuple[npt.NDArray[np.int64] | None, list[int]]:
    """A bundled flag's tile signatures (as an array: the engine checks it without a Python loop)
    and each piece's look-alike class, numbered by first appearance (all distinct without a render)."""
    sigs = piece_signatures(flag, columns, rows)
    if sigs is None:
        return None, list(range(columns * rows))
    seen: dict[int, int] = {}
    return np.array(sigs, dtype=np.int64), [seen.setdefault(s, len(seen)) for s in sigs]


@lru_cache(maxsize=None)
def _positions(columns: int, rows: int) -> list[list[str]]:
    """CSS background-position of each piece: the spec's background_percent of its column and row."""
    return [[puzzle.background_percent(i % columns, columns), puzzle.background_percent(i // columns, rows)]
            for i in range(columns * rows)]


@lru_cache(maxsize=None)
def _aspect(code: str) -> float:
    """Width / height of a bundled flag's artwork (its viewBox), for sizing the Puzzle board."""
    match = _SVG_SIZE.search(flag_svg(code)[:4096])
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        if w > 0 and h > 0:
            return round(w / h, 4)
    return 1.5

