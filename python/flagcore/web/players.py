"""Players: who a game in the store belongs to.

With a store, each game is kept per (player, board). A player is either

- **named by the embedding server**: an ASGI app that mounts flagcore and knows its users sets
  ``scope["flagcore.player"]`` (a str of 1..128 characters) before calling it; flagcore trusts it
  as it trusts its caller, and sets no cookie; or
- **anonymous**: an id (its creation's second and 96 random bits) in a signed cookie,
  ``flagcore_player=<id>.<tag>`` (HttpOnly, SameSite=Lax, a year and a month), made at the
  player's first request. The tag is a MAC under the server secret, so a client cannot choose
  another player's id; a client can always drop the cookie and start as a new player, which no
  server can prevent without accounts.
"""

from __future__ import annotations

import binascii
import contextvars
import hmac
import os
import random
import time
from collections.abc import Iterable, MutableMapping
from typing import Any

from .tokens import Signer

COOKIE = "flagcore_player"
SCOPE_KEY = "flagcore.player"
MAX_PLAYER_CHARS = 128
COOKIE_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep
MAX_COOKIE_TRIES = 2  # player cookies checked per request: a browser sends one; each costs a MAC per secret
# whether the request being served made its player anew (no cookie yet): its games expire soon
# (flagcore.web.connections_api), so a flood of cookieless requests cannot grow the store for long
new_player: contextvars.ContextVar[bool] = contextvars.ContextVar("flagcore_new_player", default=False)


# A new player's id needs to be unique and unguessable, not secret (its cookie's tag is what a
# client cannot make): the second it was made (8 hex digits), then 96 random bits of a generator
# seeded from the OS (rather than a system call per first visit). The time first: the games are
# kept by (player, board), so a new player's first save lands next to the other new players' of
# the last second, on the last pages of SQLite's B-tree, where a random id (the 128 random bits
# of earlier versions) lands on a random page of the whole table: 2.3x the time of a save and 7x
# the bytes written to the WAL and the file (benchmarks/web_player_ids.py). The second tells nothing to anyone but the
# cookie's holder, who knows when they came; 96 random bits keep a live id beyond guessing (and
# two of one second apart). Not a counter, which would tell anyone with two cookies how many
# players came between. Earlier ids stay valid: an id is any ASCII text its tag signs.
# Reseeded in a forked child (a server that forks its workers after making the app), so no two
# share a stream.
_NEW_IDS = random.Random(os.urandom(32))
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _NEW_IDS.seed(os.urandom(32)))


def new_player_id(now: float | None = None) -> str:
    """A new anonymous player's id: "a:", the UNIX second ``now`` (the clock's when None) in 8 hex
    digits, then 96 random bits in 24."""
    second = int(time.time() if now is None else now) & 0xFFFFFFFF  # 8 digits until 2106, then from 0 again
    return f"a:{second:08x}{_NEW_IDS.getrandbits(96):024x}"


class Players:
    """Player ids: read from the embedding server's scope or a signed cookie, or made anew."""

    def __init__(self, signer: Signer) -> None:
        self._signer = signer

    def _tag(self, player: str, key: int = 0) -> str:
        mac = self._signer.derive(b"player|" + player.encode("ascii"), 16, key)
        return binascii.b2a_base64(mac, newline=False).decode("ascii").rstrip("=").replace("+", "-").replace("/", "_")

    def cookie_value(self, player: str) -> str:
        """The cookie value naming ``player`` (its id and tag)."""
        return f"{player}.{self._tag(player)}"

    def from_cookie(self, value: str) -> str | None:
        """The player a cookie value names, or None when it is not one this server made (with its
        current or an old secret)."""
        player, dot, tag = value.partition(".")
        if not dot or not 0 < len(player) <= MAX_PLAYER_CHARS or not player.isascii():
            return None
        for key in range(self._signer.key_count):
            if hmac.compare_digest(self._tag(player, key), tag):
                return player
        return None

    def identify(self, scope: MutableMapping[str, Any]) -> tuple[str, bytes | None]:
        """(player id, Set-Cookie header value or None) for a request: the embedding server's
        player, else the cookie's, else a new anonymous player with the cookie to set."""
        named = scope.get(SCOPE_KEY)
        if isinstance(named, str) and 0 < len(named) <= MAX_PLAYER_CHARS:
            return "u:" + named, None
        for value in _cookies(scope.get("headers", ()), COOKIE)[:MAX_COOKIE_TRIES]:
            player = self.from_cookie(value)
            if player is not None:
                return player, None
        player = new_player_id()
        header = f"{COOKIE}={self.cookie_value(player)}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Lax"
        return player, header.encode("ascii")


def _cookies(headers: Iterable[tuple[bytes, bytes]], name: str) -> list[str]:
    """Every value of cookie ``name`` in the request's Cookie headers (a header without the name is
    not split: most cookies of a site are other sites' business)."""
    found = []
    needle = name.encode("ascii") + b"="
    for key, value in headers:
        if key == b"cookie" and needle in value:
            for part in value.decode("latin-1").split(";"):
                k, eq, v = part.strip().partition("=")
                if eq and k == name:
                    found.append(v)
    return found
