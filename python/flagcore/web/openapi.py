"""The OpenAPI 3.0 description of the JSON API (served at /api/openapi.json; the fuzz test reads it)."""

from __future__ import annotations

from typing import Any

from .._version import __version__

_ERROR = {
    "description": "a JSON error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
_SEED = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "maximum": 4294967295},
        {"type": "string", "minLength": 1, "maxLength": 64},
    ]
}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): _ERROR for c in codes}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _body(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object", "properties": properties, "required": required}}},
    }


GROUP = {
    "type": "object",
    "properties": {
        "tier": {"type": "integer"},
        "tier_name": {"type": "string"},
        "label": {"type": "string"},
        "codes": {"type": "array", "items": {"type": "string"}},
    },
}

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "flagcore",
        "version": __version__,
        "description": "Connections and Puzzle on the flagcore engines. Stateless: game state travels "
        'in HMAC-signed tokens; every error is {"error": {"code", "message"}} with a 4xx status.',
    },
    "paths": {
        "/api/noop": {
            "get": {
                "summary": "does nothing (the framework's ceiling in load tests)",
                "responses": {"200": _json({"type": "object"})},
            }
        },
        "/api/noop/post": {
            "post": {
                "summary": "reads a JSON object body and does nothing (the ceiling of POST endpoints)",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": _json({"type": "object"}), **_errors(400, 413)},
            }
        },
        "/api/connections/board": {
            "get": {
                "summary": "a board's tiles (never its groups) and the token of a new game",
                "parameters": [
                    _query(
                        "seed",
                        {"type": "string", "maxLength": 64},
                        "a game number or any string; keyed with the server secret",
                    ),
                    _query("daily", {"type": "string"}, "YYYY-MM-DD: the day's board"),
                    _query("id", {"type": "string"}, "a board id this server issued"),
                    _query("mode", {"type": "string", "enum": ["flags", "trivia"]}, "default flags"),
                ],
                "responses": {
                    "200": _json({"type": "object", "required": ["board_id", "mode", "tiles", "token"]}),
                    **_errors(400, 422),
                },
            }
        },
        "/api/connections/guess": {
            "post": {
                "summary": "grade four tiles against the game in the token (the last reply's token; a new game's "
                "token is its board id); returns the next token",
                "requestBody": _body(
                    {
                        "token": {"type": "string"},
                        "codes": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4},
                    },
                    ["token", "codes"],
                ),
                "responses": {
                    "200": _json(
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
                    **_errors(400, 403, 409, 410, 413),
                },
            }
        },
        "/api/connections/trace": {
            "get": {
                "summary": "the search simulator: every step of generate(seed, mode, legacy, trace=True) on a raw engine seed",  # noqa: E501
                "parameters": [
                    _query("seed", {"type": "string", "maxLength": 64}, "engine seed (default 12)"),
                    _query("mode", {"type": "string", "enum": ["flags", "trivia"]}, "default flags"),
                    _query("legacy", {"type": "string", "enum": ["true", "false"]}, "the spec's generator"),
                ],
                "responses": {"200": _json({"type": "object"}), **_errors(400, 422)},
            }
        },
        "/api/puzzle/deal": {
            "post": {
                "summary": "deal a Puzzle: tiles, look-alike classes, background positions and a token binding flag, grid, start and par",  # noqa: E501
                "requestBody": _body(
                    {
                        "flag": {"type": "string", "nullable": True, "description": "a bundled flag code or 'random'"},
                        "grid": {"type": "string", "enum": ["easy", "medium", "hard", "regular", "pro", "elite"]},
                        "seed": {"nullable": True, **_SEED},
                    },
                    [],
                ),
                "responses": {
                    "200": _json({"type": "object", "required": ["flag", "grid", "tiles_by_slot", "token"]}),
                    **_errors(400, 413, 422),
                },
            }
        },
        "/api/puzzle/verify": {
            "post": {
                "summary": "replay a swap log against a deal's token: swaps, par, over par, perfect",
                "requestBody": _body(
                    {
                        "token": {"type": "string"},
                        "swaps": {
                            "type": "array",
                            "maxItems": 1000,
                            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
                        },
                    },
                    ["token", "swaps"],
                ),
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "swaps": {"type": "integer"},
                                "par": {"type": "integer"},
                                "over_par": {"type": "integer"},
                                "perfect": {"type": "boolean"},
                                "solved": {"type": "boolean"},
                                "flag": {"type": "string"},
                            },
                        }
                    ),
                    **_errors(400, 403, 409, 410, 413, 422),
                },
            }
        },
        "/api/puzzle/cycles": {
            "post": {
                "summary": "the swap bench: cycles and min swaps of a board of distinct tiles",
                "requestBody": _body(
                    {"tiles_by_slot": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 64}},
                    ["tiles_by_slot"],
                ),
                "responses": {"200": _json({"type": "object"}), **_errors(400, 413)},
            }
        },
        "/api/flags": {
            "get": {
                "summary": "bundled flag codes and names",
                "responses": {"200": _json({"type": "array", "items": {"type": "object"}})},
            }
        },
        "/flags/{code}.svg": {
            "get": {
                "summary": "a bundled flag's SVG artwork (cached for a year)",
                "parameters": [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                    **_errors(404),
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {
                    "error": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                    }
                },
            }
        }
    },
}
