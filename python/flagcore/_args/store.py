"""Rules of the game store: where it is (a store URL) and what a key, a value and a lifetime may be."""

from __future__ import annotations

from typing import Any

from ..errors import ArgumentError, ArgumentTypeError

MAX_KEY_CHARS = 512  # keys are built by the server (player id, board id, token id): far below this
MAX_VALUE_BYTES = 1 << 20  # a finished game is under 1 kB
STORE_FORMS = "none, sqlite:///path/to/file.db (or a plain path) or redis://host:port/db"


def parse_store_url(url: Any) -> tuple[str, str]:
    """``(kind, target)`` of a store URL: ("none", ""), ("sqlite", path) or ("redis", url).

    ``none`` is stateless mode; ``sqlite:///tmp/games.db``, ``sqlite:games.db`` and a plain path
    name a SQLite file; ``redis://`` and ``rediss://`` (TLS) URLs name a Redis database.
    """
    if not isinstance(url, str):
        raise ArgumentTypeError(f"store must be a str ({STORE_FORMS}), not {type(url).__name__}")
    text = url.strip()
    if not text:
        raise ArgumentError(f"store is empty: give {STORE_FORMS}")
    if text.lower() == "none":
        return "none", ""
    scheme, sep, rest = text.partition(":")
    scheme = scheme.lower()
    if sep and scheme in ("redis", "rediss"):
        if not rest.startswith("//") or len(rest) <= 2:
            raise ArgumentError(f"store {_shown(text)}: a Redis URL is redis://host:port/db")
        return "redis", text
    if sep and scheme == "sqlite":
        path = rest[2:] if rest.startswith("//") else rest  # sqlite:///abs/path keeps its leading slash
        if not path:
            raise ArgumentError(f"store {text!r}: name the SQLite file, e.g. sqlite:///var/lib/flagcore/games.db")
        return "sqlite", path
    if sep and "://" in text:
        raise ArgumentError(f"store {_shown(text)}: unknown kind {scheme!r}; give {STORE_FORMS}")
    return "sqlite", text


def _shown(url: str) -> str:
    """A URL as a message may show it: without a password (redis://:secret@host)."""
    head, sep, tail = url.partition("://")
    if sep and "@" in tail:
        tail = "***@" + tail.rpartition("@")[2]
    return repr(head + sep + tail)


def as_key(value: Any, name: str) -> str:
    """A store key part: a non-empty str of at most MAX_KEY_CHARS characters."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a str, not {type(value).__name__}")
    if not 0 < len(value) <= MAX_KEY_CHARS:
        raise ArgumentError(f"{name} must be 1..{MAX_KEY_CHARS} characters, got {len(value)}")
    return value


def as_value(value: Any, name: str = "data") -> bytes:
    """A stored value: bytes of at most MAX_VALUE_BYTES."""
    if not isinstance(value, bytes):
        raise ArgumentTypeError(f"{name} must be bytes, not {type(value).__name__}")
    if len(value) > MAX_VALUE_BYTES:
        raise ArgumentError(f"{name} must be at most {MAX_VALUE_BYTES} bytes, got {len(value)}")
    return value


def as_count(value: Any, name: str, minimum: int) -> int:
    """A plain int (never a bool) of at least ``minimum``: a version, a lifetime, a UNIX time."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise ArgumentError(f"{name} must be at least {minimum}, got {value}")
    return value


def as_store_timeout(value: Any) -> float:
    """A store's timeout in seconds: a number (or its text, from the environment) in (0, 60]."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"store timeout must be a number of seconds, got {value!r}") from None
    if not 0 < seconds <= 60:
        raise ValueError(f"store timeout must be in (0, 60] seconds, got {value!r}")
    return seconds
