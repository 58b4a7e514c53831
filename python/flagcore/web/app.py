"""``create_app``: the ASGI application: the JSON API and flag artwork (flagcore.web.jsonapi), and
the browser game's pages and static files (Starlette)."""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .._args.secret import as_secret
from .._args.store import as_store_timeout
from .._args.web import as_spend_hook, as_ttl
from ..connections.tables import default_library
from ..library import house_rules_html, load_library
from ..ratings import load_ratings
from ..ratings.shipped import serve_ratings
from ..store import Store, open_store
from .api import Api
from .connections_api import NEW_PLAYER_TTL
from .jsonapi import Endpoint, JsonApi
from .ops import LOG_FORMAT_ENV, METRICS, METRICS_DIR_ENV, Ops, configure_logging
from .players import Players
from .tokens import SECRET_ENV, Signer, SpendHook, old_secrets_from_env, secret_from_env

STATIC = Path(__file__).parent / "static"
STORE_ENV = "FLAGCORE_STORE"  # a store URL (flagcore.store.open_store); flagcore serve sets it for its workers
LIBRARY_ENV = "FLAGCORE_LIBRARY"  # a private library (file or folder); flagcore serve sets it from --library
RATINGS_ENV = "FLAGCORE_RATINGS"  # a ratings file to deal boards with; flagcore serve sets it from --ratings
HOSTS_ENV = "FLAGCORE_ALLOWED_HOSTS"  # comma-separated host names; flagcore serve sets it from --allowed-host
SEASON_KEY_ENV = "FLAGCORE_SEASON_KEY"  # the dailies' schedule key (docs/server.md); unset: derived from the secret
STORE_TIMEOUT_ENV = "FLAGCORE_STORE_TIMEOUT"  # seconds a store call may take (flagcore serve --store-timeout)
NEW_PLAYER_TTL_ENV = "FLAGCORE_NEW_PLAYER_TTL"  # seconds a cookieless player's game is kept (--new-player-ttl)
PAGES = ("connections", "puzzle", "tools", "simulator", "bench")
ROOT_FILES = {  # path -> (file in static/, content type): files a browser looks for at the site's root
    "/sw.js": ("sw.js", "text/javascript"),  # a service worker's scope is the folder it is served from
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/favicon.ico": ("favicon.ico", "image/vnd.microsoft.icon"),
}
# help.html's slot for the house rules: the server fills it from flagcore.library.house_rules(), so the
# rules players read in the browser are the package's one text (the CLI and the README show the same).
HOUSE_RULES_SLOT = "<!-- house-rules -->"
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
    old_secrets: Sequence[str | bytes] | None = None,
    store: Store | str | None = None,
    allowed_hosts: Iterable[str] | None = None,
    library: str | os.PathLike[str] | None = None,
    token_ttl: int = 7 * 24 * 3600,
    puzzle_ttl: int = 24 * 3600,
    on_spend: SpendHook | None = None,
    extra_endpoints: dict[str, Endpoint] | None = None,
    ratings: Any = None,
    season_key: str | bytes | None = None,
    new_player_ttl: int | None = None,
) -> Ops:
    """The flagcore web app, an ASGI application you can serve or mount in your own server.

    secret: signs game tokens and keys board ids, with at least 128 bits of entropy (make one with
        ``python -c "import secrets; print(secrets.token_urlsafe(32))"``); None reads
        FLAGCORE_SECRET and, when that is unset, uses a random secret for this process (with a
        warning: tokens and board ids then die with the process and are refused by any other
        worker; ``flagcore serve`` keeps one in a file instead).
    old_secrets: secrets of before a rotation: they verify tokens, board ids and player cookies
        but never sign; None reads FLAGCORE_OLD_SECRETS (whitespace-separated).
    store: where games, spent tokens, published boards and results are kept (flagcore.store): a
        Store, or a URL for ``open_store`` ("none", "sqlite:///path", "redis://host:port/db");
        None reads FLAGCORE_STORE, and without it the app is stateless (nothing binding).
    allowed_hosts: the host names the app answers (any other Host header gets a JSON 400); None
        reads FLAGCORE_ALLOWED_HOSTS (comma-separated), and without it any host is answered.
    library: a library file or folder (flagcore.library.load_library) to deal boards from instead
        of the bundled one: a private library keeps the answers from anyone who has only the
        public one; None reads FLAGCORE_LIBRARY, and without it the bundled library is used.
    token_ttl / puzzle_ttl: lifetime in seconds of a Connections game token / a Puzzle deal.
    on_spend(kind, jti, exp) -> bool: the single-use hook, called when a Puzzle result is
        verified; return False to refuse a token already spent. With a store, the app already
        records one result per deal and player.
    ratings: a ratings file (flagcore.ratings: its path, or Ratings) to steer and colour boards by
        learned difficulty (docs/ratings.md); None reads FLAGCORE_RATINGS as ``flagcore serve
        --ratings`` reads it (a file, "none", or "shipped": the package's own), and without it the
        model's colours. A bad file raises RatingsError here: the app does not start.
    extra_endpoints: more exact-path routes served like the API's own (path -> Endpoint), e.g. a
        benchmark's no-op endpoints (benchmarks/web_load.py); a path of the API cannot be replaced.
    season_key: the key of the dailies' schedule (at least 16 bytes; docs/server.md): every
        server of a deployment shares it, and nobody without it computes a future daily; None
        reads FLAGCORE_SEASON_KEY, and without it the key is derived from the secret.
    new_player_ttl: seconds a game of a player without a cookie yet is kept (its next guess, with
        the cookie, keeps it token_ttl): a flood of cookieless guesses leaves the store soon; None
        reads FLAGCORE_NEW_PLAYER_TTL (``flagcore serve --new-player-ttl``), and without it an hour.

    At the ASGI lifespan's start-up (before the server takes a request) the app deals ahead what
    a worker's first board would pay: the library's tables and today's dailies (Api.warm); a
    server run with the lifespan off pays it at its first board request instead.

    The app answers /healthz, /readyz and /metrics and logs as flagcore.web.ops says; with
    FLAGCORE_STORE_TIMEOUT set, a store URL is opened with that timeout (seconds).

    An embedding server that knows its users names the player of a request by setting
    ``scope["flagcore.player"]`` (flagcore.web.players); otherwise a signed cookie does.
    """
    signer = _signer(secret, old_secrets)
    library = library if library is not None else (os.environ.get(LIBRARY_ENV) or None)
    store = _store(store)
    dealt_library, rated = _dealt(library, ratings)
    _observe()
    api = Api(
        signer,
        dealt_library,
        as_ttl(token_ttl, "token_ttl"),
        as_ttl(puzzle_ttl, "puzzle_ttl"),
        as_spend_hook(on_spend),
        store,
        private_library=library is not None,
        ratings=rated,
        season_key=_season_key(season_key, signer),
        new_player_ttl=as_ttl(_new_player_ttl(new_player_ttl), "new_player_ttl"),
    )
    endpoints = _with_extra(api.endpoints(), extra_endpoints or {})
    players = Players(signer) if store is not None else None
    return Ops(JsonApi(endpoints, api.patterns(), _pages(), players, _hosts(allowed_hosts)), store, warm=api.warm)


def _dealt(library: str | os.PathLike[str] | None, ratings: Any) -> tuple[Any, Any]:
    """create_app's library to deal from and its ratings (None for the model's colours)."""
    ratings = ratings if ratings is not None else ratings_from_env(library)
    # the bundled library is the one generate loads for itself (one load per process, not two)
    dealt_library = default_library() if library is None else load_library(Path(library))
    # a bad ratings file stops the app here, in one line (RatingsError), never mid-game
    return dealt_library, None if ratings is None else load_ratings(ratings, dealt_library)


def _new_player_ttl(ttl: int | None) -> Any:
    """create_app's new_player_ttl: given, else FLAGCORE_NEW_PLAYER_TTL (whole seconds), else an hour."""
    if ttl is not None:
        return ttl
    text = os.environ.get(NEW_PLAYER_TTL_ENV)
    if not text:
        return NEW_PLAYER_TTL
    if not text.isdigit():
        raise ValueError(f"{NEW_PLAYER_TTL_ENV} must be a positive whole number of seconds, got {text!r}")
    return int(text)


def ratings_from_env(library: str | os.PathLike[str] | None) -> Path | None:
    """The ratings file FLAGCORE_RATINGS names, read as ``flagcore serve --ratings`` reads its
    value (flagcore.ratings.shipped.serve_ratings): a file; "none": none; "shipped": the shipped
    file, never with a private ``library``. Unset or empty: none (unlike ``flagcore serve``, the
    app never deals with ratings it was not told of)."""
    choice = os.environ.get(RATINGS_ENV) or None
    return None if choice is None else serve_ratings(choice, None if library is None else str(library))


def _observe() -> None:
    """JSON logs and the metrics' folder as the environment says, read in each worker (the
    metrics were made at import, maybe before)."""
    if os.environ.get(LOG_FORMAT_ENV):
        configure_logging()
    if os.environ.get(METRICS_DIR_ENV):
        METRICS.directory = Path(os.environ[METRICS_DIR_ENV])


def _with_extra(endpoints: dict[str, Endpoint], extra: dict[str, Endpoint]) -> dict[str, Endpoint]:
    """The API's routes and a caller's extra ones; an extra path cannot replace a route of the API."""
    for path, endpoint in extra.items():
        if path in endpoints:
            raise ValueError(f"extra_endpoints: {path} is a route of the API")  # a caller's mistake, not a request
        endpoints[path] = endpoint
    return endpoints


def _signer(secret: str | bytes | None, old_secrets: Sequence[str | bytes] | None) -> Signer:
    """The Signer of create_app's secrets (see create_app: None reads the environment)."""
    if secret is None:
        key = secret_from_env()
        if key is None:
            warnings.warn(
                f"flagcore.web: {SECRET_ENV} is not set; using a random secret for this process. "
                "Game tokens and board ids will not survive a restart and are refused by other "
                "workers: set the same FLAGCORE_SECRET on every worker.",
                RuntimeWarning,
                stacklevel=3,
            )
            key = secrets.token_urlsafe(32).encode("ascii")
    else:
        key = as_secret(secret, "secret")
    if old_secrets is None:
        old = old_secrets_from_env()
    else:
        old = tuple(s.encode("utf-8") if isinstance(s, str) else s for s in old_secrets)
    return Signer(key, old)


def _store(store: Store | str | None) -> Store | None:
    """create_app's store: a Store, a URL, or None (FLAGCORE_STORE, else stateless)."""
    if store is None:
        store = os.environ.get(STORE_ENV, "none")
    if not isinstance(store, str):
        return store
    timeout = os.environ.get(STORE_TIMEOUT_ENV)
    return open_store(store, timeout=as_store_timeout(timeout)) if timeout else open_store(store)


def derived_season_key(signer: Signer) -> bytes:
    """The season key of a server without FLAGCORE_SEASON_KEY: derived from its current secret."""
    return signer.derive(b"season key", 32)


def _season_key(key: str | bytes | None, signer: Signer) -> bytes:
    """The dailies' schedule key: given, else FLAGCORE_SEASON_KEY, else derived from the secret."""
    if key is None:
        key = os.environ.get(SEASON_KEY_ENV) or None
    if key is None:
        return derived_season_key(signer)
    raw = key.encode("utf-8") if isinstance(key, str) else key
    if not isinstance(raw, bytes) or len(raw) < 16:
        raise ValueError(f"season_key ({SEASON_KEY_ENV}) must be at least 16 bytes")
    return raw


def _hosts(allowed_hosts: Iterable[str] | None) -> frozenset[str] | None:
    """The host names served (lower case), from create_app or FLAGCORE_ALLOWED_HOSTS; None: any."""
    if allowed_hosts is None and os.environ.get(HOSTS_ENV):
        allowed_hosts = os.environ[HOSTS_ENV].split(",")
    return None if allowed_hosts is None else frozenset(h.strip().lower() for h in allowed_hosts if h.strip())


def _pages() -> Starlette:
    """The browser game's pages and static files (Starlette), every error as the API's JSON."""
    help_html = (STATIC / "help.html").read_text(encoding="utf-8").replace(HOUSE_RULES_SLOT, house_rules_html())

    async def help_page(request: Request) -> Response:
        return HTMLResponse(help_html, headers=_PAGE_HEADERS)

    pages = Starlette(
        routes=[
            Route("/", _page("index")),
            Route("/static/help.html", help_page),  # before the static files: the house rules filled in
            *(Route(f"/{name}", _page(name)) for name in PAGES),
            *(Route(path, _root_file(name, kind)) for path, (name, kind) in ROOT_FILES.items()),
            Mount("/static", StaticFiles(directory=STATIC)),
        ],
        exception_handlers={HTTPException: _http_error},
    )
    pages.router.redirect_slashes = False  # a redirect would name the Host header's host: "/static" is a 404
    return pages


def _page(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return FileResponse(STATIC / f"{name}.html", headers=_PAGE_HEADERS)

    return endpoint


def _root_file(name: str, media_type: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type=media_type, headers=_PAGE_HEADERS)

    return endpoint


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's 404 and 405 (pages, static files, unknown paths) as the API's JSON errors; a
    browser asking for a page that is not there (it accepts text/html) gets the HTML 404 page, so
    a mistyped address answers in words, with links to the games. /api/ stays JSON."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and _wants_page(request):
        return FileResponse(STATIC / "404.html", status_code=404, headers=_PAGE_HEADERS)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse(
        {"error": {"code": code, "message": str(exc.detail)}},
        status_code=exc.status_code,
        headers=dict(exc.headers or {}),
    )


def _wants_page(request: Request) -> bool:
    """A browser's request for a page: not the API's, and it accepts HTML."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")
