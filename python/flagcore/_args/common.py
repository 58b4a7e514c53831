"""Rules shared by every area: seeds (as values and as typed text), the seeded Rng, flag codes, and
the plain counts and ranges of the command line's options."""

from __future__ import annotations

import operator
import re
from typing import Any

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError

MAX_SEED_CHARS = 64  # a typed seed (CLI, URL); longer text is a paste error, not a wish
# A flag code: ISO 3166-1 alpha-2 ("FR") or a regional flag ("GB-ENG"). Matched before upper-casing,
# so no other letter folds into an ASCII one ("ß".upper() is "SS").
_FLAG_CODE = re.compile(r"[A-Za-z]{2}(?:-[A-Za-z]{2,3})?")
_DIGITS = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-][0-9]+")


def is_int(x: Any) -> bool:
    """An int or numpy integer, never a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


# ---------------------------------------------------------------- randomness


def as_seed(seed: Any) -> int | str:
    """A seed: an int in [0, 2**32) (numpy integers and other ``__index__`` types too) or a str."""
    if isinstance(seed, str):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        if hasattr(seed, "__index__") and not isinstance(seed, bool):
            seed = int(seed.__index__())
        else:
            raise ArgumentTypeError(f"seed must be an int in [0, 2**32) or a str, not {type(seed).__name__}")
    if not 0 <= seed < 2**32:
        raise ArgumentError(f"seed must be in [0, 2**32), got {seed}")
    return int(seed)


def as_bound(bound: Any) -> int:
    """``bound`` for Rng.below: an int (or numpy integer, never a bool) in [1, 2**32)."""
    if isinstance(bound, bool):
        raise ArgumentTypeError("bound must be an int in [1, 2**32), not bool")
    try:
        value = operator.index(bound)
    except TypeError:
        raise ArgumentTypeError(f"bound must be an int in [1, 2**32), not {type(bound).__name__}") from None
    if not 1 <= value < 2**32:
        raise ArgumentError(f"bound must be in [1, 2**32), got {value}")
    return value


def check_rng(rng: Any, rng_type: type) -> None:
    """``rng`` for shuffle: an Rng of the twin in use (its state is what shuffle draws from)."""
    if not isinstance(rng, rng_type):
        raise ArgumentTypeError(f"rng must be a flagcore.Rng, not {type(rng).__name__}")


def parse_seed_text(text: str, name: str = "seed") -> int | str:
    """A seed as a person types it (the CLI's --seed, the server's ?seed=): the one reading of both.

    All ASCII digits is an int seed in [0, 2^32); anything else of 1..64 characters is a str seed.
    An empty seed and a signed number ("-1", "+7") are refused: each is far more likely a typo or
    a misunderstanding than a wish for the str seed of that text.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{name} must be a str, not {type(text).__name__}")
    if not text.strip():
        raise ArgumentError(f"{name} is empty: give an int in [0, 2^32) or a word")
    if len(text) > MAX_SEED_CHARS:
        raise ArgumentError(f"{name} must be at most {MAX_SEED_CHARS} characters, got {len(text)}")
    if _SIGNED.fullmatch(text.strip()):
        raise ArgumentError(
            f"{name} {text}: int seeds are in [0, 2^32) and unsigned; for a str seed use a word (e.g. daily:2026-11-29)"
        )
    if _DIGITS.fullmatch(text):
        value = int(text)
        if value >= 1 << 32:
            raise ArgumentError(f"{name} {text}: int seeds are in [0, 2^32)")
        return value
    return text


# ---------------------------------------------------------------- flag codes


def as_flag_code(value: Any, name: str) -> str:
    """A flag code ("fr", " GB-eng ") as the upper-case code ("FR", "GB-ENG"): the one rule for every caller.

    Surrounding whitespace is dropped; the code itself is two ASCII letters, optionally a dash and
    two or three more. Whether artwork exists for it is the caller's question.
    """
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a str, not {type(value).__name__}")
    code = value.strip()
    if not _FLAG_CODE.fullmatch(code):
        raise ArgumentError(f"{name} must be a flag code like 'FR' or 'GB-ENG', got {value!r}")
    return code.upper()


# ---------------------------------------------------------------- counts and ranges (CLI options)


def as_at_least(value: Any, name: str, low: int) -> int:
    """An int (never a bool) >= low: a count such as --seeds, --threads or --workers."""
    if not is_int(value):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ArgumentError(f"{name} must be >= {low}, got {value}")
    return int(value)


def as_in_range(value: Any, name: str, low: int, high: int) -> int:
    """An int (never a bool) in low..high, both included: a port number, for instance."""
    if not is_int(value):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ArgumentError(f"{name} must be in {low}..{high}, got {value}")
    return int(value)
