"""Learned difficulty from play records: a Plackett-Luce fit per mode (docs/ratings.md, "The fit").

A game's order of solving is a ranking of its four groups (the unsolved ones tied last). The
Plackett-Luce (exploded logit) model reads it as three choices in turn: the first group found
among the four, the next among the three left, and so on; each group is chosen with probability
proportional to exp(-difficulty) of its category among those still open. A lost game's unsolved
groups are tied: they only say that every solved group was easier. Why this and not a rating
per player: records carry no player, and a player's skill does not enter a ranking *within* one
board (a strong player is faster at every group of the board alike, which cancels in each choice's
ratio), so the fit needs no skill term at all. Mistakes and wins are the board's and the
player's, not a category's: they go into the per-board figures, never into a category's rating.

The fit is the posterior mode under a normal prior N(0, prior_sd^2) per category (which also fixes
the scale's origin: the mean category is about 0), found by Newton's method on the exact
log-posterior (concave, so it converges from 0 in a handful of steps); each category's ``sd`` is
from the inverse Hessian at the mode (Laplace). Everything is numpy over the whole record set in
chunks: deterministic (no random start, a fixed order of sums) and fast (1,000,000 records in a
few seconds, benchmarks/bench_ratings.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from .._args.connections import MODES, as_mode
from .._args.ratings import COLOURS
from .._connections_layout import SALIENCE_MAX
from ..library import Library
from .document import STEERING, BoardRating, CategoryRating, ModelMap, Ratings
from .records import PlayRecord

__all__ = ["PRIOR_SD", "MIN_PLAYS", "fit", "fit_arrays", "spearman"]

PRIOR_SD = 2.0  # logits: a category 2 sd from the mean is found first e^4 ~ 55 times less often
MIN_PLAYS = 30  # plays a category needs before its learned difficulty stands alone
DEFAULT_SLOPE = 0.25  # logits per salience point, before enough categories are rated to fit it
CHUNK = 100_000
MAX_STEPS = 50
_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _events(cats: np.ndarray, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each game's choices as events: (the 4 categories (E, 4), which of them were still open
    (E, 4) as 0/1, the category chosen (E,)). A choice among one open group says nothing: dropped."""
    ranks = np.where(ranks == 0, 5, ranks)
    cs, os_, ws = [], [], []
    for t in (1, 2, 3):
        open_ = ranks >= t
        chosen = ranks == t
        ok = chosen.any(axis=1) & (open_.sum(axis=1) >= 2)
        cs.append(cats[ok])
        os_.append(open_[ok])
        ws.append(cats[ok][chosen[ok]])  # one chosen per row, in row order
    return np.concatenate(cs), np.concatenate(os_).astype(np.float64), np.concatenate(ws)


def fit_arrays(
    cats: np.ndarray, ranks: np.ndarray, k: int, prior_sd: float = PRIOR_SD
) -> tuple[np.ndarray, np.ndarray]:
    """(difficulty, sd) per category 0..k-1 from ``cats`` (n, 4) category indices and ``ranks``
    (n, 4): 1..4 the position each group was solved at, 0 unsolved."""
    c_all, o_all, chosen = _events(np.asarray(cats, dtype=np.intp).reshape(-1, 4), np.asarray(ranks).reshape(-1, 4))
    prec = 1.0 / prior_sd**2
    wins = np.bincount(chosen, minlength=k).astype(np.float64)
    theta = np.zeros(k)  # easiness: -difficulty

    def evaluate(th: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        e = np.exp(th)  # |theta| stays small under the prior: no overflow to guard against
        ll = -0.5 * prec * float(th @ th) + float(wins @ th)
        g = wins - prec * th
        h = np.zeros(k * k)
        for lo in range(0, len(c_all), CHUNK):
            c = c_all[lo : lo + CHUNK]
            u = e[c] * o_all[lo : lo + CHUNK]
            z = u.sum(axis=1)
            ll -= float(np.log(z).sum())
            p = u / z[:, None]
            g -= np.bincount(c.ravel(), p.ravel(), minlength=k)
            # -Hessian of each choice: diag(p) - p p^T, its 6 pairs one at a time
            h[:: k + 1] += np.bincount(c.ravel(), (p * (1 - p)).ravel(), minlength=k)
            for a, b in _PAIRS:
                off = np.bincount(c[:, a] * k + c[:, b], p[:, a] * p[:, b], minlength=k * k)
                h -= off
                h -= off.reshape(k, k).T.ravel()
        return ll, g, h.reshape(k, k) + prec * np.eye(k)

    ll, g, h = evaluate(theta)
    for _ in range(MAX_STEPS):
        step = np.linalg.solve(h, g)
        scale = 1.0
        while True:  # the log-posterior is concave: a full Newton step nearly always gains
            cand = theta + scale * step
            ll2, g2, h2 = evaluate(cand)
            if ll2 >= ll - 1e-9 or scale < 1e-4:
                break
            scale /= 2
        theta, ll, g, h = cand, ll2, g2, h2
        if float(np.abs(scale * step).max(initial=0.0)) < 1e-6:
            break
    sd = np.sqrt(np.diag(np.linalg.inv(h)))
    return -theta, sd


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties); nan for fewer than 2 values."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) < 2:
        return math.nan

    def rank(v: np.ndarray) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v))
        for val in np.unique(v):  # ties share their mean rank
            sel = v == val
            r[sel] = r[sel].mean()
        return r

    rx, ry = rank(x), rank(y)
    rx -= rx.mean()
    ry -= ry.mean()
    den = math.sqrt(float(rx @ rx) * float(ry @ ry))
    return float(rx @ ry) / den if den else math.nan


def _saliences(library: Library | None, mode: str) -> dict[str, int]:
    """The difficulty model's salience of each category of ``mode`` (today's hand-set model)."""
    from ..connections.difficulty import category_difficulty  # noqa: PLC0415 (the fit runs without it)
    from ..connections.tables import default_library  # noqa: PLC0415

    lib = library if library is not None else default_library()
    return {c.id: category_difficulty(c, lib).salience for c in lib.categories(mode)}


def _model_map(ids: list[str], d: np.ndarray, sd: np.ndarray, plays: np.ndarray, sal: dict[str, int]) -> ModelMap:
    """How today's model predicts the learned scale: difficulty ~ intercept + slope * (SALIENCE_MAX -
    salience), with the residual sd; fitted on the categories with MIN_PLAYS plays or more."""
    x_all = np.array([SALIENCE_MAX - sal[i] for i in sal], dtype=float)
    x = np.array([SALIENCE_MAX - sal[i] for i in ids], dtype=float)
    rated = plays >= MIN_PLAYS
    if rated.sum() >= 5 and np.ptp(x[rated]) > 0:
        w = 1.0 / sd[rated] ** 2
        xm = float((w * x[rated]).sum() / w.sum())
        ym = float((w * d[rated]).sum() / w.sum())
        sxx = float((w * (x[rated] - xm) ** 2).sum())
        slope = max(0.0, float((w * (x[rated] - xm) * (d[rated] - ym)).sum()) / sxx)
        intercept = ym - slope * xm
        resid = d[rated] - (intercept + slope * x[rated])
        var = float((w * resid**2).sum() / w.sum()) - float((sd[rated] ** 2).mean())
        return ModelMap(slope, intercept, math.sqrt(max(var, 0.05)))
    slope = DEFAULT_SLOPE
    return ModelMap(slope, -slope * float(x_all.mean()) if len(x_all) else 0.0, PRIOR_SD)


def fit(
    records: Iterable[PlayRecord],
    mode: str | None = None,
    *,
    library: Library | None = None,
    prior_sd: float = PRIOR_SD,
) -> Ratings:
    """Ratings from play records: per mode (``mode``: one, None: every mode in the records), each
    category's difficulty (higher is harder), its sd and plays; per board, its plays, win rate and
    mean mistakes; per colour, how often it was found 1st .. 4th or not at all; how today's model
    maps onto the learned scale. A record whose categories the library does not hold for its mode
    is skipped and counted (``ratings.skipped``)."""
    modes = MODES if mode is None else (as_mode(mode),)
    by_mode: dict[str, list[PlayRecord]] = {m: [] for m in modes}
    sal: dict[str, dict[str, int]] = {m: _saliences(library, m) for m in modes}
    skipped = 0
    for rec in records:
        if rec.mode not in by_mode:
            continue
        if not all(c in sal[rec.mode] for c in rec.categories):
            skipped += 1
            continue
        by_mode[rec.mode].append(rec)
    out = Ratings(prior_sd=prior_sd, steering=STEERING, skipped=skipped)
    for m, recs in by_mode.items():
        if not recs and mode is None:
            continue
        ids = sorted({c for r in recs for c in r.categories})
        index = {c: i for i, c in enumerate(ids)}
        cats = np.array([[index[c] for c in r.categories] for r in recs], dtype=np.int64).reshape(-1, 4)
        ranks = np.array([r.solved_at for r in recs], dtype=np.int8).reshape(-1, 4)
        d, sd = fit_arrays(cats, ranks, len(ids), prior_sd) if ids else (np.zeros(0), np.zeros(0))
        plays = np.bincount(cats.ravel(), minlength=len(ids))
        out.categories[m] = {
            c: CategoryRating(round(float(d[i]), 6), round(float(sd[i]), 6), int(plays[i])) for i, c in enumerate(ids)
        }
        out.model[m] = _model_map(ids, d, sd, plays, sal[m])
        colours = np.zeros((4, 5), dtype=np.int64)  # colour x (1st, 2nd, 3rd, 4th, unsolved)
        for col in range(4):
            colours[col] = np.bincount(np.where(ranks[:, col] == 0, 5, ranks[:, col]) - 1, minlength=5)[:5]
        out.colours[m] = {COLOURS[i]: [int(v) for v in colours[i]] for i in range(4)}
        out.boards[m] = _boards(recs)
        out.records[m] = len(recs)
    return out


def _boards(recs: list[PlayRecord]) -> dict[str, BoardRating]:
    """Per board: plays, the share won and the mean mistakes (its difficulty), with that mean's sd."""
    acc: dict[str, list[int]] = {}
    for r in recs:
        a = acc.setdefault(r.board, [0, 0, 0, 0])
        a[0] += 1
        a[1] += r.won
        a[2] += r.mistakes
        a[3] += r.mistakes * r.mistakes
    out = {}
    for b, (n, won, s, s2) in sorted(acc.items()):
        mean = s / n
        var = max(s2 / n - mean * mean, 0.0)
        # the mean's sd, with one pseudo-play of variance 1 so that a single play is not certain
        out[b] = BoardRating(round(mean, 6), round(math.sqrt((var * n + 1) / (n * (n + 1))), 6), n, round(won / n, 6))
    return out
