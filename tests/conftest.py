"""Shared fixtures: ``twin`` runs a test once on the compiled core and once on the reference twin.

``use_twin`` points every public module at one implementation, which is what FLAGCORE_IMPL does
at import time (flagcore._impl.pick); a test using ``twin`` therefore exercises the public API
over both twins in one run, whatever FLAGCORE_IMPL says. CI also runs the whole suite with
FLAGCORE_IMPL=python (.ci/run).
"""

from __future__ import annotations

from types import ModuleType

import pytest

import flagcore
from flagcore import _connections, _puzzle, _rng, _signatures, puzzle, signatures
from flagcore.connections import generator, ids
from flagcore.reference import connections as ref_connections
from flagcore.reference import puzzle as ref_puzzle
from flagcore.reference import rng as ref_rng
from flagcore.reference import signatures as ref_signatures

TWINS: dict[str, dict[str, ModuleType]] = {
    "compiled": {"puzzle": _puzzle, "rng": _rng, "signatures": _signatures, "connections": _connections},
    "python": {"puzzle": ref_puzzle, "rng": ref_rng, "signatures": ref_signatures, "connections": ref_connections},
}


def use_twin(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the public modules call the twin ``name`` ("compiled" or "python")."""
    twin = TWINS[name]
    monkeypatch.setattr(flagcore, "Rng", twin["rng"].Rng)
    monkeypatch.setattr(flagcore, "shuffle", twin["rng"].shuffle)
    monkeypatch.setattr(puzzle, "_core", twin["puzzle"])
    monkeypatch.setattr(puzzle, "_rng", twin["rng"])
    monkeypatch.setattr(signatures, "_impl", twin["signatures"])
    monkeypatch.setattr(generator, "_impl", twin["connections"])
    monkeypatch.setattr(generator, "_seed_to_state", twin["rng"].seed_to_state)
    monkeypatch.setattr(ids, "_rng", twin["rng"])


@pytest.fixture(params=list(TWINS))
def twin(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    use_twin(monkeypatch, request.param)
    return str(request.param)
