"""The English short name of every bundled flag artwork: ``flag_names``.

A country's name is its ``name`` in countries.json; the flags in svg/ that are not countries
(territories, the United Kingdom's nations, the EU, a withdrawn code) take theirs from
flags/names.json, so the Puzzle, the pictures, the CLI and the web API never show a code as a name.
"""

from __future__ import annotations

import functools
import json

from .loading import bundled_path


def flag_names() -> dict[str, str]:
    """Code -> English short name of every bundled flag artwork (countries first, then names.json)."""
    return dict(_names())


def flag_name(code: str) -> str:
    """The bundled name of flag ``code`` (upper case), or the code itself when no file names it."""
    return _names().get(code, code)


@functools.cache
def _names() -> dict[str, str]:
    root = bundled_path()
    countries = json.loads((root / "countries.json").read_text(encoding="utf-8"))["countries"]
    names = {row["code"]: row["name"] for row in countries}
    others = json.loads((root / "names.json").read_text(encoding="utf-8"))["names"]
    # A code in both files would have two names; the country's wins and data check reports it.
    return {**others, **names}
