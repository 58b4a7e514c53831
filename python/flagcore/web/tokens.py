"""Signed tokens: game state that travels with the client instead of living on the server.

A token is ``<payload>.<tag>``, both base64url without padding: ``payload`` is compact JSON, and
``tag`` is HMAC-SHA256 over the payload bytes, keyed with the server's secret. The payload is
readable by anyone (it holds nothing the player has not earned) but cannot be changed without
the secret, so any worker sharing the secret can trust it and no worker needs to store it.

Every payload carries ``k`` (the token's kind, so a Puzzle token is never accepted as a
Connections state), ``exp`` (UNIX seconds after which it is refused) and ``jti`` (an id unique to
the token, what an embedding server's single-use hook keys on).
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import itertools
import os
import secrets
import time
from collections.abc import Callable
from typing import Any

import orjson

from ..errors import ExpiredTokenError, ForgedTokenError, TokenError

SECRET_ENV = "FLAGCORE_SECRET"
MAX_TOKEN_CHARS = 8192  # a finished Connections game is about 700 characters

# The single-use hook: called with (kind, jti, exp) when a token is spent (a verified Puzzle
# result); return False to refuse it as already used. The server keeps no store of its own.
SpendHook = Callable[[str, str, int], bool]


_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")
_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


def _b64(data: bytes) -> str:
    """base64url without padding (binascii directly: base64.urlsafe_b64encode adds Python layers)."""
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """The bytes of base64url text (padding optional); binascii.Error or ValueError when it is not."""
    raw = text.encode("ascii")  # UnicodeEncodeError is a ValueError
    return binascii.a2b_base64(raw.translate(_FROM_URLSAFE) + b"=" * (-len(raw) % 4))


class Mac:
    """HMAC-SHA256 under one key, with the key's inner and outer pads hashed once.

    The same MAC as ``hmac.digest(key, message, "sha256")``, which hashes both pads again at every
    call: this is about half its cost, and a server computes two or three MACs per request.
    """

    def __init__(self, key: bytes) -> None:
        block = hashlib.sha256(key).digest() if len(key) > 64 else key
        block = block.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in block))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in block))

    def digest(self, message: bytes) -> bytes:
        """The 32-byte HMAC-SHA256 of ``message``."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


def secret_from_env(environ: dict[str, str] | None = None) -> tuple[bytes, bool]:
    """The secret from FLAGCORE_SECRET, or a random per-process one; returns (secret, from_env).

    Every worker and machine serving one game must share the secret: with a random one, tokens
    and board ids from one process are refused by every other (and after a restart).
    """
    env = os.environ if environ is None else environ
    value = env.get(SECRET_ENV, "")
    if value:
        if len(value) < 16:
            raise ValueError(f"{SECRET_ENV} must be at least 16 characters (use e.g. `openssl rand -hex 32`)")
        return value.encode("utf-8"), True
    return secrets.token_bytes(32), False


class Signer:
    """Signs and checks tokens, and derives keyed values, from one server secret."""

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, bytes) or len(secret) < 16:
            raise ValueError("secret must be at least 16 bytes")
        # Separate keys per use, so a MAC of one kind can never stand in for another; the token
        # key's version changes with the payload format, so an older token is refused, not misread.
        self._token_mac = Mac(hmac.digest(secret, b"flagcore token v2", "sha256"))
        self._derive_mac = Mac(hmac.digest(secret, b"flagcore derive v1", "sha256"))
        # jti: unique per token, a random prefix per Signer and a counter (os.urandom per token
        # would cost a system call; the jti needs to be unique, not secret: the payload is readable)
        self._jti_prefix = _b64(os.urandom(9))
        self._jti_count = itertools.count()

    def derive(self, label: bytes, length: int = 4) -> bytes:
        """``length`` pseudo-random bytes fixed by ``label`` and the secret (HMAC-SHA256)."""
        return self._derive_mac.digest(label)[:length]

    def sign(self, kind: str, payload: dict[str, Any], ttl: int, now: float | None = None) -> str:
        """A token of ``kind`` carrying ``payload`` (plus k, exp and jti), valid for ``ttl`` seconds."""
        raw = orjson.dumps(
            {
                **payload,
                "k": kind,
                "exp": int((time.time() if now is None else now) + ttl),
                "jti": f"{self._jti_prefix}{next(self._jti_count):x}",
            }
        )  # the MAC covers these bytes
        return f"{_b64(raw)}.{_b64(self._token_mac.digest(raw))}"

    def check(self, kind: str, token: Any, now: float | None = None) -> dict[str, Any]:
        """The payload of a genuine, unexpired token of ``kind``; TokenError otherwise."""
        if not isinstance(token, str):
            raise TokenError(f"token must be a string, not {type(token).__name__}")
        if len(token) > MAX_TOKEN_CHARS:
            raise TokenError(f"token is longer than {MAX_TOKEN_CHARS} characters")
        head, dot, tail = token.partition(".")
        if not dot or not head or not tail:
            raise TokenError("token is malformed (expected <payload>.<signature>)")
        try:
            raw, tag = _unb64(head), _unb64(tail)
        except (binascii.Error, ValueError):
            raise TokenError("token is malformed (not base64url)") from None
        good = self._token_mac.digest(raw)
        if not hmac.compare_digest(good, tag):
            raise ForgedTokenError("token signature does not match: forged, altered, or signed with another secret")
        body = orjson.loads(raw)  # signed by us, so well-formed
        if body.get("k") != kind:
            raise TokenError(f"token is a {body.get('k')!r} token, this endpoint needs a {kind!r} token")
        if (time.time() if now is None else now) > body["exp"]:
            raise ExpiredTokenError("token has expired; start a new game")
        return body  # type: ignore[no-any-return]
