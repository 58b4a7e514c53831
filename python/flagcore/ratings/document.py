"""The ratings file (docs/ratings.md, "The file"): what a fit learned, as one JSON document.

    {"format": 1,
     "steering": 2,
     "dailies_from": "YYYY-MM-DD",
     "prior_sd": 2.0,
     "categories": {"<mode>": {"<category id>": {"difficulty": float, "sd": float, "plays": int}}},
     "model":      {"<mode>": {"slope": float, "intercept": float, "sd": float}},
     "colours":    {"<mode>": {"yellow": [1st, 2nd, 3rd, 4th, unsolved], "green": [...], ...}},
     "boards":     {"<mode>": {"<board id>": {"difficulty": float, "sd": float, "plays": int, "won": float}}},
     "records":    {"<mode>": int}}

``difficulty`` is on the Plackett-Luce logit scale, higher is harder (0 about the mean category);
``model`` is how today's hand-set model predicts it (difficulty ~ intercept + slope *
(10 - salience), residual ``sd``), which is what the engine blends with where plays are few.
Only ``format`` and ``categories`` are required. ``steering`` says how the engine steers the
search with the ratings (flagcore.ratings.colouring): 2, what a fit writes, deals each board's
four groups clearly apart in learned difficulty; 1 (a file without the key: every file written
before it existed) steers as those files were dealt with, so their boards rebuild. A file is named
by its ``digest``: a short hash of what the engine reads from it (categories, model, prior_sd, and
steering when it is not 1), which a board id dealt with the ratings carries.

``dailies_from`` (docs/ratings.md, "The shipped ratings") is the first day whose daily the file
colours: a file ``NAME.json`` may keep the files it replaced in a folder ``NAME/`` beside it (its
history, one file each), and the daily of day D is coloured by the newest of them all whose
``dailies_from`` is D or before (the oldest colours every day before that), so a refit never
recolours a daily already published. A file without history colours every daily; a file without
the key (every file written before it existed) is read as colouring from the first daily.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._args.connections import MODES, base32_encode
from .._args.ratings import (
    COLOURS,
    MAX_BOARDS,
    MAX_CATEGORIES,
    MAX_RATINGS_BYTES,
    as_category_id,
    as_count,
    as_day,
    as_finite,
)
from ..errors import RatingsError
from ..library import Library

__all__ = ["FORMAT", "STEERING", "BoardRating", "CategoryRating", "ModelMap", "Ratings", "load_ratings"]

FORMAT = 1
STEERING = 2  # what a fit writes; a file without "steering" is 1 (docs/ratings.md, "The file")
STEERINGS = (1, 2)
DIGEST_CHARS = 6  # 30 bits of sha256, Crockford base32: a board id's suffix
MAX_EARLIER = 1000  # files in a ratings file's history folder
TOP_KEYS = {
    "format",
    "steering",
    "dailies_from",
    "prior_sd",
    "categories",
    "model",
    "colours",
    "boards",
    "records",
    "comment",
}


@dataclass(frozen=True)
class CategoryRating:
    """One category's learned difficulty (higher is harder), its sd and how many plays it had."""

    difficulty: float  # higher is harder
    sd: float
    plays: int


@dataclass(frozen=True)
class BoardRating:
    """One board's plays, mean mistakes (its difficulty) with that mean's sd, and share won."""

    difficulty: float  # mean mistakes
    sd: float
    plays: int
    won: float  # share of plays won


@dataclass(frozen=True)
class ModelMap:
    """Today's model on the learned scale: difficulty ~ intercept + slope * (10 - salience) +- sd."""

    slope: float
    intercept: float
    sd: float


@dataclass
class Ratings:
    """A fit's result (see the module docstring for the file it reads and writes)."""

    prior_sd: float = 2.0
    categories: dict[str, dict[str, CategoryRating]] = field(default_factory=dict)
    model: dict[str, ModelMap] = field(default_factory=dict)
    colours: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    boards: dict[str, dict[str, BoardRating]] = field(default_factory=dict)
    records: dict[str, int] = field(default_factory=dict)
    steering: int = 1  # how the engine steers by them (STEERINGS); fit() writes STEERING
    skipped: int = 0  # records the fit left out (not kept in the file)
    dailies_from: str | None = None  # the first day whose daily they colour (None: from the first)
    # the files these replaced (their history folder), oldest first: they colour the earlier dailies
    earlier: tuple[Ratings, ...] = field(default=(), compare=False, repr=False)
    _digest: str | None = field(default=None, init=False, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The file's document (see the module docstring), numbers rounded to 6 places."""

        def num(x: float) -> float:
            return round(float(x), 6)

        steering = {} if self.steering == 1 else {"steering": self.steering}  # 1: as files before the key
        dailies = {} if self.dailies_from is None else {"dailies_from": self.dailies_from}
        return {
            "format": FORMAT,
            **steering,
            **dailies,
            "prior_sd": self.prior_sd,
            "categories": {
                m: {
                    c: {"difficulty": num(r.difficulty), "sd": num(r.sd), "plays": r.plays}
                    for c, r in sorted(cs.items())
                }
                for m, cs in sorted(self.categories.items())
            },
            "model": {
                m: {"slope": num(v.slope), "intercept": num(v.intercept), "sd": num(v.sd)}
                for m, v in sorted(self.model.items())
            },
            "colours": {m: {c: list(v[c]) for c in COLOURS if c in v} for m, v in sorted(self.colours.items())},
            "boards": {
                m: {
                    b: {"difficulty": num(r.difficulty), "sd": num(r.sd), "plays": r.plays, "won": num(r.won)}
                    for b, r in sorted(bs.items())
                }
                for m, bs in sorted(self.boards.items())
            },
            "records": dict(sorted(self.records.items())),
        }

    def dumps(self) -> str:
        """The file's text: the document as indented JSON."""
        return json.dumps(self.to_dict(), indent=1, sort_keys=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the file's text to ``path``."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @property
    def digest(self) -> str:
        """What the engine reads from these ratings, hashed: 6 Crockford base32 characters.

        Computed once (the engine reads it per board): Ratings are not to be changed once used."""
        if self._digest is None:
            d = self.to_dict()
            read = ("steering", "prior_sd", "categories", "model")  # steering only when not 1: old names stay
            core = json.dumps({k: d[k] for k in read if k in d}, sort_keys=True)
            h = int.from_bytes(hashlib.sha256(core.encode()).digest()[:4], "big") >> 2
            self._digest = base32_encode(h, DIGEST_CHARS)
        return self._digest

    def for_day(self, day: _dt.date | str) -> Ratings:
        """The ratings that colour the daily of ``day`` (a date or 'YYYY-MM-DD'): the newest of
        these and their history whose ``dailies_from`` is ``day`` or before, else the oldest."""
        text = day if isinstance(day, str) else day.isoformat()
        for r in (self, *reversed(self.earlier)):
            if r.dailies_from is None or r.dailies_from <= text:
                return r
        return self.earlier[0] if self.earlier else self

    def check_library(self, library: Library | None = None) -> None:
        """RatingsError unless every category id is one of the library's for its mode."""
        from ..connections.tables import default_library  # noqa: PLC0415

        lib = library if library is not None else default_library()
        for m, cs in self.categories.items():
            known = {c.id for c in lib.categories(m)}
            for cid in cs:
                if cid not in known:
                    raise RatingsError(f"ratings: categories.{m}: {cid!r} is not a {m} category of the library")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _obj(v: Any, where: str, limit: int = MAX_CATEGORIES) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{where} must be an object")
    if len(v) > limit:
        raise ValueError(f"{where} holds more than {limit} entries")
    return v


def from_dict(doc: Any) -> Ratings:
    """A Ratings from a parsed document; ValueError names the first field that is wrong."""
    doc = _obj(doc, "the file")
    extra = set(doc) - TOP_KEYS
    if extra:
        raise ValueError(f"unknown key {sorted(extra)[0]!r}")
    if doc.get("format") != FORMAT or type(doc.get("format")) is not int:
        raise ValueError(f"format must be {FORMAT}")
    steering = doc.get("steering", 1)
    if type(steering) is not int or steering not in STEERINGS:
        raise ValueError(f"steering must be one of {', '.join(map(str, STEERINGS))}")
    out = Ratings(prior_sd=as_finite(doc.get("prior_sd", 2.0), "prior_sd", 1e-3), steering=steering)
    out.dailies_from = as_day(doc.get("dailies_from"), "dailies_from")
    if "categories" not in doc:
        raise ValueError("missing key 'categories'")
    for section in ("categories", "model", "colours", "boards", "records"):
        for m in _obj(doc.get(section, {}), section):
            if m not in MODES:
                raise ValueError(f"{section}: unknown mode {m!r}")
    for m, cs in _obj(doc["categories"], "categories").items():
        out.categories[m] = {}
        for cid, e in _obj(cs, f"categories.{m}").items():
            w = f"categories.{m}.{as_category_id(cid, f'categories.{m} key')}"
            e = _obj(e, w)
            if set(e) != {"difficulty", "sd", "plays"}:
                raise ValueError(f"{w} must hold exactly difficulty, sd and plays")
            d = as_finite(e["difficulty"], f"{w}.difficulty")
            if abs(d) > 100:
                raise ValueError(f"{w}.difficulty must be within -100..100")
            sd = as_finite(e["sd"], f"{w}.sd", 1e-6)
            out.categories[m][cid] = CategoryRating(d, min(sd, 100.0), as_count(e["plays"], f"{w}.plays"))
    for m, e in _obj(doc.get("model", {}), "model").items():
        e = _obj(e, f"model.{m}")
        if set(e) != {"slope", "intercept", "sd"}:
            raise ValueError(f"model.{m} must hold exactly slope, intercept and sd")
        out.model[m] = ModelMap(
            min(as_finite(e["slope"], f"model.{m}.slope", 0.0), 100.0),
            max(-100.0, min(as_finite(e["intercept"], f"model.{m}.intercept"), 100.0)),
            min(as_finite(e["sd"], f"model.{m}.sd", 1e-3), 100.0),
        )
    for m, e in _obj(doc.get("colours", {}), "colours").items():
        e = _obj(e, f"colours.{m}")
        out.colours[m] = {}
        for col, row in e.items():
            if col not in COLOURS or not isinstance(row, list) or len(row) != 5:
                raise ValueError(f"colours.{m}: each of {COLOURS} maps to 5 counts")
            out.colours[m][col] = [as_count(v, f"colours.{m}.{col}") for v in row]
    for m, bs in _obj(doc.get("boards", {}), "boards").items():
        out.boards[m] = {}
        for b, e in _obj(bs, f"boards.{m}", MAX_BOARDS).items():
            w = f"boards.{m}.{as_category_id(b, f'boards.{m} key')}"
            e = _obj(e, w)
            if set(e) != {"difficulty", "sd", "plays", "won"}:
                raise ValueError(f"{w} must hold exactly difficulty, sd, plays and won")
            out.boards[m][b] = BoardRating(
                as_finite(e["difficulty"], f"{w}.difficulty"),
                as_finite(e["sd"], f"{w}.sd", 0.0),
                as_count(e["plays"], f"{w}.plays"),
                as_finite(e["won"], f"{w}.won", 0.0),
            )
    for m, n in _obj(doc.get("records", {}), "records").items():
        out.records[m] = as_count(n, f"records.{m}")
    return out


def as_ratings(value: Any) -> Ratings:
    """``value`` if it is a Ratings, else TypeError (what ``generate(ratings=...)`` takes)."""
    if not isinstance(value, Ratings):
        raise TypeError(f"ratings must be a flagcore.ratings.Ratings (load_ratings(path)), not {type(value).__name__}")
    return value


def load_ratings(source: str | Path | dict[str, Any] | Ratings, library: Library | None = None) -> Ratings:
    """A ratings file (a path, a parsed document, or Ratings as they are), checked: RatingsError in
    one line naming the problem (not JSON, too large, nested too deeply, a field wrong, NaN, a
    category id the library does not have for its mode). A path ``NAME.json`` with a folder
    ``NAME/`` beside it also reads that folder's ``*.json`` as its history (``Ratings.earlier``)."""
    if isinstance(source, Ratings):
        ratings = source
    elif isinstance(source, dict):
        ratings = _checked("ratings", lambda: source)
    else:
        path = Path(source)
        ratings = _read(path)
        ratings.earlier = _history(path, ratings)
    for r in (*ratings.earlier, ratings):
        r.check_library(library)
    return ratings


def _read(path: Path) -> Ratings:
    """One ratings file as it is (no history)."""

    def parse() -> Any:
        with open(path, "rb") as f:
            raw = f.read(MAX_RATINGS_BYTES + 1)
        if len(raw) > MAX_RATINGS_BYTES:
            raise ValueError(f"larger than {MAX_RATINGS_BYTES // (1024 * 1024)} MB")
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)

    return _checked(f"ratings {path}", parse)


def _checked(where: str, parse: Any) -> Ratings:
    """from_dict of what ``parse()`` reads, every failure a RatingsError naming ``where``."""
    try:
        return from_dict(parse())
    except RecursionError:
        raise RatingsError(f"{where}: nested too deeply") from None
    except UnicodeDecodeError:
        raise RatingsError(f"{where}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise RatingsError(f"{where}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except OSError as exc:
        raise RatingsError(f"{where}: cannot read ({exc.strerror or exc})") from None
    except (ValueError, TypeError) as exc:
        raise RatingsError(f"{where}: {exc}") from None


def _history(path: Path, newest: Ratings) -> tuple[Ratings, ...]:
    """The files in the history folder beside ``path``, oldest first: each with its own
    ``dailies_from``, all before the newest's (one of them, the oldest, may have none)."""
    folder = path.with_suffix("")
    if folder == path or not folder.is_dir():
        return ()
    files = sorted(folder.glob("*.json"))
    if len(files) > MAX_EARLIER:
        raise RatingsError(f"ratings {folder}: more than {MAX_EARLIER} files of history")
    earlier = sorted((_read(f) for f in files), key=lambda r: r.dailies_from or "")
    days = [r.dailies_from or "" for r in earlier]
    if earlier and newest.dailies_from is None:
        raise RatingsError(f"ratings {path}: a file with history ({folder}) needs dailies_from")
    if len(set(days)) != len(days) or (days and days[-1] >= (newest.dailies_from or "")):
        raise RatingsError(
            f"ratings {folder}: each file of the history needs a dailies_from of its own, "
            f"before {newest.dailies_from} (at most one, the oldest, without)"
        )
    return tuple(earlier)
