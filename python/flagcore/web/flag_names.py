"""What both games' APIs show of a flag: its name, and its tile as encoded JSON.

A private library may rename a country, so its name comes first; the bundled artwork's name
(flagcore.library.flag_name) names every other bundled flag.
"""

from __future__ import annotations

import orjson

from ..library import Library, flag_name
from ..signatures import bundled_codes


class FlagNames:
    """The bundled flags' codes (``codes``; ``sorted_codes``: the order a random flag is drawn in)
    and every known code's name and tile JSON."""

    def __init__(self, library: Library) -> None:
        self.codes = frozenset(bundled_codes())
        self.sorted_codes = sorted(self.codes)
        self._names = {code: library.name(code) for code in library.codes}
        # each tile's JSON object, encoded once: a board reply is these joined
        self.tile_json = {
            code: orjson.dumps({"code": code, "name": self.name(code)}) for code in self.codes | set(self._names)
        }

    def name(self, code: str) -> str:
        """The library's name of ``code`` (a private library may rename), else the artwork's."""
        return self._names.get(code) or flag_name(code)
