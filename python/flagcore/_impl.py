"""The one switch between the compiled core and the pure-Python reference twin.

``core`` is the only place that says which implementation runs: ``core.puzzle``, ``core.rng``,
``core.signatures`` and ``core.connections`` are the four engine modules, either the compiled
``flagcore._<engine>`` or ``flagcore.reference.<engine>``. Public modules read them at call time
(``core.puzzle.deal(...)``), never copy them into a global of their own, so ``use`` switches the
whole package at once (the tests' ``twin`` fixture calls it).

The environment chooses at first use: FLAGCORE_IMPL=python (or ``reference``) the twin everywhere,
as rapidfuzz's RAPIDFUZZ_IMPLEMENTATION does; unset, ``compiled`` or ``cython`` the compiled
modules. Any other value raises ``ImplError`` naming the choices; the ``flagcore`` command turns it
into one line on stderr.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from .errors import ImplError

ENGINES = ("puzzle", "rng", "signatures", "connections")
# Accepted spellings: the compiled core is Cython, and the twin is the reference.
_ALIASES = {"": "compiled", "compiled": "compiled", "cython": "compiled", "python": "python", "reference": "python"}


def choice_from_env() -> str:
    """The implementation FLAGCORE_IMPL names ("compiled" or "python"); ImplError for anything else."""
    asked = os.environ.get("FLAGCORE_IMPL", "")
    name = _ALIASES.get(asked.strip().lower())
    if name is None:
        raise ImplError(
            f"FLAGCORE_IMPL={asked!r} is not understood: use 'compiled' (or 'cython') for the compiled core, "
            "'python' (or 'reference') for the pure-Python twin, or leave it unset"
        )
    return name


def modules(name: str) -> dict[str, ModuleType]:
    """The four engine modules of implementation ``name`` ("compiled" or "python")."""
    if name == "python":
        return {e: importlib.import_module(f"flagcore.reference.{e}") for e in ENGINES}
    if name == "compiled":
        return {e: importlib.import_module(f"flagcore._{e}") for e in ENGINES}
    raise ImplError(f"implementation must be 'compiled' or 'python', not {name!r}")


class Core:
    """The engine modules in use; attributes load on first access, from FLAGCORE_IMPL."""

    name: str
    puzzle: ModuleType
    rng: ModuleType
    signatures: ModuleType
    connections: ModuleType

    def __getattr__(self, attr: str) -> object:
        # Only reached before the first ``use``: choose from the environment, then read again.
        if attr not in ENGINES and attr != "name":
            raise AttributeError(attr)
        self.use(choice_from_env())
        return object.__getattribute__(self, attr)

    def use(self, name: str) -> None:
        """Point the whole package at implementation ``name`` ("compiled" or "python")."""
        self.__dict__.update(modules(name), name=name)


core = Core()


def __getattr__(attr: str) -> str:
    # ``_impl.IMPL``: the name of the implementation in use (kept for scripts that read it).
    if attr == "IMPL":
        return core.name
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
