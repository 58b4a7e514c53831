"""``create_app``: the ASGI application: the JSON API and flag artwork (flagcore.web.jsonapi), and
the browser game's pages and static files (Starlette)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .._args.web import as_spend_hook, as_ttl
from ..library import load_library
from .api import Api
from .jsonapi import Endpoint, JsonApi
from .tokens import SECRET_ENV, Signer, SpendHook, secret_from_env

STATIC = Path(__file__).parent / "static"
PAGES = ("connections", "puzzle", "simulator", "bench")
# Pages load only this origin's scripts, styles and images: nothing from a CDN, so they work offline.
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def create_app(
    secret: str | bytes | None = None,
    *,
    token_ttl: int = 7 * 24 * 3600,
    puzzle_ttl: int = 24 * 3600,
    on_spend: SpendHook | None = None,
    extra_endpoints: dict[str, Endpoint] | None = None,
) -> JsonApi:
    """The flagcore web app, an ASGI application you can serve or mount in your own server.

    secret: signs game tokens and keys board ids; None reads FLAGCORE_SECRET and, when that is
        unset, uses a random secret for this process (with a warning: tokens and board ids then
        die with the process and are refused by any other worker).
    token_ttl / puzzle_ttl: lifetime in seconds of a Connections game token / a Puzzle deal.
    on_spend(kind, jti, exp) -> bool: the single-use hook, called when a Puzzle result is
        verified; return False to refuse a token already spent (keep the jti until exp in your
        shared store, e.g. Redis SET NX with an expiry). None: a deal can be verified repeatedly
        (each time with the same result).
    extra_endpoints: more exact-path routes served like the API's own (path -> Endpoint), e.g. a
        benchmark's no-op endpoints (benchmarks/web_load.py); a path of the API cannot be replaced.
    """
    if secret is None:
        key, from_env = secret_from_env()
        if not from_env:
            warnings.warn(
                f"flagcore.web: {SECRET_ENV} is not set; using a random secret for this process. "
                "Game tokens and board ids will not survive a restart and are refused by other "
                "workers: set the same FLAGCORE_SECRET on every worker.",
                RuntimeWarning,
                stacklevel=2,
            )
    else:
        key = secret.encode("utf-8") if isinstance(secret, str) else secret
    api = Api(
        Signer(key),
        load_library(),
        as_ttl(token_ttl, "token_ttl"),
        as_ttl(puzzle_ttl, "puzzle_ttl"),
        as_spend_hook(on_spend),
    )
    endpoints = api.endpoints()
    for path, endpoint in (extra_endpoints or {}).items():
        if path in endpoints:
            raise ValueError(f"extra_endpoints: {path} is a route of the API")  # a caller's mistake, not a request
        endpoints[path] = endpoint

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / f"{name}.html", headers=_PAGE_HEADERS)

        return endpoint

    pages = Starlette(
        routes=[
            Route("/", page("index")),
            *(Route(f"/{name}", page(name)) for name in PAGES),
            Mount("/static", StaticFiles(directory=STATIC)),
        ],
        exception_handlers={HTTPException: _http_error},
    )
    return JsonApi(endpoints, api.patterns(), pages)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's 404 and 405 (pages, static files, unknown paths) as the API's JSON errors."""
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse(
        {"error": {"code": code, "message": str(exc.detail)}},
        status_code=exc.status_code,
        headers=dict(exc.headers or {}),
    )
