"""The OpenAPI 3.0 description of the JSON API, written from the route table (flagcore.web.routes).

Served at /api/openapi.json; the fuzz test reads it. tests/web/data/openapi.json holds the
document as ``text()`` writes it, and a test compares the two byte for byte: after changing a
route, regenerate it with

    python -c 'from flagcore.web.openapi import text; print(text(), end="")' > tests/web/data/openapi.json
"""

from __future__ import annotations

import json
from typing import Any

from .._version import __version__
from .routes import ERROR_RESPONSE, ROUTES, Route

ERROR_SCHEMA = {
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


def operation(route: Route) -> dict[str, Any]:
    """One route's OpenAPI operation object."""
    op: dict[str, Any] = {"summary": route.summary}
    if route.parameters:
        op["parameters"] = list(route.parameters)
    if route.body is not None:
        op["requestBody"] = route.body
    op["responses"] = {"200": route.response, **{str(status): ERROR_RESPONSE for status in route.errors}}
    return op


def document(routes: tuple[Route, ...] = ROUTES) -> dict[str, Any]:
    """The OpenAPI document of ``routes`` (the documented ones, in table order)."""
    paths: dict[str, Any] = {}
    for route in routes:
        if route.documented:
            paths.setdefault(route.path, {})[route.method.lower()] = operation(route)
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "flagcore",
            "version": __version__,
            "description": "Connections and Puzzle on the flagcore engines. Game state travels in "
            "HMAC-signed tokens; with a store, each player's game is kept on the server and a token is "
            'used once. Every error is {"error": {"code", "message"}} with a 4xx status (503: the store '
            "did not answer).",
        },
        "paths": paths,
        "components": {"schemas": {"Error": ERROR_SCHEMA}},
    }


SPEC: dict[str, Any] = document()


def text(spec: dict[str, Any] = SPEC) -> str:
    """The document as the checked-in file holds it: indented JSON, keys in table order, a final newline."""
    return json.dumps(spec, indent=2) + "\n"
