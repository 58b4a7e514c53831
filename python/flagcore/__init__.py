"""flagcore: the engine behind two flag puzzles, Connections and Puzzle.

``flagcore.Rng`` and ``flagcore.shuffle`` are the seeded randomness every random choice uses;
``flagcore.puzzle``, ``flagcore.connections``, ``flagcore.signatures`` and ``flagcore.library``
are the engines; ``flagcore.types`` names the values they take (Mode, Difficulty, Grid) and
``flagcore.errors`` the exceptions they raise. Submodules load on first use so ``import flagcore``
stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._impl import core as _core
from ._version import __version__

if TYPE_CHECKING:
    # Type checkers see the compiled module's stub (the reference twin has the same signatures)
    # and the submodules as modules, not as the Any that __getattr__ returns.
    from . import connections, library, puzzle, reference, signatures, types  # noqa: F401
    from ._rng import Rng, shuffle

_SUBMODULES = ("puzzle", "connections", "signatures", "library", "reference", "types")

__all__ = ["Rng", "shuffle", "__version__", *_SUBMODULES]


def __getattr__(name: str) -> Any:
    # Rng and shuffle are read from the implementation in use at each access (flagcore._impl).
    if name in ("Rng", "shuffle"):
        return getattr(_core.rng, name)
    if name in _SUBMODULES:
        return importlib.import_module(f"flagcore.{name}")
    raise AttributeError(f"module 'flagcore' has no attribute {name!r}")
