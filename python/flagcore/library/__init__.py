"""The flag and country library that Connections draws from.

``Library`` and ``Category`` (model) are the contract between the data (flags/) and the engines;
``load_library`` (loading) builds a Library from the bundled data or from a user's file, with the
fields the files may hold (schema), category rules (rules) and alternative readings (readings);
``house_rules`` is how a player reads every label (house_rules); ``flag_names`` (names) gives
every bundled flag artwork its English name.
"""

from __future__ import annotations

from ..errors import LibraryError
from .house_rules import HouseRule, house_rules, house_rules_html, house_rules_markdown, house_rules_text
from .loading import bundled_path, load_library
from .model import KINDS, MODES, TIERS, Category, Library
from .names import flag_name, flag_names
from .schema import ATTRIBUTE_KINDS, MAX_READINGS, flag_tags

__all__ = [
    "ATTRIBUTE_KINDS",
    "KINDS",
    "MAX_READINGS",
    "MODES",
    "TIERS",
    "Category",
    "HouseRule",
    "Library",
    "LibraryError",
    "bundled_path",
    "flag_name",
    "flag_names",
    "flag_tags",
    "house_rules",
    "house_rules_html",
    "house_rules_markdown",
    "house_rules_text",
    "load_library",
]
