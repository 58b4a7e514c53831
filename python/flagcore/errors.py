"""Every exception flagcore defines, under one base: ``except flagcore.errors.FlagcoreError``.

Each one also subclasses the builtin a caller would naturally catch (ValueError for bad data,
RuntimeError for a search that found nothing), so ``except ValueError`` keeps working. A wrong
argument value raises ``ArgumentError`` (a ValueError) and a wrong argument type
``ArgumentTypeError`` (a TypeError), each with one message naming the argument, the same in both
twins (flagcore._args states every rule); ``except (ArgumentError, ArgumentTypeError)`` catches
every bad argument and nothing else. The other classes are for the failures that carry more
meaning than "bad argument".

The modules that raise them re-export them under their old names (``flagcore.puzzle.ParSearchLimit``,
``flagcore.connections.NoBoardError``, ``flagcore.library.LibraryError``,
``flagcore.signatures.SvgRenderError``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "FlagcoreError",
    "ArgumentError",
    "ArgumentTypeError",
    "LibraryError",
    "NoBoardError",
    "ParSearchLimit",
    "SvgRenderError",
    "CairoMissingError",
    "ImplError",
    "StoreUnavailable",
    "ApiError",
    "BoardRequestError",
    "TokenError",
    "ForgedTokenError",
    "ExpiredTokenError",
    "UnknownKeyError",
    "RuleError",
    "SearchLimit",
    "RatingsError",
]


class FlagcoreError(Exception):
    """Base of every exception flagcore defines."""


class ArgumentError(FlagcoreError, ValueError):
    """An argument has the right type but a value the function does not accept; the message names it."""


class ArgumentTypeError(FlagcoreError, TypeError):
    """An argument has a type the function does not accept; the message names it and the types it takes."""


class ImplError(FlagcoreError, ImportError):
    """FLAGCORE_IMPL names no implementation, or the one it names cannot be imported."""


class NoBoardError(FlagcoreError, RuntimeError):
    """No board could be generated. In the fixed search this means none exists for the library and mode."""


class LibraryError(FlagcoreError, ValueError):
    """A library file or category is broken; the message names the file, the category and the problem."""


class SvgRenderError(FlagcoreError, ValueError):
    """The SVG could not be rendered safely (malformed, hostile, external references...)."""


CAIRO_HINT = (
    "drawing flags needs the cairo library, which was not found: install libcairo2 "
    "(Debian/Ubuntu: apt-get install libcairo2; Fedora: dnf install cairo; "
    "macOS: brew install cairo)"
)


class CairoMissingError(FlagcoreError, OSError):
    """The cairo C library (libcairo2) is not installed, so no flag can be drawn."""

    def __init__(self) -> None:
        super().__init__(CAIRO_HINT)


class ParSearchLimit(FlagcoreError, ValueError):
    """The exact par search used up its node budget (max_nodes) before proving the minimum.

    Raised instead of returning anything: a bound in place of par would let a client "beat" par.
    Real flag boards stay far inside the default budget; a board that hits it is adversarial or
    far outside the shipped grids. Pass a larger max_nodes (or None: no limit) to solve it anyway.
    """

    def __init__(self, n: int, k: int, max_nodes: int, row: int | None = None) -> None:
        where = "" if row is None else f"boards[{row}]: "
        super().__init__(
            f"{where}the exact par of this board ({n} tiles, {k} tile classes) needs more than "
            f"max_nodes={max_nodes} search nodes; pass a larger max_nodes, or max_nodes=None for no "
            f"limit, to solve it anyway (hard boards can take minutes)"
        )
        self.n = n
        self.k = k
        self.max_nodes = max_nodes
        self.row = row

    def __reduce__(self) -> tuple[Any, ...]:
        # keeps the exception picklable (process pools hand it back to the parent)
        return (type(self), (self.n, self.k, self.max_nodes, self.row))


class StoreUnavailable(FlagcoreError, ConnectionError):
    """The game store (a SQLite file or a Redis server) did not answer within its timeout.

    Nothing was decided: the caller refuses the request (the server answers 503) and tries again
    later; the store's client reconnects by itself once the store is back.
    """


# ---------------------------------------------------------------- the web server (flagcore.web)
# flagcore.web.jsonapi.ERRORS maps each of these to its HTTP status and JSON error code.


class ApiError(FlagcoreError, ValueError):
    """A request the web API refuses, with its own HTTP ``status`` (4xx) and JSON error ``code``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class BoardRequestError(FlagcoreError, ValueError):
    """A seed, date, mode or board id the web server cannot turn into a board (HTTP 400)."""


class TokenError(FlagcoreError, ValueError):
    """A game token is malformed, of the wrong kind or otherwise unusable (HTTP 400)."""


class ForgedTokenError(TokenError):
    """A game token's signature does not match: forged, altered or signed with another secret (HTTP 403)."""


class ExpiredTokenError(TokenError):
    """A game token has expired (HTTP 410)."""


class UnknownKeyError(TokenError):
    """A game token or board id was made under a secret this server no longer has: the server's
    secret changed (HTTP 403, code ``secret_changed``)."""


class RuleError(FlagcoreError, ValueError):
    """A library category's rule names an unknown attribute or operator, or has the wrong shape."""


class SearchLimit(FlagcoreError, RuntimeError):
    """The reference twin's exact par search ran out of nodes; the twin raises ParSearchLimit instead."""


class RatingsError(FlagcoreError, ValueError):
    """A ratings file that cannot be used: not JSON, too large, a field wrong, an unknown category
    (flagcore.ratings.load_ratings; the CLI exits 2 and the server refuses to start)."""
