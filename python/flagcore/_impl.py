"""The one switch between the compiled core and the pure-Python reference twin.

``core`` is the only place that says which implementation runs: ``core.puzzle``, ``core.rng``,
``core.signatures`` and ``core.connections`` are the four engine modules, either the compiled
``flagcore._<engine>`` or ``flagcore.reference.<engine>``. Public modules read them at call time
(``core.puzzle.deal(...)``), never copy them into a global of their own, so ``core.use`` switches
the whole package at once (the tests' ``twin`` fixture calls it, and calls it again to switch back).

The environment chooses at first use: FLAGCORE_IMPL=python (or ``reference``) the twin everywhere,
as rapidfuzz's RAPIDFUZZ_IMPLEMENTATION does; unset, ``compiled`` or ``cython`` the compiled
modules. Any other value raises ``ImplError`` naming the choices; the ``flagcore`` command turns it
into one line on stderr.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ._engines import ConnectionsEngine, PuzzleEngine, RngEngine, SignaturesEngine
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


# One loader per engine: each imports that engine of one twin, by name, so that mypy checks both
# twins' modules against the engine's Protocol (flagcore._engines) where they are returned.


def _load_puzzle(twin: str) -> PuzzleEngine:
    if twin == "python":
        from .reference import puzzle

        return puzzle
    from . import _puzzle

    return _puzzle


def _load_rng(twin: str) -> RngEngine:
    if twin == "python":
        from .reference import rng

        return rng
    from . import _rng

    return _rng


def _load_signatures(twin: str) -> SignaturesEngine:
    if twin == "python":
        from .reference import signatures

        return signatures
    from . import _signatures

    return _signatures


def _load_connections(twin: str) -> ConnectionsEngine:
    if twin == "python":
        from .reference import connections

        return connections
    from . import _connections

    return _connections


LOADERS: dict[str, Callable[[str], Any]] = {
    "puzzle": _load_puzzle,
    "rng": _load_rng,
    "signatures": _load_signatures,
    "connections": _load_connections,
}


def load(name: str, engine: str) -> Any:
    """Engine ``engine`` of implementation ``name`` ("compiled" or "python"), imported."""
    if name not in ("compiled", "python"):
        raise ImplError(f"implementation must be 'compiled' or 'python', not {name!r}")
    return LOADERS[engine](name)


def modules(name: str) -> dict[str, Any]:
    """The four engine modules of implementation ``name`` ("compiled" or "python")."""
    if name not in ("compiled", "python"):
        raise ImplError(f"implementation must be 'compiled' or 'python', not {name!r}")
    return {e: load(name, e) for e in ENGINES}


class Core:
    """The engine modules in use. Until the first use, each attribute holds a placeholder that
    reads FLAGCORE_IMPL, imports its module and puts it in its place; from then on ``core.puzzle``
    is a plain slot read (no ``__getattr__`` on this class: that would keep CPython from
    specializing the attribute load, and the small public calls would pay ~20 ns each)."""

    __slots__ = ("name", *ENGINES)
    name: str | None
    puzzle: PuzzleEngine
    rng: RngEngine
    signatures: SignaturesEngine
    connections: ConnectionsEngine

    def __init__(self) -> None:
        self.use(None)

    def use(self, name: str | None) -> str | None:
        """Point the whole package at implementation ``name`` ("compiled" or "python"); None goes
        back to choosing from FLAGCORE_IMPL at first use. Returns the name in use before."""
        previous: str | None = getattr(self, "name", None)
        if name is None:
            self.name = None
            for engine in ENGINES:
                setattr(self, engine, _Pending(self, engine))  # read as the module it will become
        else:
            chosen = modules(name)
            self.name = name
            for engine in ENGINES:
                setattr(self, engine, chosen[engine])
        return previous

    def check(self) -> str:
        """The name of the implementation in use, choosing it from FLAGCORE_IMPL if none is yet."""
        if self.name is None:
            self.name = choice_from_env()
        return self.name

    def resolve(self, engine: str) -> Any:
        """Import one engine of the implementation in use and keep it (a placeholder calls this)."""
        module = load(self.check(), engine)
        setattr(self, engine, module)
        return module


class _Pending:
    """An engine not imported yet: the first attribute read imports it (see Core)."""

    def __init__(self, core: Core, engine: str) -> None:
        self._core = core
        self._engine = engine

    def __getattr__(self, attr: str) -> object:
        return getattr(self._core.resolve(self._engine), attr)


core = Core()


def __getattr__(attr: str) -> str:
    # ``_impl.IMPL``: the name of the implementation in use (kept for scripts that read it).
    if attr == "IMPL":
        return core.check()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
