"""What the engine does with ratings (docs/ratings.md, "The engine"): steer and colour by learned
difficulty, blended with today's model by uncertainty.

Per category of a mode (the library's tables order):

* today's model predicts ``m = intercept + slope * (10 - salience)`` on the learned scale, with
  sd ``s`` (the ratings' ``model``, fitted where plays are many);
* a category with ``MIN_PLAYS`` plays or more takes its learned difficulty ``d`` as it is; one with
  fewer blends the two by precision: the fit's prior N(0, prior_sd^2) is swapped for N(m, s^2),
  ``D = (d/sd^2 + m/s^2) / (L + 1/s^2)`` with ``L = 1/sd^2 - 1/prior_sd^2`` the plays' own
  precision; a category the ratings do not hold takes ``m``. ``w`` = the model's share of D.
* **steering**: the search's hidden pair and phantom strengths read a salience per category:
  D mapped back onto the salience scale, standardised over the mode's categories (the same mean
  and spread as today's saliences, so the hidden-pair cap keeps its meaning), rounded to 0..10.
  Without ratings this gives back today's saliences exactly.
* **steering 2** (``ratings.steering``, what a fit writes; docs/ratings.md "The engine"): the
  four groups climb in D by clear steps. Yellow's candidates are the easiest eighth of the mode's
  categories by D ("easy"), quarter ("normal", and a number of phantoms) or three eighths
  ("hard"); each next tier's are every category whose D exceeds the tier before's by STEP_SD sds
  of D (over the mode's categories): ``Tables.level`` and ``Tables.step``, which both twins filter
  their moves by. Steering 1 (a file without the key) searches the library's own tiers, as the
  boards of such files were dealt.
* **colours**: a board's groups by ``D + w * slope * (board part of the model's score) / 10``:
  the learned difficulty where the category is rated, today's per-board score where it is not
  (its lure and pulls, which a rating already averages over), the model's colour order on ties.

The kernels run on the effective saliences and colour by the learned keys (both twins take them
the same way through ``prepare_model``'s ``learned``, built here once per ratings): the twins agree.
``recolour`` gives the same colours to a board coloured by the model (a daily: its schedule's board).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

import numpy as np

from .._connections_layout import SALIENCE_MAX, SCORE_HIDDEN, TIERS
from ..connections.assembly import KIT
from ..connections.board import Board
from ..connections.difficulty import ModelTables, model_tables, prepare_with_salience
from ..connections.tables import Tables, default_library, tables_for
from ..library import Library
from .document import Ratings
from .fit import MIN_PLAYS

__all__ = ["RatedModel", "rated_model", "recolour"]

_set_attr = object.__setattr__
_CACHE_ATTR = "_flagcore_rated_models"
_lock = threading.Lock()
_MAX_CACHED = 8  # rated models per Library: a server holds one ratings file, a test a few

# steering 2: per level, the octiles of the mode's categories (by D, easiest first) yellow comes
# from, and the step of D from one tier to the next, in sds of D over the mode's categories. The
# simulated players of tools/simulated_population.py solve four categories so spread in their order
# about half the time, against about a quarter for four at random (docs/ratings.md).
YELLOW_OCTILES = {"easy": 0, "normal": 1, "hard": 2}  # the last octile yellow may come from
STEP_SD = (0.8, 1.4)
LEVEL_SCALE = 1000  # D in sds, as the int the kernels compare (thousandths of an sd)


@dataclass(frozen=True, eq=False)
class RatedModel:
    """One (ratings, library, mode, engine)'s effective model: tables on the steering saliences,
    per category its blended difficulty and the model's share of it."""

    digest: str
    search: dict[str, Any]  # per level, the search's prepared tables: the library's, or steered_tables'
    # (steering 2); "normal" also for a number of tempting phantoms
    mt: ModelTables  # prepared on the steering saliences
    salience: tuple[int, ...]
    difficulty: tuple[float, ...]
    model_weight: tuple[float, ...]
    slope: float
    index: dict[str, int]
    # per category id, what recolour reads: (D, w * slope, the hidden-pair part of the model's
    # score), so that a board's colouring is one lookup per group (the same floats, in the same order)
    terms: dict[str, tuple[float, float, int]]

    def search_at(self, difficulty: Any) -> Any:
        """The search's prepared tables for a difficulty level (a number of phantoms: normal's)."""
        return self.search[difficulty] if isinstance(difficulty, str) else self.search["normal"]


def blend(ratings: Ratings, mode: str, ids: list[str], saliences: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(D, w) per category (see the module docstring)."""
    mm = ratings.model.get(mode)
    slope, intercept, s = (mm.slope, mm.intercept, mm.sd) if mm else (0.25, -1.25, ratings.prior_sd)
    rated = ratings.categories.get(mode, {})
    prior_prec = 1.0 / ratings.prior_sd**2
    d_out = np.empty(len(ids))
    w_out = np.empty(len(ids))
    for i, (cid, sal) in enumerate(zip(ids, saliences)):
        m = intercept + slope * (SALIENCE_MAX - sal)
        r = rated.get(cid)
        if r is None:
            d_out[i], w_out[i] = m, 1.0
        elif r.plays >= MIN_PLAYS:
            d_out[i], w_out[i] = r.difficulty, 0.0
        else:
            own = max(0.0, 1.0 / r.sd**2 - prior_prec)
            den = own + 1.0 / s**2
            d_out[i] = (r.difficulty / r.sd**2 + m / s**2) / den
            w_out[i] = (1.0 / s**2) / den
    return d_out, w_out


def steering_saliences(d: np.ndarray, saliences: list[int]) -> list[int]:
    """D on the salience scale: standardised to today's saliences' mean and spread, 0..10."""
    base = np.asarray(saliences, dtype=float)
    spread = float(d.std())
    if len(d) < 2 or spread < 1e-12:
        return list(saliences)
    mapped = base.mean() - (d - d.mean()) * (base.std() / spread)
    return [int(v) for v in np.clip(np.rint(mapped), 0, SALIENCE_MAX)]


def steered_tables(impl: Any, tables: Tables, d: np.ndarray, level_name: str) -> Any | None:
    """Steering 2's search tables for ``impl`` at one level (see the module docstring); None when D
    does not spread (every category alike) or when no board climbs so: then the library's tiers."""
    n = len(d)
    spread = float(d.std()) if n else 0.0
    if n < 2 * TIERS or spread < 1e-9:
        return None
    level = np.clip(np.rint((d - d.mean()) / spread * LEVEL_SCALE), -(10**6), 10**6).astype(np.int32)
    octile = np.empty(n, dtype=np.int64)
    octile[sorted(range(n), key=lambda i: (float(d[i]), i))] = np.arange(n) * 8 // n
    every = [i for i in range(n) if not tables.synthetic[i]] + [i for i in range(n) if tables.synthetic[i]]
    yellow = [i for i in every if octile[i] <= YELLOW_OCTILES[level_name]]  # library, then synthetic
    flat = np.array(yellow + every * (TIERS - 1), dtype=np.int32)
    off = np.array([0, *(len(yellow) + k * n for k in range(TIERS))], dtype=np.int32)
    step = (round(STEP_SD[0] * LEVEL_SCALE), round(STEP_SD[1] * LEVEL_SCALE))
    prepared = impl.prepare(replace(tables, tier_flat=flat, tier_off=off, level=level, step=step), KIT)
    # the search is complete: when one seed finds no board, none does (a library too small for the steps)
    return prepared if impl.search_one(prepared, 0, False, False, False)[0] == 0 else None


def rated_model(impl: Any, library: Library | None, mode: str, ratings: Ratings) -> RatedModel:
    """The RatedModel of (ratings, library, mode) for ``impl``, built once and kept on the Library."""
    lib = library if library is not None else default_library()
    digest = ratings.digest
    key = (digest, mode, impl.__name__)
    per = lib.__dict__.get(_CACHE_ATTR)
    if per is not None and key in per:
        return per[key]  # type: ignore[no-any-return]
    base = model_tables(impl, lib, mode)
    ids = [c.id for c in base.tables.categories]
    sal = [d.salience for d in base.data]
    d, w = blend(ratings, mode, ids, sal)
    steer = steering_saliences(d, sal)
    mm = ratings.model.get(mode)
    slope = mm.slope if mm else 0.25
    plain = tables_for(impl, lib, mode)[1]
    search = {}
    for name in YELLOW_OCTILES:
        steered = steered_tables(impl, base.tables, d, name) if ratings.steering >= 2 else None
        search[name] = steered if steered is not None else plain
    rm = RatedModel(
        digest,
        search,
        # the kernels colour by the learned keys (the same (D, w * slope) as recolour's terms)
        ModelTables(base.tables, base.data, prepare_with_salience(impl, base, steer, _learned(d, w, slope))),
        tuple(steer),
        tuple(float(x) for x in d),
        tuple(float(x) for x in w),
        slope,
        {cid: i for i, cid in enumerate(ids)},
        _terms(ids, d, w, steer, slope),
    )
    with _lock:
        per = lib.__dict__.setdefault(_CACHE_ATTR, {})
        if len(per) >= _MAX_CACHED:
            per.clear()
        per.setdefault(key, rm)
        return per[key]  # type: ignore[no-any-return]


def _learned(d: np.ndarray, w: np.ndarray, slope: float) -> tuple[list[float], list[float]]:
    """Per category (D, w * slope): what a learned colour key reads (the floats of _terms)."""
    return [float(x) for x in d], [float(x) * slope for x in w]


def _terms(
    ids: list[str], d: np.ndarray, w: np.ndarray, steer: list[int], slope: float
) -> dict[str, tuple[float, float, int]]:
    return {
        cid: (float(d[i]), float(w[i]) * slope, SCORE_HIDDEN * (SALIENCE_MAX - steer[i])) for i, cid in enumerate(ids)
    }


def recolour(board: Board, rm: RatedModel) -> Board:
    """``board`` (coloured by the kernel on ``rm``'s saliences) coloured by learned difficulty;
    ``stats["model"]["ratings"]`` names the ratings (its board id carries it). The board, its
    groups and stats are the kernel's fresh objects, ours until returned: changed in place."""
    model = board.stats["model"]
    model["ratings"] = rm.digest
    scores = model["scores"]
    terms = rm.terms
    groups = board.groups
    # each group's key: D + w * slope * (the board's part of its score: lure and pulls) /
    # SCORE_HIDDEN; written out for the four (a loop costs a third of generate's extra time here)
    d, ws, hidden = terms[groups[0].category_id]
    k0 = d + ws * (scores[0] - hidden) / SCORE_HIDDEN
    d, ws, hidden = terms[groups[1].category_id]
    k1 = d + ws * (scores[1] - hidden) / SCORE_HIDDEN
    d, ws, hidden = terms[groups[2].category_id]
    k2 = d + ws * (scores[2] - hidden) / SCORE_HIDDEN
    d, ws, hidden = terms[groups[3].category_id]
    k3 = d + ws * (scores[3] - hidden) / SCORE_HIDDEN
    if k0 <= k1 <= k2 <= k3:
        return board  # the kernel's colours already follow the learned order (the common case)
    keys = (k0, k1, k2, k3)
    order = sorted(range(TIERS), key=keys.__getitem__)  # stable: the model's order on ties
    pick = itemgetter(*order)
    for colour, g in enumerate(regrouped := pick(groups)):
        _set_attr(g, "tier", colour)  # a Group is frozen; these are the kernel's, new
    model["scores"] = list(pick(scores))
    model["search_tiers"] = list(pick(model["search_tiers"]))
    decoy = board.stats.get("decoy")
    if decoy is not None:
        decoy["tier"] = order.index(decoy["tier"])
    _set_attr(board, "groups", regrouped)
    return board
