"""The published dailies, stored: the boards of schedule versions 1 and 2 as they were dealt (issue 31).

A daily is computed from (date, mode, library, key), so a change of the bundled library (a flag's
fact, a label's wording) would change every board of it, the published ones too. The boards of
the public schedule (no season key) and the bundled library for every day before version 3
(2026-01-01 .. 2027-01-31) are kept instead in ``published.json.gz`` beside this module, written
once by ``scripts/write_published_dailies.py`` (docs/season.md, "Published dailies are stored"),
and ``daily()`` returns them: the flags data can change, and those boards do not.

Per mode and day the file holds the board before the colours (its tiles, its groups in search-tier
order: category id, codes, label; its stats) and the colourings a player was shown: the
difficulty model's (no ratings) and that of each ratings file shipped to colour the day (by its
digest; ``Ratings.for_day``). A colouring is its labels in colour order (the model shows a simpler
label where no lure reads it) and its ``stats["model"]``, whose ``search_tiers`` orders the groups.

What is not stored is computed as before: a keyed schedule (a server's secret season), another
library, a day of version 3 or later, and a day's colours by ratings the file does not hold (a
refit whose ``dailies_from`` is a day before 2027-02-01, a private ratings file): those colour
the stored groups with the library in use, where it still holds every one of their categories
and flags, else the stored model colours stand. Version 3's first week reads the labels of the
stored days before it (decoys.shown_before), so it does not follow the library for those either.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from ... import days as _days
from ..board import Board, Group, frozen_from_fields
from ..tables import default_library
from .state import Schedule, version_of, version_start

PATH = Path(__file__).with_name("published.json.gz")
FORMAT = 1
END = version_start(3)  # the first day not stored: version 3's first (2027-02-01)
MODEL = ""  # the colouring key of the difficulty model's colours (no ratings)

Entry = list[Any]  # [tiles, groups, stats, colourings]: one day of one mode in the file
_lock = threading.Lock()
_loaded: list[dict[str, list[Entry]]] = []
_boards: dict[tuple[str, int, str], Board] = {}  # (mode, day, colouring): the Board rebuilt, kept


def public(s: Schedule) -> bool:
    """Whether ``s`` is a schedule whose published days are stored: the public one (no season key)
    of the bundled library."""
    return s.season_key is None and (s.library is None or s.library is default_library())


def stores(s: Schedule, i: int) -> bool:
    """Whether day i of schedule ``s`` is a stored one: a day before version 3 of a public schedule
    (``public``), scheduled by its own version."""
    return i < END and s.version == version_of(i) and public(s)


def encode(plain: Board, coloured: dict[str, Board]) -> Entry:
    """A day's entry of the file: ``plain`` (the board before the colours) and its colourings
    (``MODEL`` or a ratings digest: the coloured Board)."""
    groups = [[g.category_id, " ".join(g.codes), g.label] for g in plain.groups]
    colourings = {}
    for key, board in coloured.items():
        model = board.stats["model"]
        colourings[key] = [[g.label for g in board.groups], model]
    return [" ".join(plain.tiles), groups, plain.stats, colourings]


def document(days: dict[str, list[Entry]]) -> bytes:
    """The file's JSON text (before gzip) of ``days`` (per mode, the entries of days 0 .. END - 1)."""
    doc = {"format": FORMAT, "end": END, "modes": days}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def write(days: dict[str, list[Entry]], path: Path = PATH) -> bytes:
    """Write the file (gzip without a timestamp); returns its JSON text."""
    text = document(days)
    path.write_bytes(gzip.compress(text, 9, mtime=0))
    return text


def digest(text: bytes) -> str:
    """sha256 of the file's JSON text (the gzip bytes may differ between zlib builds)."""
    return hashlib.sha256(text).hexdigest()


def read_text(path: Path = PATH) -> bytes:
    """The file's JSON text."""
    return gzip.decompress(path.read_bytes())


def _modes() -> dict[str, list[Entry]]:
    if not _loaded:
        with _lock:
            if not _loaded:
                doc = json.loads(read_text())
                if doc.get("format") != FORMAT or doc.get("end") != END:
                    raise RuntimeError(
                        f"{PATH.name}: format {doc.get('format')}, end {doc.get('end')}: not this version's"
                    )
                _loaded.append(doc["modes"])
    return _loaded[0]


def entry(mode: str, i: int) -> Entry:
    """The stored entry of day i (0 <= i < END) in ``mode``."""
    return _modes()[mode][i]


def plain_board(mode: str, i: int) -> Board:
    """Day i's stored Board before the colours (board_of_day's), kept."""
    hit = _boards.get((mode, i, "plain"))
    if hit is None:
        hit = _boards.setdefault((mode, i, "plain"), decode_plain(mode, i, entry(mode, i)))
    return hit


def coloured_board(mode: str, i: int, key: str = MODEL) -> Board | None:
    """Day i's stored Board coloured by ``key`` (MODEL, or a ratings digest), kept; None when the
    file holds no such colouring of the day."""
    hit = _boards.get((mode, i, key))
    if hit is None:
        kept = entry(mode, i)[3].get(key)
        if kept is None:
            return None
        hit = _boards.setdefault((mode, i, key), decode_coloured(plain_board(mode, i), kept))
    return hit


def model_board(mode: str, i: int) -> Board:
    """Day i's stored Board coloured by the difficulty model (every stored day has it)."""
    board = coloured_board(mode, i)
    if board is None:
        raise RuntimeError(f"{PATH.name}: day {i} ({mode}) has no model colours")
    return board


def decode_plain(mode: str, i: int, stored: Entry) -> Board:
    """The Board before the colours of day i's entry ``stored`` (encode's)."""
    tiles, groups, stats, _ = stored
    made = [
        frozen_from_fields(Group, {"tier": g, "label": label, "codes": tuple(codes.split()), "category_id": cat})
        for g, (cat, codes, label) in enumerate(groups)
    ]
    day = _days.date_of(i).isoformat()
    fields = {"tiles": tuple(tiles.split()), "groups": tuple(made), "seed": f"season:{day}", "mode": mode}
    return frozen_from_fields(Board, {**fields, "legacy": False, "stats": stats, "events": None})


def decode_coloured(plain: Board, colouring: list[Any]) -> Board:
    """``plain`` coloured as a stored colouring says: [its labels in colour order, its stats["model"]]."""
    labels, model = colouring
    groups = []
    for colour, g in enumerate(model["search_tiers"]):
        source = plain.groups[g]
        fields = {"tier": colour, "label": labels[colour], "codes": source.codes, "category_id": source.category_id}
        groups.append(frozen_from_fields(Group, fields))
    stats = {**plain.stats, "model": json.loads(json.dumps(model))}  # a Board's own stats, not the file's
    fields = {"tiles": plain.tiles, "groups": tuple(groups), "seed": plain.seed, "mode": plain.mode}
    return frozen_from_fields(Board, {**fields, "legacy": False, "stats": stats, "events": None})


def indices(s: Schedule, i: int) -> tuple[list[int], list[int]] | None:
    """(the stored day i's category indices in search-tier order, its code indices in group order)
    in ``s``'s tables, or None when the library in use lacks one of them."""
    cats = {c.id: k for k, c in enumerate(s.tables.categories)}
    codes = {code: x for x, code in enumerate(s.tables.codes)}
    board = plain_board(s.mode, i)
    try:
        return [cats[g.category_id] for g in board.groups], [codes[x] for g in board.groups for x in g.codes]
    except KeyError:
        return None


def categories(s: Schedule, i: int) -> list[int]:
    """The stored day i's categories (indices in ``s``'s tables) that the library in use holds."""
    ids = {c.id: k for k, c in enumerate(s.tables.categories)}
    return [ids[g.category_id] for g in plain_board(s.mode, i).groups if g.category_id in ids]
