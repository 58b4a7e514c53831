"""``flagcore serve``: run the web game and JSON API (needs ``pip install "flagcore[web]"``).

The workers learn their configuration from the environment this process sets before starting
them (FLAGCORE_SECRET, FLAGCORE_STORE, FLAGCORE_ALLOWED_HOSTS: what ``create_app()`` reads), so
every worker has the same secret, store and hosts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

from .._args.cli import refuse_shared_store_without_secret
from .._args.common import as_at_least, as_in_range

HEAD_BUFFER = 64 * 1024  # bytes granian buffers of a request (its head must fit: docs/server.md, "The edge")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def default_store() -> str:
    """The SQLite file of games when --store is not given: in the user's data folder."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite://{base / 'flagcore' / 'games.db'}"


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser(
        "serve",
        help="run the web game and JSON API (needs the web extra)",
        description="Serve the browser game and the JSON API (uvicorn by default, or granian). Games are "
        "kept in a store, so a result is binding: a SQLite file by default (every worker of this machine), "
        "Redis for several machines (all with one FLAGCORE_SECRET), or none (stateless: nothing binding).",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument(
        "--store",
        default=None,
        help="where games are kept: none, sqlite:///path/games.db (default: "
        "$XDG_DATA_HOME/flagcore/games.db) or redis://host:port/db",
    )
    p.add_argument(
        "--library",
        default=None,
        metavar="PATH",
        help="deal boards from this library (a JSON file or folder, as flagcore data check reads) instead of the "
        "bundled one: with a private library, the public one does not give the answers away",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=None,
        metavar="NAME",
        help="a host name clients may use (repeat for several); requests for any other Host get a 400 "
        "(default: the loopback names when listening on a loopback address, else any host)",
    )
    p.add_argument(
        "--server",
        default="uvicorn",
        choices=["uvicorn", "granian"],
        help="the HTTP server running the app (default: uvicorn, the cheaper on POSTs and the one that refuses "
        "malformed chunked bodies and Content-Length with Transfer-Encoding; docs/server.md, Which server)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default: info)",
    )
    p.add_argument(
        "--ratings",
        default=None,
        metavar="FILE",
        help="deal boards steered and coloured by this ratings file (flagcore ratings fit; docs/ratings.md); "
        "'none': without ratings; default: the ratings shipped with the package where it has them and no "
        "--library is given, else none (FLAGCORE_RATINGS sets the default)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.add_argument(
        "--store-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds a store call may take before the request gets a 503 (default: 2)",
    )
    p.add_argument(
        "--new-player-ttl",
        type=int,
        default=None,
        metavar="SECONDS",
        help="seconds a game of a player without a cookie yet is kept (default: 3600); its next guess, with "
        "the cookie, keeps it the token's lifetime: a flood of cookieless guesses leaves the store soon",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    as_in_range(args.port, "--port", 0, 65535)
    as_at_least(args.workers, "--workers", 1)
    if args.new_player_ttl is not None:
        as_at_least(args.new_player_ttl, "--new-player-ttl", 1)
    try:
        import starlette  # noqa: F401

        if args.server == "granian":
            import granian  # noqa: F401
        else:
            import uvicorn  # noqa: F401
    except ImportError:
        raise RuntimeError(
            f'flagcore serve --server {args.server} needs the web extra: pip install "flagcore[web]"'
        ) from None
    from .._args.store import as_store_timeout, parse_store_url
    from ..library import load_library
    from ..ratings import load_ratings
    from ..ratings.shipped import serve_ratings
    from ..store import DEFAULT_TIMEOUT, open_store
    from ..web.app import LIBRARY_ENV, NEW_PLAYER_TTL_ENV, RATINGS_ENV, STORE_ENV, STORE_TIMEOUT_ENV
    from ..web.ops import LOG_FORMAT_ENV, METRICS_DIR_ENV
    from ..web.tokens import old_secrets_from_env, secret_from_env

    secret = secret_from_env()  # a weak FLAGCORE_SECRET fails here, before any worker starts
    old_secrets_from_env()
    url = args.store or default_store()
    kind, target = parse_store_url(url)
    if kind == "sqlite":
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    timeout = DEFAULT_TIMEOUT if args.store_timeout is None else as_store_timeout(args.store_timeout)
    store = open_store(url, timeout=timeout)  # a store that cannot be opened fails here, with its reason
    if store is not None:
        store.ping()
        store.close()
    os.environ[STORE_TIMEOUT_ENV] = str(timeout)
    if args.new_player_ttl is not None:
        os.environ[NEW_PLAYER_TTL_ENV] = str(args.new_player_ttl)
    os.environ.setdefault(LOG_FORMAT_ENV, "json")  # JSON logs unless the environment says otherwise
    if secret is None:
        _keep_a_secret(kind, target)
    os.environ[STORE_ENV] = url
    ratings = serve_ratings(args.ratings or os.environ.get(RATINGS_ENV) or None, args.library)
    if ratings is None:
        os.environ.pop(RATINGS_ENV, None)
    else:
        # checked here, so a bad file is one line and exit 2 before any worker starts
        rated = load_ratings(ratings, None if args.library is None else load_library(Path(args.library)))
        os.environ[RATINGS_ENV] = str(ratings.resolve())
    print(
        f"flagcore serve: {'no ratings' if ratings is None else f'ratings {rated.digest} ({ratings})'}", file=sys.stderr
    )
    if args.library is not None:
        load_library(args.library)  # a broken library fails here, naming the file and the problem
        os.environ[LIBRARY_ENV] = str(Path(args.library).resolve())
    _export_hosts(args.host, args.allowed_host)
    # the workers' metrics files (flagcore.web.ops): a folder of this run's, so no figure of an
    # earlier run is counted, removed when the server stops (one left per run would pile up in /tmp)
    metrics = tempfile.mkdtemp(prefix="flagcore-metrics-")
    os.environ[METRICS_DIR_ENV] = metrics
    _remove_at_sigterm(metrics)
    try:
        _start(args)
    finally:
        shutil.rmtree(metrics, ignore_errors=True)
    return 0


def _remove_at_sigterm(folder: str) -> None:
    """Remove ``folder`` when SIGTERM ends this process: uvicorn stops gracefully on it and then
    raises it again, with the handler it found, so the process dies of it (no ``finally`` runs)."""

    def removed(signum: int, frame: object) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)  # dies of the signal, as it would have

    signal.signal(signal.SIGTERM, removed)


def _start(args: argparse.Namespace) -> None:
    """Serve the app with the chosen ASGI server until it is stopped."""
    serve_app(APP, args.server, args.host, args.port, args.workers, args.log_level, not args.no_access_log)


APP = "flagcore.web:create_app"  # the factory every worker calls (create_app reads what run() exported)


def serve_app(
    app: str, server: str, host: str, port: int, workers: int, log_level: str = "info", access_log: bool = True
) -> None:
    """Serve the app factory ``app`` ("module:function") with ``server`` (uvicorn or granian) and
    the options ``flagcore serve`` runs it with, until it is stopped. benchmarks/web_load.py
    starts its servers through this, so a load run measures the shipped configuration."""
    if server == "granian":
        from granian import Granian
        from granian.http import HTTP1Settings

        Granian(
            app,
            factory=True,
            address=host,
            port=port,
            workers=workers,
            interface="asgi",  # type: ignore[arg-type]
            websockets=False,
            log_level=log_level,  # type: ignore[arg-type]
            log_access=access_log,
            # a request head of more than 64 KiB is refused by granian (431) before Python sees any of it
            http1_settings=HTTP1Settings(max_buffer_size=HEAD_BUFFER),
        ).serve()
    else:
        import uvicorn

        from ..web.one_write import OneWriteHttpToolsProtocol

        uvicorn.run(
            app,
            factory=True,
            host=host,
            port=port,
            workers=workers,
            # httptools (C, the web extra installs it; uvicorn's fallback h11 is pure Python), each
            # reply's head and body in one write to the socket (flagcore.web.one_write)
            http=OneWriteHttpToolsProtocol,
            loop="auto",  # uvloop where the web extra installed it (not on Windows)
            log_level=log_level,
            access_log=access_log,
        )


def _keep_a_secret(kind: str, target: str) -> None:
    """FLAGCORE_SECRET for the workers when it is not set: kept beside a SQLite store, refused with
    Redis (every machine must share one), random for a stateless run."""
    from ..web.tokens import SECRET_ENV, secret_file

    if kind == "sqlite":
        # kept beside the games, so a restart keeps every board, token and player
        path = Path(target).with_suffix(".secret")
        os.environ[SECRET_ENV] = secret_file(path).decode("utf-8")
        print(f"flagcore serve: {SECRET_ENV} is not set; using the secret kept in {path}", file=sys.stderr)
    elif kind == "redis":
        refuse_shared_store_without_secret(kind, SECRET_ENV)
    else:
        import secrets

        os.environ[SECRET_ENV] = secrets.token_urlsafe(32)
        print(
            f"flagcore serve: {SECRET_ENV} is not set; using a random secret for this run. Tokens and "
            "board ids die with this server: set FLAGCORE_SECRET to keep them across restarts and machines.",
            file=sys.stderr,
        )


def _export_hosts(host: str, allowed: list[str] | None) -> None:
    """FLAGCORE_ALLOWED_HOSTS for the workers: --allowed-host, else the loopback names when listening
    on a loopback address, else unset (any host)."""
    from ..web.app import HOSTS_ENV

    hosts = allowed
    if hosts is None and host in LOOPBACK:
        hosts = [*LOOPBACK, "[::1]"]
    if hosts:
        os.environ[HOSTS_ENV] = ",".join(hosts)
    else:
        os.environ.pop(HOSTS_ENV, None)
