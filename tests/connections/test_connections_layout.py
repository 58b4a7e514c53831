"""One owner for the Connections search's layout, and twins that are leaves.

The status codes, counter indices, skip reasons and event kinds are declared for C in
src/flagcore/connections_search.pxd and for Python in flagcore._connections_layout; the compiled
module reports the values it was built with (``_connections.LAYOUT``), which must be the mirror's.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from flagcore import _connections
from flagcore import _connections_layout as layout
from flagcore.connections import assembly
from flagcore.reference import connections as ref_connections

PXD = Path(__file__).resolve().parents[2] / "src" / "flagcore" / "connections_search.pxd"


def test_compiled_layout_is_the_mirror():
    assert _connections.LAYOUT == layout.LAYOUT


def test_mirror_names_match_the_pxd():
    """Every enum value in the .pxd has the same value under the same name in the mirror."""
    declared = dict(re.findall(r"^\s+([A-Z][A-Z0-9_]*) = (\d+)", PXD.read_text("utf-8"), flags=re.M))
    renamed = {"EW": "EVENT_WIDTH", "NCOUNTERS": "COUNTERS", "N_REASONS": "REASONS", "N_EVENT_KINDS": "EVENT_KINDS"}
    assert declared, "no enum values found in the .pxd"
    for name, value in declared.items():
        assert layout.LAYOUT[renamed.get(name, name)] == int(value), name
    assert len(layout.REASONS) == layout.LAYOUT["REASONS"] and len(layout.EVENT_KINDS) == layout.LAYOUT["EVENT_KINDS"]


def test_reference_and_generator_use_the_mirror():
    for name in ("STATUS_OK", "C_MOVES", "C_SKIPS", "E_DECOY", "REASONS", "EVENT_KINDS", "COUNTERS"):
        assert getattr(ref_connections, name) is getattr(layout, name)
    assert assembly.REASONS is layout.REASONS and assembly.EVENT_KINDS is layout.EVENT_KINDS


TWINS = [
    "flagcore._connections",
    "flagcore.reference.connections",
    "flagcore._puzzle",
    "flagcore.reference.puzzle",
    "flagcore._rng",
    "flagcore.reference.rng",
    "flagcore._signatures",
    "flagcore.reference.signatures",
]
ABOVE = (
    "flagcore.connections",
    "flagcore.puzzle",
    "flagcore.signatures",
    "flagcore.library",
    "flagcore.cli",
    "flagcore.web",
    "flagcore.pictures",
)


@pytest.mark.parametrize("twin", TWINS)
def test_twins_import_nothing_above_them(twin):
    """Imported alone in a fresh interpreter, a twin loads none of the public modules."""
    code = (
        f"import sys, importlib; importlib.import_module({twin!r}); "
        f"print(sorted(m for m in sys.modules if m.startswith({ABOVE!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_reference_connections_source_has_no_upward_import():
    tree = ast.parse(Path(ref_connections.__file__).read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = "." * node.level + (node.module or "")
            assert not target.startswith(("..connections", "..library")), target
