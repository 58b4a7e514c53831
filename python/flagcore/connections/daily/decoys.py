"""Step 4c, from schedule version 3: few decoy fours, none of a label of the past week (issue 31).

A *complete off-board four* (a decoy four) is a category of the mode, not one of the board's, whose
fit set (certain and arguable codes) holds exactly four of the sixteen tiles, drawn from two
groups or more: four tiles a player can submit whole that share a true feature and are not an
answer. Blind testers lost most of their mistakes to boards full of them, and remembered past
days' labels coming back as one. A day of version 3 deals at most ``DECOY_FOURS_CAP`` (3, the rule
of ``generate``), and none of a label identity that the WEEK days before showed:

1. **the day's categories are settled** against the cap alone (:func:`settled`): its members of
   step 4 are *repaired* (:func:`repair`) until the board deals at most the cap and has no
   second split; where no repair gets there, the day takes other categories as step 4b does (each
   tier in depth order with its category left out, then with the replacement left out too, up
   to OTHERS deep; the planned cell's categories first, the labels of the week's first drafts
   last), the first whose repair passes.
   Settling reads no other day, so the labels a day shows are known without its members, and a
   day's week before costs WEEK settlings, never a replay;
2. **the week's labels**: the label identities the WEEK days before settled on (the days of an
   earlier version: their boards, which nothing here changes) are repaired away too, from the
   members of step 4, then on from the settled draw; where neither clears them all, the day keeps
   its settled draw (the cap held, a decoy of a recent label left: counted by ``flagcore
   season``, docs/season.md).

A repair is greedy and draws nothing: each step scores every swap of a tile for one of the next
TRIES codes its group's order reads past it (members, with that tile and the codes tried before
left out) and keeps the swap with the fewest faults (decoy fours over the cap, plus those of a
recent label; a draw with a second split is never accepted), the tiles that most of the fours to
break hold first; a code left out stays out, so a repair ends. A group's codes are still the ones
that fit no other group (the fixed search's exclusive codes), read in its own order. Every step is
a function of the day alone. The count is the engine's ``decoy_fours`` kernel; which fours a
recent label names, and which tiles to swap, are read from the schedule's fit sets here.
"""

from __future__ import annotations

from ..._connections_layout import DECOY_FOURS_CAP
from . import published
from .build import schedule
from .fours import Fours, day_fours, has_split, other_categories, others_fit
from .members import members
from .search import Found, daily_categories, first_draft
from .state import ITEMS, TIERS, WEEK, Schedule, version_of

REPAIRS = 32  # swaps a repair makes at most (a bound for the rare day that never gets there)
TRIES = 8  # codes a tile's group reads past it that a step tries in its place
OTHERS = 3  # replacements a tier tries in turn when no repair of the day's categories passes

Draw = tuple[Fours, tuple[int, ...]]  # (the fours, per group the codes a repair left out)
Settled = tuple[Found, Draw | None, int]  # (categories, their capped draw or None, how: tiles.py stats)


def decoy_count(s: Schedule, fours: Fours) -> int:
    """The board's complete off-board fours (the engine's kernel, the twin in use)."""
    return int(s.impl.decoy_fours(s.prepared, [x for f in fours for x in f]))


def complete_fours(s: Schedule, fours: Fours, among: list[int]) -> list[int]:
    """The complete off-board fours of the categories ``among`` (not the board's), as code bit sets."""
    board, groups = 0, set()
    for f in fours:
        m = sum(1 << x for x in f)
        board |= m
        groups.add(m)
    out = []
    for c in among:
        m = s.fit_mask[c] & board
        if m.bit_count() == ITEMS and m not in groups:
            out.append(m)
    return out


def _faults(s: Schedule, fours: Fours, recent: list[int]) -> int:
    """Decoy fours over the cap plus those of the ``recent`` categories; 1 for a clean draw with a
    second split (never accepted)."""
    f = len(complete_fours(s, fours, recent)) + max(0, decoy_count(s, fours) - DECOY_FOURS_CAP)
    return f if f or not has_split(s, fours) else 1


def repair(s: Schedule, i: int, cats: list[int], recent: list[int], start: Draw | None = None) -> Draw | None:
    """Day i's members for ``cats`` repaired to no fault (module docstring), or None.

    ``recent``: the categories whose complete fours the board must not deal (none: the cap alone);
    ``start``: the repair to go on from (None: the members of step 4)."""
    taken = others_fit(s, cats)
    if start is None:
        cur = [members(s, c, i, taken[g]) for g, c in enumerate(cats)]
        left = [0] * TIERS  # per group, the codes left out (they stay out: a repair ends)
    else:
        cur, left = start[0], list(start[1])
    faults = _faults(s, cur, recent)
    everyone = range(len(s.fit_mask))
    read: dict[tuple[int, int], list[int]] = {}  # (group, codes left out): the four its members read
    for _ in range(REPAIRS):
        if faults == 0:
            return cur, tuple(left)
        over = decoy_count(s, cur) > DECOY_FOURS_CAP
        targets = complete_fours(s, cur, recent) + (complete_fours(s, cur, list(everyone)) if over else [])
        # every tile is a candidate: one outside a four breaks it too, by adding a fifth member
        hits = {(g, x): sum(m >> x & 1 for m in targets) for g, four in enumerate(cur) for x in four}
        best: tuple[int, Fours, int, int] | None = None
        for g, x in sorted(hits, key=lambda gx: (-hits[gx], gx)):
            out = left[g] | 1 << x
            for _ in range(TRIES):
                four = read.get((g, out))
                if four is None:  # a group's read is kept: most swaps tried are tried again next step
                    four = read[g, out] = members(s, cats[g], i, taken[g] | out)
                if len(four) < ITEMS:
                    break
                tried = [*cur[:g], four, *cur[g + 1 :]]
                f = _faults(s, tried, recent)
                if best is None or f < best[0]:
                    best = (f, tried, g, out)
                    if f == 0:  # none can do better (ties keep the first)
                        break
                for y in four:  # the next try reads past the codes this one read
                    if y not in cur[g]:
                        out |= 1 << y
            if best is not None and best[0] == 0:
                break
        if best is None:  # every group's codes used up
            return None
        faults, cur, g, left[g] = best
    return (cur, tuple(left)) if faults == 0 else None


def settled(s: Schedule, i: int) -> Settled:
    """Day i's categories settled against the cap (step 1 of the module docstring), kept: (found,
    the capped draw or None when no categories tried have one, how: 0 the members of step 4, 1
    repaired, 2 other categories, -1 none)."""
    hit = s.memo.get(("settled", i))
    if hit is None:
        hit = s.memo.put(("settled", i), _settle(s, i))
    return hit  # type: ignore[no-any-return]


def _settle(s: Schedule, i: int) -> Settled:
    found = daily_categories(s, i)
    cats, planned, _ = found
    draw = repair(s, i, cats, [])
    if draw is not None:
        return found, draw, int(any(draw[1]))  # 0 when nothing was left out: the members of step 4
    # the labels the week's first drafts show last, as the day's own search does (search.py)
    drafts = frozenset(s.identity[c] for j in range(max(0, i - WEEK), i) for c in first_draft(s, j))
    for other, counters in other_categories(s, i, cats, OTHERS, drafts):
        draw = repair(s, i, other, [])
        if draw is not None:
            return (other, planned, counters), draw, 2
    return found, None, -1


def shown_before(s: Schedule, i: int) -> set[int]:
    """The label identities the WEEK days before day i show (their settled categories; a day of
    an earlier version: its board's, a published one's as stored)."""
    shown: set[int] = set()
    for j in range(max(0, i - WEEK), i):
        if version_of(j) == s.version:
            cats = settled(s, j)[0][0]
        elif j < published.END and published.public(s):  # a published day: its stored board's
            cats = published.categories(s, j)
        else:
            old = schedule(s.library, s.mode, s.season_key, version_of(j))
            cats = day_fours(old, j, daily_categories(old, j))[0][0]
        shown.update(s.identity[c] for c in cats)
    return shown


def capped_fours(s: Schedule, i: int) -> tuple[Found, Fours, int]:
    """(day i's categories, its fours, how they were made: settled's) with the week's labels
    repaired away where a repair can (step 2 of the module docstring)."""
    found, draw, how = settled(s, i)
    if draw is None:  # no categories tried have a capped draw: the day keeps step 4b's
        found, fours, _ = day_fours(s, i, found)
        return found, fours, -1
    shown = shown_before(s, i)
    cats = found[0]
    recent = [c for c in range(len(s.identity)) if s.identity[c] in shown and c not in cats]
    if not complete_fours(s, draw[0], recent):
        return found, draw[0], how
    # from the members of step 4, then on from the capped draw (each clears days the other cannot)
    clear = repair(s, i, cats, recent) or repair(s, i, cats, recent, draw)
    return (found, clear[0], max(how, 1)) if clear is not None else (found, draw[0], how)
