"""The JSON API's own ASGI layer: exact-path routes, bounded bodies, orjson replies, JSON errors.

The API's requests are small and its handlers take microseconds, so a general framework's
request and response objects (header parsing, middleware stacks, exception-handler wrappers)
would cost more than the engines. This layer does only what the API needs: find the endpoint by
its exact path, check the method, read the query string or a JSON body of at most
``MAX_BODY_BYTES``, call the handler (a plain function, never in a thread pool; a handler that
must wait for the store returns a coroutine, awaited here) and send its reply. Every endpoint, the
benchmarks' no-op ones included, goes through this same path, so a no-op endpoint of a load run is
the true ceiling of the other endpoints.

Every error is ``{"error": {"code", "message"}}`` with a 4xx status, from ``ERRORS`` (exception
class -> status and code) and ``ARGUMENT_CODES`` (the package's argument errors, by the argument
they name); any other exception is answered with a JSON 500 and then re-raised,
so the server logs it (and a test client raises it).
"""

from __future__ import annotations

import contextvars
import itertools
import os
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from types import CoroutineType
from typing import Any, NamedTuple
from urllib.parse import parse_qsl

import orjson

from .._args.web import as_json_object
from ..errors import (
    ApiError,
    ArgumentError,
    ArgumentTypeError,
    BoardRequestError,
    ExpiredTokenError,
    FlagcoreError,
    ForgedTokenError,
    NoBoardError,
    StoreUnavailable,
    TokenError,
    UnknownKeyError,
)
from .players import Players, new_player

MAX_BODY_BYTES = 16 * 1024  # a Puzzle log of 1,000 moves with its token fits in about 12 kB

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

JSON_TYPE = b"application/json"
_JSON_HEADER = (b"content-type", JSON_TYPE)
REQUEST_ID_HEADER = b"x-request-id"
# the request being served: the client's id, or b"" until the server needs one of its own
# (current_request_id); None outside a request. flagcore.web.ops sets it for each request.
request_id: contextvars.ContextVar[bytes | None] = contextvars.ContextVar("flagcore_request_id", default=None)
_ids = itertools.count(1)
_PREFIX = os.urandom(4).hex().encode()  # a process's ids: <prefix>-<count in hex>
STORE_UNAVAILABLE = "the game store did not answer: try again in a moment (nothing is ever recorded twice)"

# How a route sends the engine's builtin refusal of the client's data (see Endpoint)
Refusal = Callable[[Exception, dict[str, Any]], ApiError]

# What the client sees of each exception a handler may raise: the one table of the API's errors.
# ApiError carries its own status and code (the request rules in flagcore._args.web choose them).
ERRORS: dict[type[FlagcoreError], tuple[int, str]] = {
    TokenError: (400, "bad_token"),
    ForgedTokenError: (403, "forged_token"),
    ExpiredTokenError: (410, "expired_token"),
    BoardRequestError: (400, "bad_board"),
    NoBoardError: (422, "no_board"),  # no keyed seed of the bundled library has hit this; say so if one does
    UnknownKeyError: (403, "secret_changed"),
    StoreUnavailable: (503, "store_unavailable"),  # the client may try again: nothing is recorded twice
}
# A request's value refused by the package's own rule (flagcore._args: ArgumentError or
# ArgumentTypeError, whose message begins with the argument's name) is a 400 with the code of the
# argument it names: the request rules (flagcore._args.web) hand those values to the package's
# rules as they are. An argument error naming another argument is the engine refusing the data a
# route gave it (the route's ``refuses``), or a bug (a 500).
ARGUMENT_CODES: dict[str, str] = {
    "mode": "bad_board",
    "date": "bad_board",  # a daily board's date (the Puzzle's daily is "daily")
    "daily": "bad_date",
    "seed": "bad_seed",
    "difficulty": "bad_request",
}
_ARGUMENT_NAME = re.compile(r"[A-Za-z_]+")


class Reply(NamedTuple):
    """A reply other than a plain 200 JSON value: raw ``body`` bytes, content type, extra headers."""

    body: bytes
    content_type: bytes = JSON_TYPE
    headers: tuple[tuple[bytes, bytes], ...] = ()
    status: int = 200


def current_request_id() -> bytes | None:
    """The id of the request being served (None outside one): the client's, else one made now and
    kept for the rest of the request, so its log lines and its error reply name the same id."""
    rid = request_id.get()
    if rid == b"":
        rid = b"%s-%x" % (_PREFIX, next(_ids))
        request_id.set(rid)
    return rid


def error_reply(status: int, code: str, message: str) -> Reply:
    """The JSON error body every failure of the API is sent as."""
    return Reply(orjson.dumps({"error": {"code": code, "message": message}}), status=status)


def error_reply_of(exc: Exception, refuses: Refusal | None, request: dict[str, Any]) -> Reply | None:
    """The JSON error an exception from a handler is sent as; None when it is a bug (a 500)."""
    if isinstance(exc, ApiError):
        return error_reply(exc.status, exc.code, str(exc))
    if isinstance(exc, FlagcoreError):
        if isinstance(exc, StoreUnavailable):  # its message names the store's host or path: for the log only
            return error_reply(*ERRORS[StoreUnavailable], STORE_UNAVAILABLE)
        for cls in type(exc).__mro__:  # the most specific class listed wins
            if cls in ERRORS:
                return error_reply(*ERRORS[cls], str(exc))
    if isinstance(exc, (ArgumentError, ArgumentTypeError)):
        named = _ARGUMENT_NAME.match(str(exc))
        code = ARGUMENT_CODES.get(named.group()) if named else None
        if code is not None:
            return error_reply(400, code, str(exc))
    if refuses is not None and isinstance(exc, (TypeError, ValueError)):
        refusal = refuses(exc, request)
        return error_reply(refusal.status, refusal.code, str(refusal))
    return None


@dataclass(frozen=True)
class Endpoint:
    """One API route: ``GET`` handlers get the query string as a dict, ``POST`` handlers the JSON
    body object; either returns a JSON value (sent with status 200) or a Reply, or a coroutine
    that gives one (a handler that waits for the store).

    ``refuses(exc, request)`` turns a TypeError or ValueError from the handler into the ApiError
    sent, for a handler that hands the client's data to an engine that refuses it with a builtin
    error (a guess, a swap log); elsewhere such an error is a bug and gets a 500.

    ``player=True``: the handler is called as ``handler(request, player)``, with the player's id when
    the app binds games to players (it has a store), else None."""

    method: str
    handler: Callable[..., Any]
    refuses: Refusal | None = None
    player: bool = False  # the handler also takes the player (flagcore.web.players; None without a store)


# A path routed by its shape rather than exactly: (prefix, suffix, handler of the middle part).
PatternRoute = tuple[str, str, Callable[[str], Any]]


class JsonApi:
    """An ASGI app serving ``endpoints`` (exact paths) and ``patterns``; any other request goes to
    ``fallback`` (the pages and static files).

    players: who a request's games belong to (None: stateless, no player ids). allowed_hosts: the
    Host header values served (None: any); a request for another host gets a JSON 400, whatever
    its path, so no reply ever names a host the client made up.
    """

    def __init__(
        self,
        endpoints: dict[str, Endpoint],
        patterns: list[PatternRoute],
        fallback: ASGIApp,
        players: Players | None = None,
        allowed_hosts: frozenset[str] | None = None,
    ) -> None:
        self.endpoints = endpoints
        self.patterns = patterns
        self.fallback = fallback
        self.players = players
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection scope (HTTP requests to the API here, the rest by ``fallback``)."""
        if scope["type"] != "http" or await self.handle(scope, receive, send) is None:
            await self.fallback(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send, rid: bytes | None = None) -> int | None:
        """Serve an HTTP request if it is the API's (a refused host included): the status sent, 0
        when the client went away before its body's end (nothing sent); None when the request is
        not the API's (nothing sent: the caller hands it to ``fallback``).

        ``rid``: the request id of flagcore.web.ops (None: the app alone, no ids): the client's,
        sent back on every reply, or b"", and then the server's own (current_request_id) goes on
        an error reply only. Sent here, with the reply's other headers, so no layer wraps ``send``."""
        if self.allowed_hosts is not None and _host(scope) not in self.allowed_hosts:
            refusal = error_reply(400, "bad_host", "this server does not serve that host name")
            return await send_reply(send, refusal, False, rid)
        path = _route_path(scope)
        endpoint = self.endpoints.get(path)
        if endpoint is not None:
            return await self._serve(endpoint, scope, receive, send, rid)
        for prefix, suffix, handler in self.patterns:
            if path.startswith(prefix) and path.endswith(suffix) and len(path) > len(prefix) + len(suffix):
                middle = path[len(prefix) : len(path) - len(suffix)]
                return await self._serve(Endpoint("GET", lambda _: handler(middle)), scope, receive, send, rid)
        return None

    async def _serve(self, endpoint: Endpoint, scope: Scope, receive: Receive, send: Send, rid: bytes | None) -> int:
        method = scope["method"]
        head = method == "HEAD" and endpoint.method == "GET"
        arg: dict[str, Any] = {}  # the query or body, once read (a refusal may look at it)
        cookie = None
        try:
            if method != endpoint.method and not head:
                reply = error_reply(405, "method_not_allowed", "Method Not Allowed")
                allow = b"GET, HEAD" if endpoint.method == "GET" else endpoint.method.encode("ascii")
                reply = reply._replace(headers=((b"allow", allow),))
            else:
                if endpoint.method == "GET":
                    arg = _query(scope["query_string"].decode("latin-1"))
                else:
                    raw = await _read_body(scope, receive)
                    if raw is None:
                        return 0  # the client went away
                    arg = as_json_object(raw)
                if endpoint.player:
                    player = None
                    if self.players is not None:
                        player, cookie = self.players.identify(scope)
                        new_player.set(cookie is not None)
                    result = endpoint.handler(arg, player)
                else:
                    result = endpoint.handler(arg)
                if type(result) is CoroutineType:  # a handler that waits for the store (a bound guess)
                    result = await result
                reply = result if type(result) is Reply else Reply(orjson.dumps(result))
                if cookie is not None:
                    reply = reply._replace(headers=(*reply.headers, (b"set-cookie", cookie)))
        except Exception as exc:
            refusal = error_reply_of(exc, endpoint.refuses, arg)
            if refusal is None:  # a bug, not a refusal: a JSON 500, then the server logs it
                await send_reply(send, error_reply(500, "internal", "internal error"), False, rid)
                raise
            reply = refusal
        return await send_reply(send, reply, head, rid)


def _host(scope: Scope) -> str:
    """The request's Host header without its port, lower case ("" when there is none)."""
    for name, value in scope["headers"]:
        if name == b"host":
            host: str = value.decode("latin-1").lower()
            name_part, colon, port = host.rpartition(":")
            return name_part if colon and port.isdigit() and not host.endswith("]") else host
    return ""


def _route_path(scope: Scope) -> str:
    """The path below the mount point when the app is mounted inside another ASGI app."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _query(text: str) -> dict[str, str]:
    """The query string as a dict (the last value of a repeated name wins, as in Starlette)."""
    if "%" in text or "+" in text:
        return dict(parse_qsl(text, keep_blank_values=True))
    # nothing to unquote: split directly (parse_qsl costs several times more)
    if "&" not in text:  # one name (or none): the usual board request
        name, _, value = text.partition("=")
        return {name: value} if text else {}
    return {name: value for name, _, value in (pair.partition("=") for pair in text.split("&") if pair)}


async def _read_body(scope: Scope, receive: Receive) -> bytes | None:
    """The whole request body, at most MAX_BODY_BYTES (ApiError 413 beyond); None on disconnect."""
    for name, value in scope["headers"]:
        if name == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY_BYTES):
            raise ApiError(413, "body_too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
    body = b""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk: bytes = message.get("body", b"")
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise ApiError(413, "body_too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
        if not message.get("more_body", False):
            return body


async def send_reply(send: Send, reply: Reply, head: bool, rid: bytes | None = None) -> int:
    """Send ``reply`` (no body for a HEAD); returns its status. ``rid``: see JsonApi.handle."""
    status = reply.status
    content_type = _JSON_HEADER if reply.content_type is JSON_TYPE else (b"content-type", reply.content_type)
    headers = [content_type, (b"content-length", b"%d" % len(reply.body)), *reply.headers]
    # the id goes back when the client sent one, and on every error reply (the one its log lines
    # name); a success reply to a client without one carries none: the HTTP server checks and
    # encodes every header of every reply (about 3 us a request)
    if rid is not None and (rid or status >= 400):
        headers.append((REQUEST_ID_HEADER, rid or current_request_id() or b""))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else reply.body})
    return status
