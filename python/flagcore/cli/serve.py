"""``flagcore serve``: run the web game and JSON API (needs ``pip install "flagcore[web]"``)."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from typing import Any

from .._args.common import as_at_least, as_in_range


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser(
        "serve",
        help="run the web game and JSON API (needs the web extra)",
        description="Serve the browser game and the JSON API with uvicorn. The server is stateless: "
        "run several workers, or several machines behind a load balancer, with one FLAGCORE_SECRET.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn log level (default: info)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    as_in_range(args.port, "--port", 0, 65535)
    as_at_least(args.workers, "--workers", 1)
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise RuntimeError('flagcore serve needs the web extra: pip install "flagcore[web]"') from None
    from ..web.tokens import SECRET_ENV, secret_from_env

    secret_from_env()  # a too-short FLAGCORE_SECRET fails here, before any worker starts
    if not os.environ.get(SECRET_ENV):
        # One random secret for every worker of this run (they must agree), set before they spawn.
        os.environ[SECRET_ENV] = secrets.token_hex(32)
        print(
            f"flagcore serve: {SECRET_ENV} is not set; using a random secret for this run. Tokens and "
            "board ids die with this server: set FLAGCORE_SECRET to keep them across restarts and machines.",
            file=sys.stderr,
        )
    uvicorn.run(
        "flagcore.web:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        access_log=not args.no_access_log,
    )
    return 0
