"""``flagcore season``'s figures by what a player sees (issue 31): the label shown, its identity, its family.

A player sees labels, not category ids: two categories of one label identity can show the same
words (docs/season.md), and a family is the template a player remembers ("three vertical
stripes", "... is an official language"). Each figure here is one of the issue's done-when
figures, counted over a span of boards (one a day, in order):

- days holding a label (its words; its identity) shown in the past 1 / 7 days;
- per library tier, the shortest gap between two showings of one identity against 0.8 x the
  tier's turns per cycle (what the schedule guarantees);
- the group rule by identity: the same label with the same four flags within 180 days; within a
  year where its category has 6 or more certain flags; a return keeping 3 or 4 of its last four
  where 8 or more;
- days holding a family of the day before; days whose 7-day window holds a family 3 or more times;
- days holding a decoy four of a label of the past 7 days: four tiles, from two groups or more,
  that a category of that identity (not on the board) names exactly (every tile that certainly
  fits it is among them, each fits it certainly or arguably); and days holding a *complete* one
  (the category's fit set holds exactly those four tiles: the decoy fours a daily caps, step 4c
  of connections.daily), with the complete off-board fours a board deals (mean, max).
"""

from __future__ import annotations

import collections
from typing import Any

WEEK = 7
GROUP_DAYS = 180  # "no label with the same four flags within 180 days"
YEAR = 365
POOL_YEAR = 6  # ... "none within the year where the pool has 6 or more certain members"
POOL_KEEP = 8  # "a returning label keeps at most 2 of its last four where the pool has 8 or more"


def _repeats(keys: list[set[str]], window: int) -> int:
    """Days holding a key from the ``window`` days before."""
    return sum(1 for j in range(1, len(keys)) if keys[j] & {k for d in keys[max(0, j - window) : j] for k in d})


def shown_figures(boards: list[Any], cats: dict[str, Any], turns: list[int]) -> dict[str, Any]:
    """The figures by label shown, identity and family (``turns``: each tier's turns per cycle)."""
    idents = [[cats[g.category_id].identity for g in b.groups] for b in boards]
    families = [[cats[g.category_id].family for g in b.groups] for b in boards]
    return {
        "label_repeat_within_1": _repeats([{g.label for g in b.groups} for b in boards], 1),
        "label_repeat_within_7": _repeats([{g.label for g in b.groups} for b in boards], WEEK),
        "identity_repeat_within_1": _repeats([set(d) for d in idents], 1),
        "identity_repeat_within_7": _repeats([set(d) for d in idents], WEEK),
        "family_repeat_within_1": _repeats([set(f) for f in families], 1),
        "family_more_than_twice_in_7": _crowded_weeks(families),
        "tiers": _identity_gaps(boards, cats, turns),
        "groups": _group_rule(boards, cats),
        **_decoy_days(boards, cats),
        "families": _family_table(families),
    }


def _crowded_weeks(families: list[list[str]]) -> int:
    """Days whose 7-day window (the day and the six before) holds one family 3 or more times."""
    out = 0
    for j in range(len(families)):
        count = collections.Counter(f for d in families[max(0, j - WEEK + 1) : j + 1] for f in d)
        out += bool(count) and max(count.values()) > 2
    return out


def _identity_gaps(boards: list[Any], cats: dict[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """Per library tier: the shortest gap between two showings of one identity, against 0.8 x turns."""
    out = []
    for t, n in enumerate(turns):
        last: dict[str, int] = {}
        gaps = []
        for j, b in enumerate(boards):
            for g in b.groups:
                cat = cats[g.category_id]
                if cat.tier != t:
                    continue
                if cat.identity in last:
                    gaps.append(j - last[cat.identity])
                last[cat.identity] = j
        out.append({"turns_per_cycle": n, "target_gap": round(0.8 * n, 1), "min_gap": min(gaps, default=None)})
    return out


def _group_rule(boards: list[Any], cats: dict[str, Any]) -> dict[str, int]:
    """The group rule counted by identity (the label shown)."""
    seen: dict[tuple[str, frozenset[str]], int] = {}
    previous: dict[str, frozenset[str]] = {}
    within_180 = within_year_6 = keep_3_of_8 = 0
    for j, b in enumerate(boards):
        for g in b.groups:
            cat = cats[g.category_id]
            four = frozenset(g.codes)
            key = (cat.identity, four)
            if key in seen:
                within_180 += j - seen[key] <= GROUP_DAYS
                within_year_6 += j - seen[key] < YEAR and len(cat.certain) >= POOL_YEAR
            seen[key] = j
            if cat.identity in previous and len(cat.certain) >= POOL_KEEP:
                keep_3_of_8 += len(previous[cat.identity] & four) >= 3
            previous[cat.identity] = four
    return {
        "same_four_within_180": within_180,
        "same_four_within_year_pool_6": within_year_6,
        "returns_keeping_3_pool_8": keep_3_of_8,
    }


def _decoy_days(boards: list[Any], cats: dict[str, Any]) -> dict[str, Any]:
    """Days holding a decoy four (a complete one) of a label identity shown in the past 7 days,
    and the complete off-board fours per board (module docstring)."""
    by_identity: dict[str, list[Any]] = collections.defaultdict(list)
    for cat in cats.values():
        by_identity[cat.identity].append(cat)
    out = complete = 0
    per_board = []
    for j, b in enumerate(boards):
        shown = {cats[g.category_id].identity for d in boards[max(0, j - WEEK) : j] for g in d.groups}
        own = {g.category_id for g in b.groups}
        tiles = set(b.tiles)
        group_of = {code: k for k, g in enumerate(b.groups) for code in g.codes}
        recent = [cat for identity in shown for cat in by_identity[identity] if cat.id not in own]
        out += any(_is_decoy(cat, tiles, group_of) for cat in recent)
        complete += any(_is_complete(cat, tiles, group_of) for cat in recent)
        per_board.append(sum(_is_complete(cat, tiles, group_of) for cat in cats.values()))
    fours = {"mean": round(sum(per_board) / max(1, len(per_board)), 2), "max": max(per_board, default=0)}
    return {"decoy_days": out, "complete_decoy_days": complete, "decoy_fours": fours}


def _is_decoy(cat: Any, tiles: set[str], group_of: dict[str, int]) -> bool:
    fit = tiles & (cat.pool | cat.arguable)
    return len(fit) >= 4 and len(tiles & cat.certain) <= 4 and len({group_of[x] for x in fit}) >= 2


def _is_complete(cat: Any, tiles: set[str], group_of: dict[str, int]) -> bool:
    """Whether the category's fit set holds exactly four tiles, from two groups or more (a board's
    own category holds its group's four: one group)."""
    fit = tiles & (cat.pool | cat.arguable)
    return len(fit) == 4 and len({group_of[x] for x in fit}) >= 2


def _family_table(families: list[list[str]]) -> dict[str, dict[str, Any]]:
    """Per family: its showings, the shortest gap in days between two, the most in one 7-day window."""
    days_of: dict[str, list[int]] = collections.defaultdict(list)
    for j, day in enumerate(families):
        for f in day:
            days_of[f].append(j)
    out = {}
    for f, where in sorted(days_of.items()):
        gaps = [b - a for a, b in zip(where, where[1:])]
        most = max(sum(1 for x in where if d - WEEK < x <= d) for d in where)
        out[f] = {"shown": len(where), "min_gap": min(gaps, default=None), "most_in_7_days": most}
    return out
