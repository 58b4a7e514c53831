"""Pure-Python mulberry32 and Fisher-Yates, the twin of flagcore._rng."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from .._args.common import as_bound, as_seed, check_rng

T = TypeVar("T")
_MASK = 0xFFFFFFFF


def fnv1a32(data: bytes) -> int:
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & _MASK
    return h


def seed_to_state(seed: Any) -> int:
    """Validate a seed and return its uint32 state: int in [0, 2**32) or str (FNV-1a 32 of UTF-8)."""
    checked = as_seed(seed)
    if isinstance(checked, str):
        return fnv1a32(checked.encode("utf-8", "surrogatepass"))
    return checked


class Rng:
    """mulberry32, the same stream as the JavaScript original: Rng(seed)() -> float in [0, 1).

    ``state`` is the generator's uint32 state: save it and assign it back to resume the stream.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0) -> None:
        self.state = seed_to_state(seed)

    def next_uint32(self) -> int:
        """The next draw as the integer u (the float is u / 2**32)."""
        a = (self.state + 0x6D2B79F5) & _MASK
        self.state = a
        t = ((a ^ (a >> 15)) * (a | 1)) & _MASK
        t ^= (t + ((t ^ (t >> 7)) * (t | 61))) & _MASK
        return (t ^ (t >> 14)) & _MASK

    def __call__(self) -> float:
        return self.next_uint32() / 4294967296.0

    def below(self, bound: int) -> int:
        """Math.floor(rng() * bound) for 1 <= bound < 2**32."""
        checked = as_bound(bound)  # before drawing: a rejected call leaves the state alone
        return (self.next_uint32() * checked) >> 32

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#010x})"


def shuffle(seq: Iterable[T], rng: Rng) -> list[T]:
    """The spec's shuffleArray: Fisher-Yates on a copy, rng in place of Math.random."""
    check_rng(rng, Rng)
    out = list(seq)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
