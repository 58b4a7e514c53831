"""One HTTP request to an ASGI app called directly, without a server: the scope an HTTP server
would build, the body in one message, the reply collected. What tests/web/cycle_probe.py and
benchmarks/web_inprocess.py send the app, and what an embedding server's own tests may send it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from .jsonapi import ASGIApp, Message


def http_scope(
    method: str, path: str, query: bytes = b"", body: bytes = b"", headers: Iterable[tuple[bytes, bytes]] = ()
) -> dict[str, Any]:
    """The scope of an HTTP/1.1 request from 127.0.0.1 with a JSON ``body`` (its length sent), and ``headers``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(body)),
            *headers,
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }


async def call(app: ASGIApp, scope: dict[str, Any], body: bytes = b"") -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """(status, headers, body) of the app's reply to ``scope`` (http_scope) with ``body``. Asked for
    more after the body, the client waits for the reply, as a client of a server does."""
    asked = False
    messages: list[Message] = []

    async def receive() -> Message:
        nonlocal asked
        if asked:
            await asyncio.Event().wait()  # cancelled with the request, never set
        asked = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        messages.append(message)

    await app(scope, receive, send)
    start = messages[0]
    return start["status"], list(start["headers"]), b"".join(m.get("body", b"") for m in messages[1:])
