"""Step 1, the turns: which category each tier's rotation gives day i, and each category's use index.

Per tier, the categories that some board can hold rotate (:class:`flagcore.season.Rotation`): one
turn each per cycle, in blocks, so two turns of a category are at least n - n // 5 days apart (n
turns per cycle). Categories with fewer than RARE_BELOW certain codes cannot come back without
keeping 3 of their 4 flags: they share turns (each shared turn goes to one of them in turn), as few
shared turns as bring each back within a year. In trivia mode a board holds at least ``min_facts``
fact groups (about the country, not its flag's look), and with every category once per cycle the
average day would hold fewer than two: the look categories share turns in pairs, so facts come
about twice as often as looks (the plan's matching also asks that a day can still hold its fact
groups). Within each block the categories a player sees more readily (the difficulty model's
salience) go to the earlier weekdays, so the week runs easy to hard.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ... import season as _season
from ..._impl import core
from .state import ITEMS, TIERS, WEEK, Schedule

# A category with fewer certain codes cannot come back without keeping 3 of its 4 previous
# members. The rare ones of a tier share turns: each shared turn of the rotation goes to one of
# its rare categories in turn, so each comes back that many times less often, but at least once
# in YEAR days (as few shared turns as allow that).
RARE_BELOW = 6
YEAR = 364
FAR = 1 << 30  # the distance of a category with no turn near a day
# From version 2, a family shows at most this many times a WEEK on average (over the tiers): a
# family over it shares turns among its categories (``balanced_shares``). Twice a week is the
# issue's bound for every window; an average below it leaves the matching room to space them.
FAMILY_PER_WEEK = 1.5
SHORTEST = 0.75  # ... while a tier's cycle keeps this fraction of its turns (groups come back sooner)


@dataclass(frozen=True)
class Pools:
    """What a tier's shared turns are made from: per category its certain codes, whether it is a
    fact group and its label identity; the fact groups a board must hold; the mode and season key
    (the streams the shares are shuffled by)."""

    certain: tuple[frozenset[int], ...]
    facts: tuple[int, ...]
    identity: tuple[int, ...]
    family: tuple[int, ...]
    min_facts: int
    mode: str
    key: bytes | None

    def shuffled(self, items: list[int], name: str) -> list[int]:
        """``items`` shuffled by the stream ``season|MODE|NAME`` (keyed by the season key)."""
        return core.rng.shuffle(items, core.rng.Rng(_season.keyed(f"season|{self.mode}|{name}", self.key)))


def tier_shares(placeable: tuple[int, ...], pools: Pools, t: int, by_identity: bool) -> tuple[tuple[int, ...], ...]:
    """Tier t's shared turns: by label identity (``by_identity``), then the small pools', then
    (trivia) the look categories' pairs, each category in one share at most."""
    same = identity_shares(placeable, pools, t) if by_identity else ()
    alone = tuple(c for c in placeable if not any(c in share for share in same))
    return same + shares(alone, pools, t) + look_pairs(alone, pools, t)


def shares(placeable: tuple[int, ...], pools: Pools, t: int) -> tuple[tuple[int, ...], ...]:
    """The tier's rare categories dealt into the fewest shared turns that bring each back within YEAR days."""
    certain = pools.certain
    rare = [c for c in placeable if len(certain[c]) < RARE_BELOW]
    if not rare:
        return ()
    if len(rare) == 1:  # one alone would keep a turn of its own: it shares with the largest pool
        rare.append(max((c for c in placeable if c not in rare), key=lambda c: (len(certain[c]), -c)))
    regular = len(placeable) - len(rare)
    k = next(k for k in range(1, len(rare) + 1) if -(-len(rare) // k) * (regular + k) <= YEAR or k == len(rare))
    rare = pools.shuffled(rare, f"{t}|shares")
    return tuple(tuple(rare[j::k]) for j in range(k))


def identity_shares(placeable: tuple[int, ...], pools: Pools, t: int) -> tuple[tuple[int, ...], ...]:
    """The tier's categories that can show the same words (one label identity), each set sharing
    one turn: a player sees the label once per cycle of the tier, whichever category shows it."""
    by: dict[int, list[int]] = {}
    for c in placeable:
        by.setdefault(pools.identity[c], []).append(c)
    same = [pools.shuffled(cs, f"{t}|same|{j}") for j, cs in enumerate(cs for cs in by.values() if len(cs) > 1)]
    return tuple(tuple(cs) for cs in same)


def look_pairs(placeable: tuple[int, ...], pools: Pools, t: int) -> tuple[tuple[int, ...], ...]:
    """Where boards must hold fact groups (trivia), the tier's look categories (about the flag, not
    the country) in pairs that share a turn: each comes back half as often, so the days' plans hold
    about twice as many facts as looks and the matching can give every day its fact groups (with
    each category once per cycle the average day would hold fewer than two). An odd one out joins
    the last pair (a look alone would come back twice as often as the others)."""
    if not pools.min_facts:
        return ()
    looks = [c for c in placeable if not pools.facts[c] and len(pools.certain[c]) >= RARE_BELOW]
    looks = pools.shuffled(looks, f"{t}|looks")
    pairs = [looks[j : j + 2] for j in range(0, len(looks) - 1, 2)]
    if len(looks) % 2 and pairs:
        pairs[-1].append(looks[-1])
    return tuple(tuple(p) for p in pairs)


def balanced_shares(
    placeable: tuple[tuple[int, ...], ...], pools: Pools, first: list[tuple[tuple[int, ...], ...]]
) -> list[tuple[tuple[int, ...], ...]]:
    """Every tier's shared turns from ``first`` (each tier's ``tier_shares`` by identity) on, merged
    until, as a player sees the season, the family comes first. While a category of 6 or more
    certain codes would have more uses in a YEAR than distinct fours (``uses_in_a_year``), its turn
    is shared (with another such, else one of its family, else the tier's smallest); then, while a
    family shows more than FAMILY_PER_WEEK times a WEEK (each category WEEK / (turns per cycle x its
    share's lap), over the tiers), two of its turns in the tier where it is most frequent become one
    (its two smallest), as long as that tier keeps SHORTEST of its turns. Each merge shortens a
    tier's cycle by one (every other category comes a little more often), so the figures are
    recomputed after each; a family with one turn per tier stays over the bound."""
    items = []
    for t, placed in enumerate(placeable):
        shared = {c for share in first[t] for c in share}
        items.append([list(share) for share in first[t]] + [[c] for c in placed if c not in shared])

    floor = [math.ceil(SHORTEST * len(tier)) for tier in items]  # a cycle shortens this far at most

    def rates() -> dict[int, float]:
        """Per family: its showings a week."""
        out: dict[int, float] = {}
        for tier in items:
            for item in tier:
                for c in item:
                    out[pools.family[c]] = out.get(pools.family[c], 0.0) + WEEK / (len(tier) * len(item))
        return out

    def lacks(t: int, item: list[int]) -> bool:
        n = len(items[t])
        return any(
            len(pools.certain[c]) >= RARE_BELOW
            and math.comb(len(pools.certain[c]), ITEMS) < -(-YEAR // (n * len(item))) + 1
            for c in item
        )

    def short_of_fours(t: int) -> list[int] | None:
        return next((item for item in items[t] if lacks(t, item)), None)

    def merge(t: int, a: list[int], b: list[int]) -> None:
        items[t].remove(b)
        a.extend(b)

    while True:
        short = next(((t, x) for t in range(len(items)) if (x := short_of_fours(t)) is not None), None)
        if short is not None:
            t, item = short
            rest = sorted((x for x in items[t] if x is not item), key=lambda x: (len(x), x))
            if not rest:
                break
            also = [x for x in rest if lacks(t, x)]
            kin = [x for x in rest if pools.family[x[0]] == pools.family[item[0]]]
            merge(t, item, (also or kin or rest)[0])
            continue
        pick = _family_merge(items, floor, pools, rates())
        if pick is None:
            break
        merge(*pick)
    out = []
    for t, tier in enumerate(items):
        merged = [x for x in tier if len(x) > 1]
        out.append(tuple(tuple(pools.shuffled(sorted(x), f"{t}|family|{j}")) for j, x in enumerate(merged)))
    return out


Merge = tuple[int, list[int], list[int]]  # (tier, the turn that grows, the turn it takes in)


def _family_merge(items: list[list[list[int]]], floor: list[int], pools: Pools, rate: dict[int, float]) -> Merge | None:
    """The next merge for a family shown more than FAMILY_PER_WEEK times a WEEK: two of its turns,
    its smallest, in the tier where it is most frequent and the cycle may still shorten."""
    for f in sorted((f for f in rate if rate[f] > FAMILY_PER_WEEK), key=lambda f: (-rate[f], f)):
        mine = [[x for x in tier if pools.family[x[0]] == f] for tier in items]
        tiers = [t for t in range(len(items)) if len(mine[t]) >= 2 and len(items[t]) > floor[t]]
        if tiers:
            t = max(tiers, key=lambda t: (len(mine[t]) / len(items[t]), -t))
            a, b = sorted(mine[t], key=lambda x: (len(x), x))[:2]
            return t, a, b
    return None


def turns_per_cycle(placeable: tuple[int, ...], tier_shares: tuple[tuple[int, ...], ...]) -> int:
    """A tier's rotation items: its categories, each shared turn counted once."""
    return len(placeable) - sum(len(x) for x in tier_shares) + len(tier_shares)


def _ease(s: Schedule, salience: list[float], t: int, item: int, k: int) -> float:
    """How readily a player sees rotation item ``item`` of tier t in cycle k (higher: easier)."""
    return salience[rare_member(s, t, -1 - item, k) if item < 0 else item]


def _seen_as(s: Schedule, t: int, item: int) -> tuple[int, int]:
    """(family, label identity) of tier t's rotation item ``item`` (a shared turn: its first category's)."""
    c = s.shares[t][-1 - item][0] if item < 0 else item
    return s.family[c], s.identity[c]


def make_rotations(s: Schedule, salience: list[float]) -> None:
    """Each tier's Rotation: its own categories, then one item -1 - j per shared turn j."""
    s.rotations = []
    for t in range(TIERS):
        shared = {c for share in s.shares[t] for c in share}
        items = [c for c in s.placeable[t] if c not in shared] + [-1 - j for j in range(len(s.shares[t]))]
        ease = functools.partial(_ease, s, salience, t)
        spread = functools.partial(_seen_as, s, t) if s.version >= 2 else None
        rot = _season.Rotation(
            items,
            f"season|{s.mode}|{t}",
            ease=ease,
            season_key=s.season_key,
            rng=s.engine_rng,
            spread=spread,
            best=s.version >= 2,
        )
        s.rotations.append(rot)


def rare_member(s: Schedule, t: int, j: int, k: int) -> int:
    """The rare category that has tier t's shared turn j in cycle k: each in turn, in a fixed order."""
    share = s.shares[t][j]
    return share[k % len(share)]


def turn_at(s: Schedule, t: int, i: int) -> tuple[int, int]:
    """(the category tier t plans for day i, its use index: the turns it had before this one)."""
    if s.pattern is not None:  # version 3: the families' pattern (families.py)
        return s.pattern.turn(t, i)  # type: ignore[no-any-return]
    rot = s.rotations[t]
    k = i // rot.n
    item = rot.at(i)
    if item >= 0:
        return item, k
    share = s.shares[t][-1 - item]  # a shared turn: its rare categories take it in turn, one lap each
    return share[k % len(share)], k // len(share)


def planned_at(s: Schedule, t: int, i: int) -> int:
    """The category tier t plans for day i."""
    if s.pattern is not None:  # version 3: a day's plan is read for the days around it, kept
        return plan(s, i)[t][0]
    return turn_at(s, t, i)[0]


def plan(s: Schedule, i: int) -> tuple[tuple[int, int], ...]:
    """Per tier, (the category planned for day i, its use index: the turns it had before this one)."""
    hit = s.memo.get(("plan", i))
    if hit is None:
        hit = s.memo.put(("plan", i), tuple(turn_at(s, t, i) for t in range(TIERS)))
    return hit  # type: ignore[no-any-return]


def own_turn(s: Schedule, c: int, i: int) -> int | None:
    """Category c's use index when day i is its own turn (it is the day's planned category), else None."""
    planned, u = plan(s, i)[s.tier_of[c]]
    return u if planned == c else None


def turns(s: Schedule, c: int, i: int) -> list[tuple[int, int]]:
    """(day, use index) of category c's turns in day i's cycle and its neighbours."""
    t = s.tier_of[c]
    if s.pattern is not None:
        return s.pattern.turns_of(c, t, i)  # type: ignore[no-any-return]
    rot = s.rotations[t]
    k = i // rot.n
    cycles = [q for q in (k - 1, k, k + 1) if q >= 0]
    if c in rot.items:
        return [(rot.turn(c, q), q) for q in cycles]
    for j, share in enumerate(s.shares[t]):
        if c in share:  # its use index counts its own turns: one per lap of the shared turn
            return [(rot.turn(-1 - j, q), q // len(share)) for q in cycles if rare_member(s, t, j, q) == c]
    return []


def distances(s: Schedule, t: int, i: int) -> dict[int, int]:
    """Days from day i to each category's nearest turn in tier t (in day i's cycle or a neighbour);
    a category with no turn there (a rare one between its turns) is absent: it is far."""
    hit = s.memo.get(("near", t, i))
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    if s.pattern is not None:
        near = {c: min(abs(d - i) for d, _ in du) for c in s.placeable[t] if (du := s.pattern.turns_of(c, t, i))}
        return s.memo.put(("near", t, i), near)  # type: ignore[no-any-return]
    rot = s.rotations[t]
    k = i // rot.n
    out: dict[int, int] = {}
    for q in (k - 1, k, k + 1):
        if q < 0:
            continue
        base = q * rot.n - i
        for j, item in enumerate(rot.cycle(q)[0]):
            c = rare_member(s, t, -1 - item, q) if item < 0 else item
            d = abs(base + j)
            if d < out.get(c, FAR):
                out[c] = d
    return s.memo.put(("near", t, i), out)  # type: ignore[no-any-return]


def label_distances(s: Schedule, t: int, i: int) -> dict[int, int]:
    """``distances`` as a player sees them: from version 2, each category's distance is its label
    identity's (the nearest turn of any category of the tier that shows the same words), so a
    fallback never takes a category whose label another category's turn shows days before or after
    (version 1: each category's own)."""
    near = distances(s, t, i)
    if s.version < 2:
        return near
    hit = s.memo.get(("shown-near", t, i))
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    by_identity: dict[int, int] = {}
    for c, d in near.items():
        by_identity[s.identity[c]] = min(d, by_identity.get(s.identity[c], FAR))
    out = {c: by_identity[s.identity[c]] for c in s.placeable[t] if s.identity[c] in by_identity}
    return s.memo.put(("shown-near", t, i), out)  # type: ignore[no-any-return]


def use_at(s: Schedule, t: int, item: int, i: int) -> int:
    """The use index of tier t's rotation item ``item`` on day i (its turn count before this one)."""
    k = i // s.rotations[t].n
    return k if item >= 0 else k // len(s.shares[t][-1 - item])


def uses_in_a_year(s: Schedule, c: int) -> int:
    """The most turns category c has in YEAR days: one per cycle of its tier's rotation, one per lap
    of its shared turn for a rare one (a turn moves by less than a block between cycles, hence + 1)."""
    t = s.tier_of[c]
    if s.pattern is not None:
        return s.pattern.uses_in_a_year(c, t, YEAR)  # type: ignore[no-any-return]
    lap = next((len(share) for share in s.shares[t] if c in share), 1)
    return -(-YEAR // (s.rotations[t].n * lap)) + 1
