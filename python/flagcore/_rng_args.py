"""Argument checks shared by the compiled Rng (flagcore._rng) and its twin (flagcore.reference.rng).

One implementation, so both accept and reject exactly the same values; the compiled ``below``
casts to uint32 afterwards, which would silently truncate a float or wrap an out-of-range int.
"""
from __future__ import annotations

import operator
from typing import Any


def check_bound(bound: Any) -> int:
    """``bound`` for Rng.below: an int (or numpy integer, never a bool) in [1, 2**32)."""
    if isinstance(bound, bool):
        raise TypeError("bound must be an int in [1, 2**32), not bool")
    try:
        value = operator.index(bound)
    except TypeError:
        raise TypeError(f"bound must be an int in [1, 2**32), not {type(bound).__name__}") from None
    if not 1 <= value < 2**32:
        raise ValueError(f"bound must be in [1, 2**32), got {value}")
    return value
