"""Choose the compiled core or the pure-Python reference twin.

Set FLAGCORE_IMPL=python to force the reference everywhere (as rapidfuzz's RAPIDFUZZ_IMPLEMENTATION
does); the default (or FLAGCORE_IMPL=compiled, or cython) uses the compiled modules. Any other
value fails the import with a message listing these. Public modules call ``pick`` once at import time.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

# Accepted spellings: the compiled core is Cython, and the twin is the reference.
_ALIASES = {"": "compiled", "compiled": "compiled", "cython": "compiled", "python": "python", "reference": "python"}
_asked = os.environ.get("FLAGCORE_IMPL", "")
if _asked.strip().lower() not in _ALIASES:
    raise ImportError(
        f"FLAGCORE_IMPL={_asked!r} is not understood: use 'compiled' (or 'cython') for the "
        "compiled core, 'python' (or 'reference') for the pure-Python twin, or leave it unset"
    )
IMPL = _ALIASES[_asked.strip().lower()]


def pick(compiled: str, reference: str) -> ModuleType:
    """Import ``flagcore.<compiled>`` unless FLAGCORE_IMPL=python, else ``flagcore.reference.<reference>``."""
    if IMPL == "python":
        return importlib.import_module(f"flagcore.reference.{reference}")
    return importlib.import_module(f"flagcore.{compiled}")
