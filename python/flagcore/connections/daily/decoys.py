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
2. **the day's categories are chosen** (:func:`chosen`): the settled ones, unless no repair of
   them clears the complete fours of the label identities the WEEK days before settled on (the
   days of an earlier version: their boards, which nothing here changes) and another category's
   does (the same order of other categories as in step 1, those labels last: how 2). These are
   the categories the day shows. A day's choice reads its week's settlings only, so a day costs
   at most 2 * WEEK settlings, never a replay;
3. **the week's labels**: the label identities the WEEK days before show (their chosen
   categories) are repaired away (:func:`cleared`): from the members of step 4, then on from the
   settled draw, then with the wide repair from both; where none clears them all (the settled
   labels of a week differ from the ones it shows on a few days a year: none of the first year),
   the day keeps its settled draw (the cap held, a decoy of a recent label left: counted by
   ``flagcore season``, docs/season.md).

A repair is greedy and draws nothing: each step scores every swap of a tile for one of the next
TRIES codes its group's order reads past it (members, with that tile and the codes tried before
left out) and keeps the swap with the fewest faults (decoy fours over the cap, plus those of a
recent label; a draw with a second split is never accepted), the tiles that most of the fours to
break hold first; a code left out stays out, so a repair ends. A group's codes are still the ones
that fit no other group (the fixed search's exclusive codes), read in its own order. Every step is
a function of the day alone. The *wide repair* (:func:`wide_repair`) keeps the BEAM draws with the
fewest faults a step instead of one, for up to BEAM_STEPS steps; it runs only where the greedy
one leaves a fault, and not where no draw can clear a four (:func:`_breakable`: every group that
could break it has exactly four exclusive codes). The count is the engine's ``decoy_fours``
kernel; which fours a recent label names, and which tiles to swap, are read from the schedule's
fit sets here.
"""

from __future__ import annotations

from . import published
from .build import schedule
from .fours import Fours, day_fours, other_categories, others_fit
from .members import members, reader
from .search import Found, daily_categories, first_draft
from .state import ITEMS, TIERS, WEEK, Schedule, version_of

REPAIRS = 32  # swaps a repair makes at most (a bound for the rare day that never gets there)
TRIES = 8  # codes a tile's group reads past it that a step tries in its place
OTHERS = 3  # replacements a tier tries in turn when no repair of the day's categories passes
BEAM = 32  # draws the wider repair keeps a step, where the greedy one leaves a label of the week
BEAM_STEPS = 8  # its steps at most

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
    fit = s.fit_mask
    return [m for m in (fit[c] & board for c in among) if m.bit_count() == ITEMS and m not in groups]


def _start(s: Schedule, i: int, cats: list[int], taken: list[int]) -> Draw:
    """The members of step 4 for ``cats``, nothing left out."""
    return [members(s, c, i, taken[g]) for g, c in enumerate(cats)], (0,) * TIERS


def repair(s: Schedule, i: int, cats: list[int], recent: list[int], start: Draw | None = None) -> Draw | None:
    """Day i's members for ``cats`` repaired to no fault by the greedy repair (module docstring), or None.

    ``recent``: the categories whose complete fours the board must not deal (none: the cap alone);
    ``start``: the repair to go on from (None: the members of step 4). The loop is the engine's
    ``repair_members`` (the twin: flagcore.reference.daily_repair), each group's members read
    from its ``reader`` (members.py)."""
    taken = others_fit(s, cats)
    cur, left = start if start is not None else _start(s, i, cats, taken)
    readers = [reader(s, c, i) for c in cats]
    done = s.impl.repair_members(s.prepared, readers, taken, recent, cur, left, REPAIRS, TRIES)
    return None if done is None else (done[0], tuple(done[1]))


def wide_repair(s: Schedule, i: int, cats: list[int], recent: list[int], starts: list[Draw]) -> Draw | None:
    """The repair as a beam: from ``starts``, each step tries every swap of each of the BEAM draws
    with the fewest faults (the first tried among equals), a draw met before not again, up to
    BEAM_STEPS steps; the first draw with no fault, or None. What the greedy repair misses is most
    often two swaps that clear a four only together, or a first swap that looks no better. The
    beam is the engine's ``wide_repair_members`` (the twin: flagcore.reference.daily_repair)."""
    readers = [reader(s, c, i) for c in cats]
    done = s.impl.wide_repair_members(s.prepared, readers, others_fit(s, cats), recent, starts, BEAM, BEAM_STEPS, TRIES)
    return None if done is None else (done[0], tuple(done[1]))


def _breakable(s: Schedule, cats: list[int], fours: Fours, recent: list[int]) -> bool:
    """Whether a draw of ``cats`` can deal none of the complete fours of ``recent`` that ``fours``
    deals: each needs a group with more than four exclusive codes that holds one of its tiles or
    has one of the category's other fitting codes to take (a group of four exclusive codes never
    changes). Where one cannot, no repair can (a repair would try them all in vain)."""
    taken = others_fit(s, cats)
    board = sum(1 << x for f in fours for x in f)
    free = [sum(1 << x for x in s.certain[c]) & ~taken[g] for g, c in enumerate(cats)]  # its exclusive codes
    free = [m for m in free if m.bit_count() > ITEMS]
    fours_of = complete_fours(s, fours, recent)
    for c in recent:
        four = s.fit_mask[c] & board
        if four in fours_of and not any(m & (four | s.fit_mask[c] & ~board) for m in free):
            return False
    return True


def cleared(s: Schedule, i: int, cats: list[int], recent: list[int], draw: Draw) -> Draw | None:
    """Day i's members for ``cats`` with no fault against ``recent`` (and the cap), kept: the greedy
    repair from the members of step 4, then on from ``draw`` (the day's capped draw: each clears
    days the other cannot), then the wide repair from both; None where none does."""
    key = ("cleared", i, tuple(cats), tuple(recent))
    hit = s.memo.get(key)
    if hit is None:
        found = None
        if _breakable(s, cats, draw[0], recent):
            found = repair(s, i, cats, recent) or repair(s, i, cats, recent, draw)
            if found is None:
                found = wide_repair(s, i, cats, recent, [_start(s, i, cats, others_fit(s, cats)), draw])
        hit = s.memo.put(key, (found,))
    return hit[0]  # type: ignore[no-any-return]


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


def shown_before(s: Schedule, i: int, shown: bool = False) -> set[int]:
    """The label identities the WEEK days before day i settled on (a day of an earlier version:
    its board's, a published one's as stored); with ``shown``, the ones they show (:func:`chosen`'s)."""
    labels: set[int] = set()
    for j in range(max(0, i - WEEK), i):
        if version_of(j) == s.version:
            cats = (chosen(s, j) if shown else settled(s, j))[0][0]
        elif j < published.END and published.public(s):  # a published day: its stored board's
            cats = published.categories(s, j)
        else:
            old = schedule(s.library, s.mode, s.season_key, version_of(j))
            cats = day_fours(old, j, daily_categories(old, j))[0][0]
        labels.update(s.identity[c] for c in cats)
    return labels


def _recent(s: Schedule, cats: list[int], labels: set[int]) -> list[int]:
    """The categories, not the board's, of the label identities ``labels``."""
    return [c for c in range(len(s.identity)) if s.identity[c] in labels and c not in cats]


def _clears(s: Schedule, i: int, cats: list[int], labels: set[int], draw: Draw) -> Draw | None:
    """``draw`` when it deals no complete four of ``labels``, else :func:`cleared`'s."""
    recent = _recent(s, cats, labels)
    return draw if not complete_fours(s, draw[0], recent) else cleared(s, i, cats, recent, draw)


def chosen(s: Schedule, i: int) -> Settled:
    """Day i's categories as it shows them (step 2 of the module docstring), kept: settled's,
    unless no repair of them clears the labels the WEEK days before settled on and other
    categories' repair does (how 2)."""
    hit = s.memo.get(("chosen", i))
    if hit is None:
        hit = s.memo.put(("chosen", i), _choose(s, i))
    return hit  # type: ignore[no-any-return]


def _choose(s: Schedule, i: int) -> Settled:
    found, draw, how = settled(s, i)
    if draw is None:
        return found, draw, how
    labels = shown_before(s, i)
    if _clears(s, i, found[0], labels, draw) is not None:
        return found, draw, how
    # the categories the day's settling would try next, the week's labels last
    for other, counters in other_categories(s, i, found[0], OTHERS, frozenset(labels)):
        capped = repair(s, i, other, [])
        if capped is not None and _clears(s, i, other, labels, capped) is not None:
            return (other, found[1], counters), capped, 2
    return found, draw, how


def capped_fours(s: Schedule, i: int) -> tuple[Found, Fours, int]:
    """(day i's categories, its fours, how they were made: settled's) with the labels the week
    before shows repaired away where a repair can (step 2 of the module docstring)."""
    found, draw, how = chosen(s, i)
    if draw is None:  # no categories tried have a capped draw: the day keeps step 4b's
        found, fours, _ = day_fours(s, i, found)
        return found, fours, -1
    clear = _clears(s, i, found[0], shown_before(s, i, shown=True), draw)
    if clear is None:
        return found, draw[0], how
    return found, clear[0], how if clear is draw else max(how, 1)
