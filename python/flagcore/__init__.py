"""flagcore: the engine behind two flag puzzles, Connections and Puzzle.

``flagcore.Rng`` and ``flagcore.shuffle`` are the seeded randomness every random choice uses;
``flagcore.puzzle``, ``flagcore.connections``, ``flagcore.signatures`` and ``flagcore.library``
are the engines. Submodules load on first use so ``import flagcore`` stays cheap.
"""
from __future__ import annotations

import importlib
from typing import Any

from ._impl import pick as _pick
from ._version import __version__

_rng = _pick("_rng", "rng")
Rng = _rng.Rng
shuffle = _rng.shuffle

_SUBMODULES = ("puzzle", "connections", "signatures", "library", "reference")

__all__ = ["Rng", "shuffle", "__version__", *_SUBMODULES]


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"flagcore.{name}")
    raise AttributeError(f"module 'flagcore' has no attribute {name!r}")
