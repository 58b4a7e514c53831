"""Sample sizes that depend on which twin the public API runs.

Under FLAGCORE_IMPL=python every public call runs the pure-Python reference twin, 50 to 200 times
slower than the compiled core. A test that asserts a property over a large sample (100,000 seeds,
30,000 games, ...) asserts the same property there on a smaller one: ``sized(compiled, twin)`` is
the count to use. Tests that compare the twins explicitly run the twin on their full sample in the
default (compiled) run already, so nothing is compared less often than before.
"""

from __future__ import annotations

from flagcore._impl import IMPL

ON_TWIN = IMPL == "python"


def sized(compiled: int, twin: int) -> int:
    """``compiled`` with the compiled core behind the public API, ``twin`` under FLAGCORE_IMPL=python."""
    return twin if ON_TWIN else compiled
