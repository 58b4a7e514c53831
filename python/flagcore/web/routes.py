"""The API's route table: each route's path, method, handler and OpenAPI description, in one place.

``Api.endpoints()`` and ``Api.patterns()`` route requests from it, and flagcore.web.openapi
writes the OpenAPI document from it, so a route cannot be served without being described (or
described without being served). A path with ``{name}`` in it is routed by its shape: the text
between the prefix and the suffix goes to the handler.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._args.connections import MODES
from .._args.web import (
    DIFFICULTY_PATTERN,
    DIFFICULTY_TEXT,
    GRID_NAMES,
    MAX_BENCH_TILES,
    MAX_SWAPS,
    refused_as,
    refused_swap_log,
)
from .jsonapi import Refusal


@dataclass(frozen=True)
class Route:
    """One API route. ``handler`` names the Api method that serves it ("connections.board": the
    Connections API's ``board``); ``response`` is the OpenAPI 200 response, ``errors`` the 4xx
    statuses it documents; ``documented=False`` keeps it out of the document (the document's own
    route); ``player=True``: the handler knows the player (with a store: games bound to a player,
    the player's stats)."""

    path: str
    method: str
    handler: str
    summary: str = ""
    parameters: tuple[dict[str, Any], ...] = ()
    body: dict[str, Any] | None = None
    response: dict[str, Any] | None = None
    errors: tuple[int, ...] = ()
    documented: bool = True
    refuses: Refusal | None = None  # see flagcore.web.jsonapi.Endpoint
    player: bool = False


ERROR_RESPONSE = {
    "description": "a JSON error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
_SEED = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "maximum": 4294967295},
        {"type": "string", "minLength": 1, "maxLength": 64},
    ]
}
_MODE = {"type": "string", "enum": list(MODES)}  # the engine's modes, as every enum here: one source


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _body(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object", "properties": properties, "required": required}}},
    }


# a deal's token and its swaps so far: the body of a verify and of a progress save
_SWAP_LOG_BODY = _body(
    {
        "token": {"type": "string"},
        "swaps": {
            "type": "array",
            "maxItems": MAX_SWAPS,
            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
        },
    },
    ["token", "swaps"],
)


GROUP = {
    "type": "object",
    "properties": {
        "tier": {"type": "integer"},
        "tier_name": {"type": "string"},
        "label": {"type": "string"},
        "codes": {"type": "array", "items": {"type": "string"}},
    },
}

ROUTES: tuple[Route, ...] = (
    Route(
        "/api/connections/board",
        "GET",
        "connections.board",
        "a board's tiles (never its groups) and the token of a new game",
        parameters=(
            _query(
                "seed", {"type": "string", "maxLength": 64}, "a game number or any string; keyed with the server secret"
            ),
            _query(
                "daily", {"type": "string"}, "YYYY-MM-DD: the day's board, once the day has begun somewhere (UTC+14)"
            ),
            _query("id", {"type": "string"}, "a board id this server issued"),
            _query("mode", _MODE, "default flags"),
        ),
        response=_json({"type": "object", "required": ["board_id", "mode", "tiles", "token"]}),
        errors=(400, 422, 503),  # 503: the store (games, published dailies) did not answer
        player=True,
    ),
    Route(
        "/api/connections/guess",
        "POST",
        "connections.guess",
        "grade four tiles against the game in the token (the last reply's token; a new game's "
        "token is its board id); returns the next token",
        body=_body(
            {
                "token": {"type": "string"},
                "codes": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4},
            },
            ["token", "codes"],
        ),
        response=_json(
            {
                "type": "object",
                "properties": {
                    "result": {"type": "string", "enum": ["correct", "one_away", "wrong", "already_tried"]},
                    "group": {"nullable": True, **GROUP},
                    "solved": {"type": "array", "items": GROUP},
                    "mistakes": {"type": "integer"},
                    "mistakes_left": {"type": "integer"},
                    "won": {"type": "boolean"},
                    "lost": {"type": "boolean"},
                    "over": {"type": "boolean"},
                    "token": {"type": "string"},
                    "groups": {"type": "array", "items": GROUP},
                    "share": {"type": "string"},
                },
            }
        ),
        errors=(400, 403, 409, 410, 413, 503),
        refuses=refused_as(400, "bad_guess"),  # the game refuses codes not on the board or already solved
        player=True,
    ),
    Route(
        "/api/connections/trace",
        "GET",
        "connections.trace",
        "the search simulator: every step of generate(seed, mode, legacy, trace=True) on a raw engine seed",
        parameters=(
            _query("seed", {"type": "string", "maxLength": 64}, "engine seed (default 12)"),
            _query("mode", _MODE, "default flags"),
            _query("legacy", {"type": "string", "enum": ["true", "false"]}, "the spec's generator"),
            _query(
                "difficulty",
                {"type": "string", "pattern": DIFFICULTY_PATTERN},
                f"red herrings by design: {DIFFICULTY_TEXT} (default: the search alone)",
            ),
        ),
        response=_json({"type": "object"}),
        errors=(400, 422),
    ),
    Route(
        "/api/puzzle/deal",
        "POST",
        "puzzle.deal",
        "deal a Puzzle: tiles, look-alike classes, background positions and a token binding flag, grid, start and par",
        body=_body(
            {
                "flag": {"type": "string", "nullable": True, "description": "a bundled flag code or 'random'"},
                "grid": {"type": "string", "enum": list(GRID_NAMES)},
                "seed": {"nullable": True, **_SEED},
                "daily": {
                    "type": "string",
                    "nullable": True,
                    "description": "YYYY-MM-DD: that day's deal (give it alone); the reply says the day",
                },
            },
            [],
        ),
        response=_json({"type": "object", "required": ["flag", "grid", "tiles_by_slot", "token"]}),
        errors=(400, 413, 422),
        refuses=refused_as(422, "no_deal"),
        player=True,
    ),
    Route(
        "/api/puzzle/verify",
        "POST",
        "puzzle.verify",
        "replay a swap log against a deal's token: swaps, par, over par, perfect",
        body=_SWAP_LOG_BODY,
        response=_json(
            {
                "type": "object",
                "properties": {
                    "swaps": {"type": "integer"},
                    "par": {"type": "integer"},
                    "over_par": {"type": "integer"},
                    "perfect": {"type": "boolean"},
                    "solved": {"type": "boolean"},
                    "flag": {"type": "string"},
                    "today": {
                        "type": "object",
                        "nullable": True,
                        "description": "with a store: the aggregate of the day's Puzzle (or of the flag on its grid), "
                        "this game included: plays, perfect, median_over_par, over_par (docs/server.md)",
                    },
                },
            }
        ),
        errors=(400, 403, 409, 410, 413, 422, 503),
        refuses=refused_swap_log,
        player=True,
    ),
    Route(
        "/api/puzzle/progress",
        "POST",
        "puzzle.progress",
        "with a store, keep the swaps so far of a deal for the token's player: dealing it again "
        "returns them (a reload, another browser); 409 not_kept without a store",
        body=_SWAP_LOG_BODY,
        response=_json({"type": "object", "properties": {"swaps": {"type": "integer"}}}),
        errors=(400, 403, 409, 410, 413, 503),
    ),
    Route(
        "/api/puzzle/cycles",
        "POST",
        "puzzle.cycles",
        "the swap bench: cycles and min swaps of a board of distinct tiles",
        body=_body(
            {
                "tiles_by_slot": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "minItems": 2,
                    "maxItems": MAX_BENCH_TILES,
                }
            },
            ["tiles_by_slot"],
        ),
        response=_json({"type": "object"}),
        errors=(400, 413),
    ),
    Route(
        "/api/stats",
        "GET",
        "player_stats",
        "the player's stats (the player of the signed cookie) when the server has a store: per game "
        "(connections, connections-trivia, puzzle) the dailies played and won, win rate, current and best "
        "streak, wins by score (mistakes; swaps over par) and each day's result; without a store "
        '{"kept": false} (the browser keeps its own)',
        response=_json(
            {
                "type": "object",
                "required": ["kept"],
                "properties": {
                    "kept": {"type": "boolean", "description": "false: this server has no store and keeps no stats"},
                    "games": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "object",
                            "properties": {
                                "played": {"type": "integer"},
                                "wins": {"type": "integer"},
                                "win_rate": {"type": "integer", "description": "a whole percent"},
                                "current_streak": {"type": "integer"},
                                "best_streak": {"type": "integer"},
                                "scores": {
                                    "type": "array",
                                    "items": {"type": "integer"},
                                    "description": "wins by score",
                                },
                                "today": {"type": "object", "nullable": True},
                                "days": {"type": "object", "description": "YYYY-MM-DD: {won, score}"},
                            },
                        },
                    },
                },
            }
        ),
        errors=(503,),
        player=True,
    ),
    Route(
        "/api/flags",
        "GET",
        "flags",
        "bundled flag codes and names",
        response=_json({"type": "array", "items": {"type": "object"}}),
    ),
    Route(
        "/flags/{code}.svg",
        "GET",
        "flag_svg",
        "a bundled flag's SVG artwork (cached for a year)",
        parameters=({"name": "code", "in": "path", "required": True, "schema": {"type": "string"}},),
        response={"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
        errors=(404,),
    ),
    Route("/api/openapi.json", "GET", "openapi", documented=False),
)
