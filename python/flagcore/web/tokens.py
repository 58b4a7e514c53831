"""Signed tokens: game state that travels with the client, and the server secrets that sign it.

A token is ``<kid>.<payload>.<tag>``, each base64url without padding: ``kid`` names the secret
that signed it (6 bytes of an HMAC of the secret: public, reveals nothing), ``payload`` is compact
JSON and ``tag`` is HMAC-SHA256 over the payload bytes under that secret's token key. The payload
is readable by anyone (it holds nothing the player has not earned) but cannot be changed without
the secret, so any worker sharing the secret can trust it.

Each token has one spelling: the three parts must be exactly what the server wrote (the strict
base64url alphabet, no padding, zero unused bits), so a token cannot be re-spelt into a second,
equally valid text; any other spelling is refused as altered.

Secrets: the current one signs; old ones (rotation) still verify tokens, player cookies and board
ids until they are removed, and never sign. A token whose kid is none of them was signed under a
secret this server no longer has: the server's secret changed (not a forgery to report as such).

Every payload carries ``k`` (the token's kind, so a Puzzle token is never accepted as a
Connections state), ``exp`` (UNIX seconds after which it is refused) and ``jti`` (an id unique to
the token, what single-use checks key on).
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

from .._args.secret import as_key_bytes, as_old_secrets, as_secret
from .._args.web import canonical_b64url
from ..errors import ExpiredTokenError, ForgedTokenError, TokenError, UnknownKeyError

SECRET_ENV = "FLAGCORE_SECRET"
OLD_SECRETS_ENV = "FLAGCORE_OLD_SECRETS"  # whitespace-separated: rotation (verify, never sign)
MAX_TOKEN_CHARS = 8192  # a finished Connections game is about 700 characters

# The single-use hook: called with (kind, jti, exp) when a token is spent (a verified Puzzle
# result); return False to refuse it as already used. The server keeps no store of its own.
SpendHook = Callable[[str, str, int], bool]


_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")
_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


def _b64(data: bytes) -> str:
    """base64url without padding (binascii directly: base64.urlsafe_b64encode adds Python layers)."""
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).rstrip(b"=").decode("ascii")


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


def secret_from_env(environ: dict[str, str] | None = None) -> bytes | None:
    """FLAGCORE_SECRET, or None when it is unset. It must carry at least 128 bits of entropy
    (ValueError saying how to make one)."""
    env = os.environ if environ is None else environ
    value = env.get(SECRET_ENV, "")
    return as_secret(value, SECRET_ENV) if value else None


def old_secrets_from_env(environ: dict[str, str] | None = None) -> tuple[bytes, ...]:
    """The old secrets of FLAGCORE_OLD_SECRETS (whitespace-separated): they verify until they are
    removed, never sign; each must be at least 16 characters."""
    env = os.environ if environ is None else environ
    return as_old_secrets(env.get(OLD_SECRETS_ENV, ""), OLD_SECRETS_ENV)


def secret_file(path: str | os.PathLike[str]) -> bytes:
    """The secret kept in the file at ``path``, made (256 bits, readable by its owner only) if
    there is none; every worker started together reads the one the first of them wrote."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        text = ""
        for _ in range(100):  # another worker may be writing it this instant
            with open(path, encoding="utf-8") as f:
                text = f.read().strip()
            if text:
                break
            time.sleep(0.01)
        return as_secret(text, f"the secret in {os.fspath(path)}")
    made = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(made + "\n")
    return made.encode("ascii")


class _Jtis:
    """Token ids: a random prefix per process and a counter. os.urandom per token would cost a
    system call; a jti needs to be unique, not secret (the payload is readable). Per process, not
    per Signer: a server that forks its workers after making the app (``--workers``, preload)
    reseeds the prefix in each child, or two workers would hand out the same ids and a Puzzle
    result spent on one would refuse another's."""

    def __init__(self) -> None:
        self.reseed()

    def reseed(self) -> None:
        self.prefix = _b64(os.urandom(9))
        self.count = itertools.count()


_JTIS = _Jtis()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_JTIS.reseed)


class _Key:
    """What one secret keys: tokens, derived values (board ids, player cookies) and its public id."""

    def __init__(self, secret: bytes) -> None:
        as_key_bytes(secret)
        # Separate keys per use, so a MAC of one kind can never stand in for another; the token
        # key's version changes with the token format, so an older token is refused, not misread.
        self.token_mac = Mac(hmac.digest(secret, b"flagcore token v3", "sha256"))
        self.derive_mac = Mac(hmac.digest(secret, b"flagcore derive v1", "sha256"))
        self.kid = _b64(hmac.digest(secret, b"flagcore key id v1", "sha256")[:6])


class Signer:
    """Signs and checks tokens, and derives keyed values, from the server's secrets: ``secret``
    signs, each of ``old`` still verifies (rotation). Key 0 is the current secret, 1.. the old
    ones in order (``derive``'s ``key``)."""

    def __init__(self, secret: bytes, old: tuple[bytes, ...] = ()) -> None:
        self._keys = [_Key(s) for s in (secret, *old)]
        self._by_kid = {k.kid: i for i, k in reversed(list(enumerate(self._keys)))}
        self._token_mac = self._keys[0].token_mac
        self._kid = self._keys[0].kid

    @property
    def key_count(self) -> int:
        """How many secrets verify: the current one and the old ones."""
        return len(self._keys)

    def kid(self, key: int = 0) -> str:
        """The public id of secret ``key`` (0: the current one)."""
        return self._keys[key].kid

    def key_of(self, kid: str) -> int | None:
        """The index of the secret whose id is ``kid``, or None."""
        return self._by_kid.get(kid)

    def derive(self, label: bytes, length: int = 4, key: int = 0) -> bytes:
        """``length`` pseudo-random bytes fixed by ``label`` and secret ``key`` (HMAC-SHA256)."""
        return self._keys[key].derive_mac.digest(label)[:length]

    def sign(self, kind: str, payload: dict[str, Any], ttl: int, now: float | None = None) -> str:
        """A token of ``kind`` carrying ``payload`` (plus k, exp and jti), valid for ``ttl`` seconds."""
        raw = orjson.dumps(
            {
                **payload,
                "k": kind,
                "exp": int((time.time() if now is None else now) + ttl),
                "jti": f"{_JTIS.prefix}{next(_JTIS.count):x}",
            }
        )  # the MAC covers these bytes
        return f"{self._kid}.{_b64(raw)}.{_b64(self._token_mac.digest(raw))}"

    def check(self, kind: str, token: Any, now: float | None = None) -> dict[str, Any]:
        """The payload of a genuine, unexpired token of ``kind`` (with ``"key"``: the index of the
        secret that signed it); TokenError (or a subclass) otherwise."""
        if not isinstance(token, str):
            raise TokenError(f"token must be a string, not {type(token).__name__}")
        if len(token) > MAX_TOKEN_CHARS:
            raise TokenError(f"token is longer than {MAX_TOKEN_CHARS} characters")
        parts = token.split(".")
        if len(parts) != 3 or not all(parts):
            raise TokenError("token is malformed (expected <key id>.<payload>.<signature>)")
        kid, head, tail = parts
        key = self._by_kid.get(kid)  # the server's key ids are canonical: a hit needs no decoding
        # the spelling first: a re-spelt token is altered, whichever part was re-spelt
        raw, tag = canonical_b64url(head), canonical_b64url(tail)
        if raw is None or tag is None or (key is None and len(canonical_b64url(kid) or b"") != 6):
            raise ForgedTokenError("token is altered: not spelt as the server wrote it (base64url)")
        if key is None:
            raise UnknownKeyError(
                "token was signed with a secret this server no longer has: the server's secret changed "
                "since (or the token is from another server); start a new game"
            )
        good = self._keys[key].token_mac.digest(raw)
        if not hmac.compare_digest(good, tag):
            raise ForgedTokenError("token signature does not match: forged or altered")
        body: dict[str, Any] = orjson.loads(raw)  # signed by us, so well-formed
        if body.get("k") != kind:
            raise TokenError(f"token is a {body.get('k')!r} token, this endpoint needs a {kind!r} token")
        if (time.time() if now is None else now) > body["exp"]:
            raise ExpiredTokenError("token has expired; start a new game")
        body["key"] = key
        return body
