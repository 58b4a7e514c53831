"""Schedule version 2 plans family first (issue 31): shared turns by family, blocks matched by their best grade."""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections.daily import schedule
from flagcore.connections.daily.turns import RARE_BELOW, YEAR
from flagcore.season import best_match

WEEK = 7


@settings(max_examples=80, deadline=None)
@given(
    grades=st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_best_match_reaches_the_best_assignment(grades):
    n = len(grades)
    out = best_match(list(range(n)), 0, lambda x, d: grades[x][d])
    assert sorted(out) == list(range(n))

    def value(days):  # days[x]: item x's day
        return (sum(grades[x][d] > 0 for x, d in enumerate(days)), sum(grades[x][d] for x, d in enumerate(days)))

    got = value([out.index(x) for x in range(n)])
    assert got == max(value(p) for p in itertools.permutations(range(n)))
    if all(grades[x][x] == max(grades[x]) > 0 for x in range(n)):  # the given order fits best: kept
        assert out == list(range(n))


def _rates(s):
    """Each family's showings a week, over the tiers (each category: 7 / (turns per cycle x its lap))."""
    out = {}
    for t, rot in enumerate(s.rotations):
        lap = {c: len(share) for share in s.shares[t] for c in share}
        for c in s.placeable[t]:
            out[s.family[c]] = out.get(s.family[c], 0.0) + WEEK / (rot.n * lap.get(c, 1))
    return out


def test_families_share_turns_until_they_rest_or_cannot():
    for mode in ("flags", "trivia"):
        s = schedule(None, mode, version=2)
        v1 = schedule(None, mode, version=1)
        before, after = _rates(v1), _rates(s)
        assert max(after.values()) < max(before.values()), mode
        # and no more families above twice a week than before (shorter cycles make the small
        # families come more often, so more of them pass FAMILY_PER_WEEK)
        assert sum(r > 2 for r in after.values()) <= sum(r > 2 for r in before.values()), mode
        # one label identity keeps one turn per tier: its categories share it
        for t in range(4):
            turn_of = {c: j for j, share in enumerate(s.shares[t]) for c in share}
            by_identity = {}
            for c in s.placeable[t]:
                by_identity.setdefault(s.identity[c], set()).add(turn_of.get(c, ("own", c)))
            assert all(len(turns) == 1 for turns in by_identity.values()), (mode, t)
        # and a pool of 6 or more keeps a distinct four for each use of a year
        for t, rot in enumerate(s.rotations):
            lap = {c: len(share) for share in s.shares[t] for c in share}
            for c in s.placeable[t]:
                p = len(s.certain[c])
                if p >= RARE_BELOW:
                    assert math.comb(p, 4) >= -(-YEAR // (rot.n * lap.get(c, 1))) + 1, (mode, t, c)
