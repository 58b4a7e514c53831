"""``create_app``: the ASGI application (JSON API, browser game, flag artwork) on Starlette."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..library import load_library
from .api import Api, ApiError, JSONResponse, error_response
from .openapi import SPEC
from .tokens import SECRET_ENV, Signer, SpendHook, TokenError, secret_from_env

STATIC = Path(__file__).parent / "static"
PAGES = ("connections", "puzzle", "simulator", "bench")
# Pages load only this origin's scripts, styles and images: nothing from a CDN, so they work offline.
_PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
                                            "form-action 'self'; frame-ancestors 'none'",
                 "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}


def create_app(secret: str | bytes | None = None, *, token_ttl: int = 7 * 24 * 3600, puzzle_ttl: int = 24 * 3600,
               on_spend: SpendHook | None = None) -> Starlette:
    """The flagcore web app, an ASGI application you can serve or mount in your own server.

    secret: signs game tokens and keys board ids; None reads FLAGCORE_SECRET and, when that is
        unset, uses a random secret for this process (with a warning: tokens and board ids then
        die with the process and are refused by any other worker).
    token_ttl / puzzle_ttl: lifetime in seconds of a Connections game token / a Puzzle deal.
    on_spend(kind, jti, exp) -> bool: the single-use hook, called when a Puzzle result is
        verified; return False to refuse a token already spent (keep the jti until exp in your
        shared store, e.g. Redis SET NX with an expiry). None: a deal can be verified repeatedly
        (each time with the same result).
    """
    if secret is None:
        key, from_env = secret_from_env()
        if not from_env:
            warnings.warn(f"flagcore.web: {SECRET_ENV} is not set; using a random secret for this process. "
                          "Game tokens and board ids will not survive a restart and are refused by other "
                          "workers: set the same FLAGCORE_SECRET on every worker.", RuntimeWarning, stacklevel=2)
    else:
        key = secret.encode("utf-8") if isinstance(secret, str) else secret
    for name, ttl in (("token_ttl", token_ttl), ("puzzle_ttl", puzzle_ttl)):
        if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl <= 0:
            raise ValueError(f"{name} must be a positive number of seconds, got {ttl!r}")
    if on_spend is not None and not callable(on_spend):
        raise TypeError("on_spend must be callable or None")
    api = Api(Signer(key), load_library(), token_ttl, puzzle_ttl, on_spend)

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / f"{name}.html", headers=_PAGE_HEADERS)
        return endpoint

    async def openapi(request: Request) -> Response:
        return JSONResponse(SPEC)

    routes = [
        Route("/api/noop", api.noop),
        Route("/api/connections/board", api.board),
        Route("/api/connections/guess", api.guess, methods=["POST"]),
        Route("/api/connections/trace", api.trace),
        Route("/api/puzzle/deal", api.deal, methods=["POST"]),
        Route("/api/puzzle/verify", api.verify, methods=["POST"]),
        Route("/api/puzzle/cycles", api.cycles, methods=["POST"]),
        Route("/api/flags", api.flags),
        Route("/api/openapi.json", openapi),
        Route("/flags/{code}.svg", api.flag_svg),
        Route("/", page("index")),
        *(Route(f"/{name}", page(name)) for name in PAGES),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    # async handlers: Starlette runs plain functions in a thread pool, far slower per error
    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.code, exc.message)

    async def token_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TokenError)
        return error_response(exc.status, exc.code, str(exc))

    async def internal_error(request: Request, exc: Exception) -> Response:
        return error_response(500, "internal", "internal error")

    handlers: dict[Any, Any] = {ApiError: api_error, TokenError: token_error, HTTPException: _http_error,
                                Exception: internal_error}
    return Starlette(routes=routes, exception_handlers=handlers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code,
                        headers=dict(exc.headers or {}))
