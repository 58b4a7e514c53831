"""The difficulty a player feels on one board: ``board_difficulty`` (docs/difficulty.md).

Per group, how hard it is to see: the salience of its feature at tile size, how many other tiles
carry the feature its label names (a clause that excludes one of them bites), and how many
tempting phantom groups pull its tiles elsewhere. Per board, the phantom groups: categories of the
library not on the board that hold at least four of the sixteen tiles, with a strength that says
which ones a player would fall for.

The counts come from the compiled kernel (``flagcore._connections.board_model``, in
connections_model.pxi) or its twin (``flagcore.reference.connections_model``), read from
``core.connections`` at call time. The per-category data (salience, the named feature, the simpler
label) is flags/difficulty.json; a category it does not list gets the default stated there
(salience by tier, no clause), so new categories need no entry to work.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._args.connections import as_instance, as_mode, check_board_shape, check_category_known
from .._connections_layout import SALIENCE_MAX, TEMPTING, TIER_NAMES, TIERS
from .._engines import ConnectionsEngine
from .._impl import core
from ..errors import ArgumentError, LibraryError, RuleError
from ..library import Library
from ..library.loading import bundled_path
from ..library.rules import compile_rule, rule_reads
from ..library.schema import ATTRIBUTE_KINDS
from .board import Board, Group, frozen_from_fields
from .tables import Tables, default_library, tables_for

__all__ = ["BoardDifficulty", "GroupDifficulty", "Phantom", "board_difficulty", "category_difficulty", "coloured"]

DATA_FILE = "difficulty.json"
ENTRY_KEYS = {"salience", "named", "simpler", "plain"}


@dataclass(frozen=True)
class CategoryDifficulty:
    """One category's model data: its salience, and its clause when its label has one.

    ``named`` is the set of codes that carry the feature the label names without its clauses
    ("Has orange" for "Orange but no red"); ``simpler`` labels that set. Both are None without a
    clause. ``plain`` marks a clause that narrows the group to plain flags ("Only red and white",
    "nothing else"): such flags stand out, so the tiles that carry the named feature do not hide
    the group (its lure is counted, not scored). ``listed`` says whether difficulty.json lists it
    (else the default rule gave it).
    """

    salience: int
    named: frozenset[str] | None
    simpler: str | None
    listed: bool
    plain: bool = False


@dataclass(frozen=True)
class GroupDifficulty:
    """How hard one group of a board is to see (higher ``score``: harder)."""

    tier: int  # the colour the board shows it in
    category_id: str
    label: str
    codes: tuple[str, str, str, str]
    salience: int  # 0..10: how readily a player sees its feature at tile size
    lure: int  # tiles outside the group that carry the feature its label names
    pulls: int  # tempting phantoms holding one of its tiles
    score: int
    clause: str | None  # "bites" (its clause excludes a tile on the board), "idle" (excludes none), None
    simpler_label: str | None  # the label without the clause (what an idle clause plays as)


@dataclass(frozen=True)
class Phantom:
    """A category not on the board that holds at least four of its tiles: a red herring."""

    category_id: str
    label: str
    codes: tuple[str, ...]  # its members on the board, in the board's group order
    salience: int  # of its feature, as for a group
    spread: int  # how many of the board's groups its members come from
    strength: int  # salience x size weight x spread weight; 0 when its members sit in one group
    tempting: bool  # strength >= TEMPTING: a player would fall for it


@dataclass(frozen=True)
class BoardDifficulty:
    """The model of one board: its groups (in the board's order) and its phantoms (strongest first)."""

    groups: tuple[GroupDifficulty, GroupDifficulty, GroupDifficulty, GroupDifficulty]
    phantoms: tuple[Phantom, ...]

    @property
    def tempting(self) -> tuple[Phantom, ...]:
        """The phantoms a player would fall for."""
        return tuple(p for p in self.phantoms if p.tempting)

    @property
    def score(self) -> int:
        """The board's difficulty: its groups' mean score plus the strength of its tempting phantoms."""
        return sum(g.score for g in self.groups) // TIERS + sum(p.strength for p in self.tempting)

    @property
    def order(self) -> tuple[int, ...]:
        """Indices into ``groups``, easiest first (by score, then the board's colour)."""
        return tuple(sorted(range(TIERS), key=lambda i: (self.groups[i].score, self.groups[i].tier)))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: {"score", "groups": [...], "phantoms": [...]}."""
        return {
            "score": self.score,
            "groups": [
                {
                    "tier": g.tier,
                    "colour": TIER_NAMES[g.tier],
                    "category_id": g.category_id,
                    "label": g.label,
                    "codes": list(g.codes),
                    "salience": g.salience,
                    "lure": g.lure,
                    "pulls": g.pulls,
                    "score": g.score,
                    "clause": g.clause,
                    "simpler_label": g.simpler_label,
                }
                for g in self.groups
            ],
            "phantoms": [
                {
                    "category_id": p.category_id,
                    "label": p.label,
                    "codes": list(p.codes),
                    "salience": p.salience,
                    "spread": p.spread,
                    "strength": p.strength,
                    "tempting": p.tempting,
                }
                for p in self.phantoms
            ],
        }


# ---------------------------------------------------------------- the data file

_lock = threading.Lock()
_data: list[tuple[tuple[int, ...], dict[str, dict[str, Any]]]] = []


def _fail(file: Path, what: str, problem: str) -> LibraryError:
    return LibraryError(f"{file}: {what}: {problem}")


def difficulty_data() -> tuple[tuple[int, ...], dict[str, dict[str, Any]]]:
    """(default salience per tier, entries by category id) of the bundled difficulty.json, read once."""
    if _data:
        return _data[0]
    file = bundled_path() / DATA_FILE
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(file, "file", f"cannot read: {exc}") from None
    if not isinstance(doc, dict) or set(doc) - {"comment", "default_salience", "categories"}:
        raise _fail(file, "top level", "must be an object with default_salience and categories")
    default = doc.get("default_salience")
    if not isinstance(default, list) or len(default) != TIERS or not all(_is_salience(v) for v in default):
        raise _fail(file, "default_salience", f"must be {TIERS} ints 0..{SALIENCE_MAX}, one per tier")
    entries = doc.get("categories")
    if not isinstance(entries, dict):
        raise _fail(file, "categories", "must be an object keyed by category id")
    for cid, entry in entries.items():
        what = f"category {cid!r}"
        if not isinstance(entry, dict) or set(entry) - ENTRY_KEYS:
            raise _fail(file, what, f"must be an object with keys among {sorted(ENTRY_KEYS)}")
        if not _is_salience(entry.get("salience")):
            raise _fail(file, what, f"salience must be an int 0..{SALIENCE_MAX}")
        if ("named" in entry) != ("simpler" in entry):
            raise _fail(file, what, "named (a rule) and simpler (its label) go together")
        if "simpler" in entry and (not isinstance(entry["simpler"], str) or not entry["simpler"]):
            raise _fail(file, what, "simpler must be a non-empty label")
        if "plain" in entry and (entry["plain"] is not True or "named" not in entry):
            raise _fail(file, what, "plain is true or absent, and only on a category with a clause (named)")
        if "named" in entry:
            try:
                entry["_rule"] = compile_rule(entry["named"], ATTRIBUTE_KINDS)
                entry["_reads"] = rule_reads(entry["named"], ATTRIBUTE_KINDS)
            except RuleError as exc:
                raise _fail(file, what, f"named: {exc}") from None
    with _lock:
        if not _data:
            _data.append((tuple(default), entries))
    return _data[0]


def _is_salience(v: Any) -> bool:
    return type(v) is int and 0 <= v <= SALIENCE_MAX


def category_difficulty(category: Any, library: Library | None = None) -> CategoryDifficulty:
    """The model's data for one Category of ``library`` (None: the bundled one).

    A category difficulty.json does not list gets the default: salience ``default_salience[tier]``
    and no clause. A clause's named set is read from the library's country facts, under every
    reading the data allows (a library built in memory has none: its named set is then empty, and
    the group's fit set stands in).
    """
    default, entries = difficulty_data()
    entry = entries.get(category.id)
    if entry is None:
        return CategoryDifficulty(default[category.tier], None, None, False)
    named = simpler = None
    if "_rule" in entry:
        lib = library if library is not None else default_library()
        rule = entry["_rule"]
        # the feature named under any reading: a tile that arguably carries it makes the clause bite
        # (shown plainly, "Has a sun with rays" would fit a striped flag whose star reads as a sun)
        named = lib.fitting(rule, entry["_reads"])
        simpler = entry["simpler"]
    return CategoryDifficulty(entry["salience"], named, simpler, True, entry.get("plain", False))


# ---------------------------------------------------------------- model tables per library and mode


@dataclass(frozen=True, eq=False)
class ModelTables:
    """One (library, mode)'s model data in the tables' category order, and the engine's prepared form."""

    tables: Tables
    data: tuple[CategoryDifficulty, ...]
    prepared: Any


_CACHE_ATTR = "_flagcore_difficulty_tables"


def model_tables(impl: ConnectionsEngine, library: Library | None, mode: str) -> ModelTables:
    """The model tables of (library, mode) for ``impl``, built once per Library object (kept on it)."""
    lib = library if library is not None else default_library()
    tables, _ = tables_for(impl, lib, mode)
    per_lib = lib.__dict__.get(_CACHE_ATTR)
    key = (mode, impl.__name__)
    if per_lib is not None and key in per_lib:
        cached: ModelTables = per_lib[key]
        return cached
    difficulty_data()  # read before taking the lock, which difficulty_data takes too
    with _lock:
        per_lib = lib.__dict__.setdefault(_CACHE_ATTR, {})
        if key not in per_lib:
            data = tuple(category_difficulty(c, lib) for c in tables.categories)
            prepared = _prepare(impl, tables, data, [d.salience for d in data])
            per_lib[key] = ModelTables(tables, data, prepared)
        built: ModelTables = per_lib[key]
    return built


def _prepare(
    impl: Any, tables: Tables, data: Sequence[CategoryDifficulty], salience: Sequence[int], learned: Any = None
) -> Any:
    known = _code_index(tables)
    rows = [sorted(known[x] for x in d.named) if d.named else [] for d in data]
    off = np.zeros(len(rows) + 1, dtype=np.int32)
    off[1:] = np.cumsum([len(r) for r in rows])
    flat = np.array([x for r in rows for x in r], dtype=np.int32)
    hides = [0 if d.plain else 1 for d in data]  # a plain clause's lure is counted, not scored
    return impl.prepare_model(tables, list(salience), flat, off, [d.simpler for d in data], hides, learned)


def prepare_with_salience(impl: Any, mt: ModelTables, salience: Sequence[int], learned: Any = None) -> Any:
    """``mt``'s model prepared for ``impl`` on other saliences (one per category, 0..SALIENCE_MAX):
    what ratings steer the search with (flagcore.ratings.colouring), and ``learned`` (None, or
    per category (D, w * slope)) the colours the steered searches give."""
    if len(salience) != len(mt.data) or not all(type(s) is int and 0 <= s <= SALIENCE_MAX for s in salience):
        # flagcore's own data (the ratings module builds it): a wrong length is its bug
        raise ValueError(f"salience: one int 0..{SALIENCE_MAX} per category ({len(mt.data)})")
    return _prepare(impl, mt.tables, mt.data, salience, learned)


def _raw_model(board: Board, library: Library | None) -> tuple[ModelTables, list[int], list[str], Any]:
    """The kernel's counts for ``board`` (checked as board_difficulty says), with what reads them."""
    as_instance(board, Board, "board", "a flagcore.connections.Board")
    mode = as_mode(board.mode, "board.mode")
    check_board_shape(board, type(board.groups[0]) if board.groups else object)
    impl = core.connections
    mt = model_tables(impl, library, mode)
    tables = mt.tables
    cats = [check_category_known(g.category_id, tables.index, mode) for g in board.groups]
    known = _code_index(tables)
    group_codes = [code for g in board.groups for code in g.codes]
    for code in group_codes:
        if code not in known:
            raise ArgumentError(f"board: tile {code!r} is not a country of the library")
    raw = impl.board_model(mt.prepared, [known[c] for c in group_codes], cats)
    return mt, cats, group_codes, raw


def board_difficulty(board: Board, library: Library | None = None) -> BoardDifficulty:
    """The difficulty model of ``board`` (made from ``library``, None: the bundled one).

    Raises TypeError for a non-Board, ValueError for a board whose groups or tiles the library's
    categories for its mode do not know.
    """
    mt, cats, group_codes, raw = _raw_model(board, library)
    return from_raw(mt, board.groups, cats, group_codes, raw)


def coloured(board: Board, library: Library | None = None) -> Board:
    """``board`` as the model shows it: groups coloured by their score on the board (yellow the
    easiest, ties by the board's own colours), a clause that excludes no tile shown as the simpler
    label, and the model's figures in ``stats["model"]`` (what generate does in the engines)."""
    # The kernel's rows read directly: the same figures as board_difficulty(board), without
    # building every phantom (a server colours each new daily; a trivia board has about 30).
    mt, cats, _, raw = _raw_model(board, library)
    return colour_by_model(board, mt, cats, raw)


def colour_by_model(board: Board, mt: ModelTables, cats: Sequence[int], raw: Any) -> Board:
    """``board`` coloured by the kernel's rows ``raw`` for it (``cats``: its groups' category
    indices): the body of :func:`coloured`, for a caller that made the board and its indices itself."""
    group_rows, phantom_rows = raw
    scores = [row[3] for row in group_rows]
    order = sorted(range(TIERS), key=lambda i: (scores[i], board.groups[i].tier))
    labels: list[str] = []
    for i, (_, lure, _, _) in enumerate(group_rows):
        simpler = mt.data[cats[i]].simpler
        labels.append(simpler if simpler is not None and not lure else board.groups[i].label)
    groups = []
    for colour, i in enumerate(order):  # every field set, as assembly.board does (its __init__ costs a few us)
        g = board.groups[i]
        fields = {"tier": colour, "label": labels[i], "codes": g.codes, "category_id": g.category_id}
        groups.append(frozen_from_fields(Group, fields))
    stats = dict(board.stats)
    stats["model"] = {
        "attempt": 0,
        "tempting_phantoms": sum(1 for row in phantom_rows if row[3] >= TEMPTING),
        "scores": [scores[i] for i in order],
        "search_tiers": list(order),
    }
    return frozen_from_fields(
        Board,
        {
            "tiles": board.tiles,
            "groups": tuple(groups),
            "seed": board.seed,
            "mode": board.mode,
            "legacy": board.legacy,
            "stats": stats,
            "events": board.events,
        },
    )


def _code_index(tables: Tables) -> dict[str, int]:
    idx: dict[str, int] | None = tables.__dict__.get("_code_index")
    if idx is None:
        idx = {code: i for i, code in enumerate(tables.codes)}
        object.__setattr__(tables, "_code_index", idx)
    return idx


def _members_of(group_codes: Sequence[str], mask: int) -> tuple[str, ...]:
    """The tiles whose bits ``mask`` sets, in tile order (only the set bits are visited)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(group_codes[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def from_raw(
    mt: ModelTables, groups: Sequence[Any], cats: Sequence[int], group_codes: Sequence[str], raw: Any
) -> BoardDifficulty:
    """A BoardDifficulty from the kernel's counts (``groups``: the board's Group objects)."""
    group_rows, phantom_rows = raw
    cat_objs = mt.tables.categories
    out_groups = []
    for g, (sal, lure, pulls, score) in enumerate(group_rows):
        d = mt.data[cats[g]]
        clause = None if d.simpler is None else ("bites" if lure else "idle")
        grp = groups[g]
        out_groups.append(
            GroupDifficulty(
                grp.tier, grp.category_id, grp.label, tuple(grp.codes), sal, lure, pulls, score, clause, d.simpler
            )
        )
    phantoms = [
        Phantom(
            cat_objs[c].id,
            cat_objs[c].label,
            _members_of(group_codes, mask),
            mt.data[c].salience,
            spread,
            strength,
            strength >= TEMPTING,
        )
        for c, _members, spread, strength, mask in phantom_rows
    ]
    phantoms.sort(key=lambda p: -p.strength)  # stable: category order among equals
    return BoardDifficulty(tuple(out_groups), tuple(phantoms))  # type: ignore[arg-type]
