"""Rules of the review tools (contact sheets, pictures) and of the ``flagcore data`` options."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError
from .connections import MODES


def as_int_in(value: Any, name: str, low: int, high: int) -> int:
    """An int (never a bool) in low..high."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ArgumentError(f"{name} must be an int in {low}..{high}, got {value!r}")
    return value


def as_modes(modes: Iterable[str]) -> list[str]:
    """A non-empty list of Connections modes."""
    modes = list(modes)
    if not modes or any(m not in MODES for m in modes):
        raise ArgumentError(f"modes must be drawn from {MODES}, got {modes!r}")
    return modes


def as_names(wanted: Iterable[str], known: Sequence[str], what: str) -> list[str]:
    """``wanted``, each one of ``known`` (the sheet groups, say)."""
    wanted = list(wanted)
    unknown = [g for g in wanted if g not in known]
    if unknown:
        raise ArgumentError(f"unknown {what} {unknown} (known: {', '.join(known)})")
    return wanted


def as_picture_path(path: Any, formats: Mapping[str, str]) -> str:
    """The Pillow format for ``path`` from its extension (``formats``); ValueError for a name no
    picture can have (empty, no known extension), FileNotFoundError naming a missing folder."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a str or a path, not {type(path).__name__}")
    name = os.fspath(path)
    if not name.strip():
        raise ArgumentError("picture file name is empty")
    fmt = formats.get(Path(name).suffix.lower())
    if fmt is None:
        raise ArgumentError(
            f"cannot tell the picture format of {name!r}: end the name in one of " + ", ".join(sorted(formats))
        )
    folder = Path(name).parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {name!r}: folder {str(folder)!r} does not exist")
    return fmt


def as_tile_count(tiles: Sequence[int], columns: int, rows: int) -> Sequence[int]:
    """A board to draw: one tile per cell of the columns x rows grid."""
    if len(tiles) != columns * rows:
        raise ArgumentError("tiles_by_slot: length must be columns * rows")
    return tiles


def as_tier_minimums(text: str) -> tuple[int, int, int, int]:
    """ "Y,G,B,P" (``--min-per-tier``) -> four ints >= 0, the minimum candidate count per tier."""
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 4 or not all(t.isdigit() for t in parts):
        raise ArgumentError(f"--min-per-tier takes four counts >= 0 as Y,G,B,P (e.g. 2,2,2,1), got {text!r}")
    y, g, b, p = (int(t) for t in parts)
    return y, g, b, p
