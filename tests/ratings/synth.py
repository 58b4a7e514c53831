"""Synthetic play records for the ratings tests: a hidden difficulty per category, games ranked by
Plackett-Luce draws (Gumbel noise), weaker players leaving the hardest groups unsolved."""

from __future__ import annotations

import numpy as np

from flagcore.connections.tables import default_library
from flagcore.ratings import PlayRecord


def hidden(mode: str, seed: int = 0) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    return {c.id: float(rng.normal(0, 1.0)) for c in default_library().categories(mode)}


def games(mode: str, n: int, truth: dict[str, float], seed: int = 1, skill: float | None = None) -> list[PlayRecord]:
    """n games; ``skill`` None: each player's skill drawn N(0, 1); else every player that skill.
    A player finds groups easiest first (noisy), and leaves unsolved those harder than their skill
    allows."""
    rng = np.random.default_rng(seed)
    ids = sorted(truth)
    d = np.array([truth[i] for i in ids])
    out = []
    for g in range(n):
        cs = rng.choice(len(ids), 4, replace=False)
        s = rng.normal(0, 1) if skill is None else skill
        order = np.argsort(d[cs] - rng.gumbel(size=4))  # easiest (lowest difficulty) first
        at = [0] * 4
        for pos, gi in enumerate(order):
            at[gi] = pos + 1
        solved = 4 if d[cs].max() < s + 1.5 else int(np.sum(d[cs] < s + 1.5))
        solved = 4 if solved >= 3 else solved  # three found: the fourth is the last four tiles
        at = [a if a <= solved else 0 for a in at]
        won = solved == 4
        mistakes = int(rng.integers(0, 4)) if won else 4
        out.append(
            PlayRecord(
                f"b{g % 40}",
                mode,
                None,
                "normal",
                won,
                mistakes,
                tuple(ids[c] for c in cs),
                tuple(at),
                tuple(("FR", "DE", "IT", "ES") for _ in range(mistakes)),
            )
        )
    return out
