"""Choose the compiled core or the pure-Python reference twin.

Set FLAGCORE_IMPL=python to force the reference everywhere (as rapidfuzz's RAPIDFUZZ_IMPLEMENTATION
does); the default uses the compiled modules. Public modules call ``pick`` once at import time.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

IMPL = os.environ.get("FLAGCORE_IMPL", "compiled").strip().lower()
if IMPL not in ("compiled", "python"):
    raise ImportError(f"FLAGCORE_IMPL must be 'compiled' or 'python', got {IMPL!r}")


def pick(compiled: str, reference: str) -> ModuleType:
    """Import ``flagcore.<compiled>`` unless FLAGCORE_IMPL=python, else ``flagcore.reference.<reference>``."""
    if IMPL == "python":
        return importlib.import_module(f"flagcore.reference.{reference}")
    return importlib.import_module(f"flagcore.{compiled}")
