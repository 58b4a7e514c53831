"""Players: who a game in the store belongs to.

With a store, each game is kept per (player, board). A player is either

- **named by the embedding server**: an ASGI app that mounts flagcore and knows its users sets
  ``scope["flagcore.player"]`` (a str of 1..128 characters) before calling it; flagcore trusts it
  as it trusts its caller, and sets no cookie; or
- **anonymous**: a random id in a signed cookie, ``flagcore_player=<id>.<tag>`` (HttpOnly,
  SameSite=Lax, a year and a month), made at the player's first request. The tag is a MAC under
  the server secret, so a client cannot choose another player's id; a client can always drop the
  cookie and start as a new player, which no server can prevent without accounts.
"""

from __future__ import annotations

import binascii
import contextvars
import hmac
import os
import random
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


# A new player's id needs to be unique, not secret (its cookie's tag is what a client cannot make):
# 128 bits of a generator seeded from the OS, rather than a system call per first visit, and not a
# counter, which would tell anyone with two cookies how many players came between. Reseeded in a
# forked child (a server that forks its workers after making the app), so no two share a stream.
_NEW_IDS = random.Random(os.urandom(32))
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _NEW_IDS.seed(os.urandom(32)))


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
        player = f"a:{_NEW_IDS.getrandbits(128):032x}"
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
