"""The JSON API: the Connections API and the Puzzle API under one server secret, the player's stats
and flag artwork, routed from the one route table (flagcore.web.routes).

Two ways to keep a game, chosen by the app's store (flagcore.store): **stateless** (no store), a
game travels in signed tokens and nothing is binding; **bound** (a store), each player's games and
results are kept in the store (flagcore.web.connections_api, flagcore.web.puzzle_api). The day's
board is published to the store the first time it is served (flagcore.web.published). Every error
is a JSON body ``{"error": {"code", "message"}}`` with a 4xx status (503 when the store does not
answer).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

import orjson

from ..errors import ApiError
from ..library import Library
from ..signatures import flag_svg
from ..store import Store
from . import stats
from .connections_api import NEW_PLAYER_TTL, ConnectionsApi
from .flag_names import FlagNames
from .jsonapi import Endpoint, PatternRoute, Reply
from .openapi import SPEC
from .puzzle_api import PuzzleApi
from .routes import ROUTES
from .tokens import Signer, SpendHook


class Api:
    """The API's handlers: ``connections`` and ``puzzle``, and the routes of neither game;
    ``endpoints()`` and ``patterns()`` route them by the route table's handler names
    ("connections.board": ``self.connections.board``).

    Handlers are plain functions: a GET handler takes the query string as a dict, a POST handler
    the JSON body object; each returns a JSON value or a Reply, or raises an exception that
    flagcore.web.jsonapi sends as a JSON error. ``private_library``: boards are dealt from
    ``library``, not the bundled one.
    """

    def __init__(
        self,
        signer: Signer,
        library: Library,
        token_ttl: int,
        puzzle_ttl: int,
        on_spend: SpendHook | None,
        store: Store | None = None,
        private_library: bool = False,
        ratings: Any = None,
        season_key: bytes | None = None,
        new_player_ttl: int = NEW_PLAYER_TTL,
    ) -> None:
        self.store = store
        self.names = names = FlagNames(library)
        self.connections = ConnectionsApi(
            signer, names, library, token_ttl, store, private_library, ratings, season_key, new_player_ttl
        )
        self.puzzle = PuzzleApi(signer, names, puzzle_ttl, on_spend, store, season_key)
        # replies that never change, encoded once
        self._flags_reply = Reply(
            orjson.dumps([{"code": c, "name": names.name(c)} for c in names.sorted_codes]),
            headers=((b"cache-control", b"public, max-age=3600"),),
        )
        self._openapi_reply = Reply(orjson.dumps(SPEC))

    def warm(self) -> None:
        """What the first requests of a worker would otherwise pay, paid at start-up (ConnectionsApi.warm)."""
        self.connections.warm()

    def _handler(self, name: str) -> Any:
        owner, _, method = name.rpartition(".")
        return getattr(getattr(self, owner) if owner else self, method)

    def endpoints(self) -> dict[str, Endpoint]:
        """Every route of the table (flagcore.web.routes) with an exact path."""
        return {
            r.path: Endpoint(r.method, self._handler(r.handler), r.refuses, r.player)
            for r in ROUTES
            if "{" not in r.path
        }

    def patterns(self) -> list[PatternRoute]:
        """The table's routes with a parameter in the path, as (prefix, suffix, handler): ``/flags/{code}.svg``."""
        return [
            (r.path[: r.path.index("{")], r.path[r.path.index("}") + 1 :], self._handler(r.handler))
            for r in ROUTES
            if "{" in r.path
        ]

    def player_stats(
        self, query: dict[str, str], player: str | None = None
    ) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
        """``GET /api/stats``: the player's figures per game (flagcore.web.stats) when the server has
        a store; ``{"kept": false}`` without one (a normal answer: the browser then shows its own)."""
        if self.store is None or player is None:
            return {"kept": False}
        return self._stored_stats(player)

    async def _stored_stats(self, player: str) -> dict[str, Any]:
        assert self.store is not None  # only called with a store (player_stats)
        return {"kept": True, "games": stats.summary(await self.store.aplayer_results(player))}

    def flags(self, query: dict[str, str]) -> Reply:
        """``GET /api/flags``: every bundled flag's code and name."""
        return self._flags_reply

    def flag_svg(self, code: str) -> Reply:
        """``GET /flags/{code}.svg``: a bundled flag's artwork, cached for a year."""
        code = code.upper() if code.isascii() else code  # never folded: "ﬁ".upper() is "FI"
        if code not in self.names.codes:  # only names from the bundled list ever reach the disk
            raise ApiError(404, "unknown_flag", f"no bundled flag {code[:12]!r}")
        return Reply(flag_svg(code), b"image/svg+xml", ((b"cache-control", b"public, max-age=31536000, immutable"),))

    def openapi(self, query: dict[str, str]) -> Reply:
        """``GET /api/openapi.json``: the OpenAPI description of this API."""
        return self._openapi_reply
