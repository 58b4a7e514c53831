"""``flagcore season``: how a span of daily boards feels, scheduled dailies beside plain daily seeds.

For each day of the span it makes the scheduled daily (``connections.daily``) and the plain board
of the seed "daily:YYYY-MM-DD", and reports for both: days that repeat a category from the past
1, 7 and 28 days; per tier the gap between two uses of a category (minimum and median, against
0.8 x the tier's placeable categories) and how evenly the categories are used; groups that come
back whole and returns that keep 3 or 4 of the previous four members; how often each flag
appears; boards with an ambiguous tile. Then the Puzzle daily's flags and grids. ``--png`` draws
category use over the span (one row per category, one column per day) for both.
"""

from __future__ import annotations

import argparse
import collections
import datetime as _dt
import json
import statistics
import sys
from collections.abc import Callable
from typing import Any

from .._args.connections import as_mode
from .._args.season import as_day, as_days_text
from ..days import day_number
from ..library import MODES, TIERS
from .season_shown import shown_figures

LONG_SPAN = 60  # days from which the command shows a progress bar
WINDOWS = (1, 7, 28)
RETURN_WINDOW = 90  # "comes back whole within 90 days"
_TIER_RGB = ((233, 196, 50), (120, 180, 80), (90, 140, 220), (170, 100, 200))


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser(
        "season",
        help="report a span of daily boards: scheduled dailies beside plain daily seeds",
        description="Report how a span of daily boards feels: category repeats and gaps, groups that come back, "
        "flag appearances, the Puzzle daily; scheduled dailies (connections.daily) beside plain 'daily:' seeds.",
    )
    p.add_argument("--from", dest="start", metavar="DATE", default=None, help="first day, YYYY-MM-DD (default: today)")
    p.add_argument("--days", default="365", metavar="N", help="days in the span (default 365)")
    p.add_argument("--mode", choices=MODES, default="flags", help="category set (default: flags)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--png", metavar="FILE", help="also draw category use over the span (PNG)")
    p.set_defaults(func=run)


def collect(start: _dt.date, days: int, mode: str, step: Any = None) -> tuple[list[Any], list[Any]]:
    """(scheduled boards, plain daily-seed boards) of the span; ``step()`` after each day."""
    from ..connections import daily_seed, generate
    from ..connections.daily import daily, prepare, schedule, version_of

    first = day_number(as_day(start))
    sched = schedule(None, mode, version=version_of(first))
    prepare(sched, first, days)  # the span's plans at once, in this thread
    scheduled, plain = [], []
    for j in range(days):
        scheduled.append(daily(start + _dt.timedelta(days=j), as_mode(mode)))  # as players see it: the labels shown
        plain.append(generate(daily_seed(start + _dt.timedelta(days=j)), as_mode(mode)))
        if step is not None:
            step()
    return scheduled, plain


def figures(boards: list[Any], mode: str) -> dict[str, Any]:
    """The report's figures for one sequence of boards (one per day, in order)."""
    from ..connections import find_ambiguities
    from ..connections.daily import categories, schedule

    sched = schedule(None, mode)
    cats = categories(sched)
    days = len(boards)
    ids = [[g.category_id for g in b.groups] for b in boards]
    out: dict[str, Any] = {"days": days}
    for w in WINDOWS:
        out[f"repeat_within_{w}"] = sum(
            1 for j in range(1, days) if set(ids[j]) & {c for k in range(max(0, j - w), j) for c in ids[k]}
        )
    # a board holds one category of each library tier (its colours are the model's, docs/difficulty.md)
    by_tier = [{cats[c].tier: c for c in day} for day in ids]
    out["tiers"] = [_tier_figures(by_tier, t, sched, cats) for t in range(4)]
    out["groups"] = _group_figures(boards)
    out["flags"] = _flag_figures(boards, sched)
    rule = arguable = 0
    for b in boards:
        kinds = {a.kind for a in find_ambiguities(b)}
        rule += "rule" in kinds
        arguable += "arguable" in kinds
    out["boards_rule_ambiguous"] = rule
    out["boards_breaking_arguable"] = arguable
    out["shown"] = shown_figures(boards, cats, turns_per_cycle(sched))
    return out


def turns_per_cycle(sched: Any) -> list[int]:
    """Per tier, the turns per cycle a label's gap is measured against: a rotation's turns (versions
    1 and 2); from version 3, the days of a families' cycle over a label's uses in its tier at most
    (families.PER_LABEL: a label once in 14 days on average)."""
    if sched.pattern is None:
        return [rot.n for rot in sched.rotations]
    from ..connections.daily.families import PATTERN, PER_LABEL

    return [PATTERN // PER_LABEL] * 4


def _tier_figures(by_tier: list[dict[int, str]], t: int, sched: Any, cats: dict[str, Any]) -> dict[str, Any]:
    """Tier t's rotation: categories used, the gaps between two uses of one, the most used."""
    from ..connections.daily import placeable_ids

    last: dict[str, int] = {}
    gaps: list[int] = []
    uses: collections.Counter[str] = collections.Counter()
    for j, day in enumerate(by_tier):
        c = day[t]
        uses[c] += 1
        if c in last:
            gaps.append(j - last[c])
        last[c] = j
    placeable = placeable_ids(sched)[t]
    counts = [uses.get(c, 0) for c in placeable]
    n = len(placeable)
    return {
        "tier": TIERS[t],
        "placeable": n,
        "used": sum(1 for c in placeable if uses.get(c)),
        "unused": [c for c in placeable if not uses.get(c)],
        "min_gap": min(gaps) if gaps else None,
        "median_gap": statistics.median(gaps) if gaps else None,
        "target_gap": round(0.8 * n, 1),
        "max_uses": max(counts),
        "median_uses": statistics.median(counts),
        "most_used": [cats[uses.most_common(1)[0][0]].label, uses.most_common(1)[0][1]],
    }


def _group_figures(boards: list[Any]) -> dict[str, Any]:
    """Groups that come back: the same category and four flags, and returns keeping 3 or 4 flags."""
    seen: dict[tuple[str, frozenset[str]], int] = {}
    previous: dict[str, set[str]] = {}
    repeats = repeats_90 = returns = keep3 = 0
    for j, b in enumerate(boards):
        for g in b.groups:
            key = (g.category_id, frozenset(g.codes))
            if key in seen:
                repeats += 1
                repeats_90 += j - seen[key] <= RETURN_WINDOW
            seen[key] = j
            if g.category_id in previous:
                returns += 1
                keep3 += len(previous[g.category_id] & set(g.codes)) >= 3
            previous[g.category_id] = set(g.codes)
    return {
        "total": 4 * len(boards),
        "repeat_earlier_group": repeats,
        f"repeat_within_{RETURN_WINDOW}": repeats_90,
        "returns": returns,
        "returns_keeping_3_or_4": keep3,
    }


def _flag_figures(boards: list[Any], sched: Any) -> dict[str, Any]:
    """How evenly the flags appear, and how many come back the next day against chance."""
    from ..connections.daily import usable_codes

    days = len(boards)
    flag_days: collections.Counter[str] = collections.Counter()
    for b in boards:
        flag_days.update(b.tiles)
    usable = usable_codes(sched)
    consecutive = sum(len(set(boards[j].tiles) & set(boards[j - 1].tiles)) for j in range(1, days))
    # what chance would give: two independent boards with these per-flag frequencies share this many
    expected = (days - 1) * sum((flag_days[f] / days) ** 2 for f in flag_days) if days else 0.0
    counts = [flag_days.get(f, 0) for f in usable]
    return {
        "usable": len(usable),
        "appeared": sum(1 for c in counts if c),
        "never": [f for f in usable if not flag_days.get(f)],
        "min_days": min(counts),
        "median_days": statistics.median(counts),
        "max_days": max(counts),
        "on_consecutive_days": consecutive,
        "on_consecutive_days_by_chance": round(expected, 1),
    }


def puzzle_figures(start: _dt.date, days: int) -> dict[str, Any]:
    """The Puzzle daily's flags and grids over the span (the plan: flag, grid and seed per day)."""
    from ..season import day_index, puzzle_flags, puzzle_plan

    plan = [puzzle_plan(start + _dt.timedelta(days=j)) for j in range(days)]
    flags = [f for f, _, _ in plan]
    first_repeat = next((j for j in range(days) if flags[j] in flags[:j]), None)
    last: dict[str, int] = {}
    gaps = []
    for j, f in enumerate(flags):
        if f in last:
            gaps.append(j - last[f])
        last[f] = j
    named = puzzle_flags()
    cycle_start = -day_index(start) % len(named)  # the first day of a full cycle in the span
    cycle = flags[cycle_start : cycle_start + len(named)]
    return {
        "named_flags": len(named),
        "distinct_flags": len(set(flags)),
        "first_repeat_day": first_repeat,
        "full_cycle_distinct": len(set(cycle)) if len(cycle) == len(named) else None,
        "min_gap": min(gaps) if gaps else None,
        "grids": dict(collections.Counter(g for _, g, _ in plan)),
    }


def chart(path: str, boards: dict[str, list[Any]], mode: str, start: _dt.date) -> None:
    """A PNG of category use: per source a panel, one row per category (tier bands), one column per day."""
    from PIL import Image, ImageDraw

    from ..connections.daily import categories, never_ids, placeable_ids, schedule

    sched = schedule(None, mode)
    cats = categories(sched)
    rows = [c for placeable, never in zip(placeable_ids(sched), never_ids(sched)) for c in (*placeable, *never)]
    row_of = {c: r for r, c in enumerate(rows)}
    days = max(len(b) for b in boards.values())
    cw = max(1, min(4, 1200 // max(days, 1)))
    ch = 3 if len(rows) < 120 else 2
    title, gap = 18, 12
    panel_h = title + len(rows) * ch
    img = Image.new("RGB", (cw * days + 20, len(boards) * (panel_h + gap) + gap), "white")
    draw = ImageDraw.Draw(img)
    y0 = gap
    for name, seq in boards.items():
        draw.text((10, y0), f"{name}: category use, {mode} mode, {days} days from {start.isoformat()}", fill="black")
        top = y0 + title
        for r, c in enumerate(rows):  # a faint band per tier behind the rows
            tint = tuple(255 - (255 - v) // 6 for v in _TIER_RGB[cats[c].tier])
            draw.rectangle((10, top + r * ch, 10 + cw * days - 1, top + r * ch + ch - 1), fill=tint)
        for j, b in enumerate(seq):
            for g in b.groups:
                r = row_of[g.category_id]
                x = 10 + j * cw
                draw.rectangle((x, top + r * ch, x + cw - 1, top + r * ch + ch - 1), fill=_TIER_RGB[g.tier])
        y0 += panel_h + gap
    img.save(path, format="PNG")


_ROWS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("days that repeat a category from the day before", lambda f: f"{f['repeat_within_1']} of {f['days'] - 1}"),
    ("... from the past 7 days", lambda f: f"{f['repeat_within_7']} of {f['days'] - 1}"),
    ("... from the past 28 days", lambda f: f"{f['repeat_within_28']} of {f['days'] - 1}"),
    (
        "groups that repeat an earlier group",
        lambda f: f"{f['groups']['repeat_earlier_group']} of {f['groups']['total']}",
    ),
    (
        f"... within {RETURN_WINDOW} days",
        lambda f: f"{f['groups'][f'repeat_within_{RETURN_WINDOW}']} of {f['groups']['total']}",
    ),
    (
        "returns keeping 3 or 4 members",
        lambda f: f"{f['groups']['returns_keeping_3_or_4']} of {f['groups']['returns']}",
    ),
    ("flags that appeared", lambda f: f"{f['flags']['appeared']} of {f['flags']['usable']}"),
    (
        "flag days per flag (min / median / max)",
        lambda f: f"{f['flags']['min_days']} / {f['flags']['median_days']:g} / {f['flags']['max_days']}",
    ),
    (
        "flags on consecutive days (by chance)",
        lambda f: f"{f['flags']['on_consecutive_days']} ({f['flags']['on_consecutive_days_by_chance']:g})",
    ),
    (
        "days that repeat a label shown the day before",
        lambda f: f"{f['shown']['label_repeat_within_1']} of {f['days'] - 1}",
    ),
    ("... a label shown in the past 7 days", lambda f: f"{f['shown']['label_repeat_within_7']} of {f['days'] - 1}"),
    (
        "... a label identity of the past 7 days",
        lambda f: f"{f['shown']['identity_repeat_within_7']} of {f['days'] - 1}",
    ),
    (
        "days that repeat a family of the day before",
        lambda f: f"{f['shown']['family_repeat_within_1']} of {f['days'] - 1}",
    ),
    ("7-day windows with a family 3 or more times", lambda f: str(f["shown"]["family_more_than_twice_in_7"])),
    ("days with a decoy four of a label of the past 7 days", lambda f: str(f["shown"]["decoy_days"])),
    ("... a complete one (step 4c)", lambda f: str(f["shown"]["complete_decoy_days"])),
    ("complete decoy fours a board (mean / max)", lambda f: "{mean:g} / {max}".format(**f["shown"]["decoy_fours"])),
    ("same label and four flags within 180 days", lambda f: str(f["shown"]["groups"]["same_four_within_180"])),
    ("... within a year, pool of 6 or more", lambda f: str(f["shown"]["groups"]["same_four_within_year_pool_6"])),
    (
        "label returns keeping 3 of 4, pool of 8 or more",
        lambda f: str(f["shown"]["groups"]["returns_keeping_3_pool_8"]),
    ),
    ("rule-ambiguous boards", lambda f: str(f["boards_rule_ambiguous"])),
    ("boards breaking an arguable membership", lambda f: str(f["boards_breaking_arguable"])),
)


def _tier_rows(f: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for t in f["tiers"]:
        out.append((f"{t['tier']}: categories used", f"{t['used']} of {t['placeable']}"))
        out.append(
            (
                f"{t['tier']}: gap min / median (target {t['target_gap']:g})",
                f"{t['min_gap']} / {t['median_gap']:g}" if t["min_gap"] is not None else "-",
            )
        )
        out.append((f"{t['tier']}: uses max / median", f"{t['max_uses']} / {t['median_uses']:g}"))
    for name, t in zip(TIERS, f["shown"]["tiers"]):
        gap = "-" if t["min_gap"] is None else str(t["min_gap"])
        out.append(
            (f"{name}: label gap min (target 0.8 x {t['turns_per_cycle']} turns)", f"{gap} ({t['target_gap']:g})")
        )
    return out


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def weekday_difficulty(start: _dt.date, scheduled: list[Any], plain: list[Any]) -> dict[str, Any]:
    """Per weekday, the difficulty model's mean board score, mean group score (the groups alone: what
    the schedule's weekly rhythm arranges) and tempting phantoms (docs/difficulty.md), for the
    scheduled dailies and the plain daily: seeds."""
    from ..connections import board_difficulty

    out: dict[str, Any] = {}
    for name, boards in (("scheduled", scheduled), ("plain", plain)):
        sums: list[list[float]] = [[0, 0, 0, 0] for _ in WEEKDAYS]  # boards, score, group score, tempting phantoms
        for j, board in enumerate(boards):
            model = board_difficulty(board)
            row = sums[(start.weekday() + j) % 7]
            row[0] += 1
            row[1] += model.score
            row[2] += sum(g.score for g in model.groups) / len(model.groups)
            row[3] += len(model.tempting)
        out[name] = {
            WEEKDAYS[w]: {
                "boards": n,
                "score": round(sc / n, 1),
                "groups": round(gs / n, 1),
                "tempting": round(tp / n, 2),
            }
            for w, (n, sc, gs, tp) in enumerate(sums)
            if n
        }
    return out


def format_report(report: dict[str, Any]) -> str:
    s, p = report["scheduled"], report["plain"]
    rows = [(label, fn(s), fn(p)) for label, fn in _ROWS]
    rows += [(a, b, d) for (a, b), (_, d) in zip(_tier_rows(s), _tier_rows(p))]
    width = max(len(r[0]) for r in rows)
    lines = [
        f"Season {report['mode']} mode, {report['days']} days from {report['from']}",
        "",
        f"{'':<{width}}  {'scheduled':>18}  {'daily: seeds':>18}",
    ]
    lines += [f"{a:<{width}}  {b:>18}  {c:>18}" for a, b, c in rows]
    pz = report["puzzle"]
    lines += [
        "",
        f"Puzzle daily: {pz['distinct_flags']} distinct flags of {pz['named_flags']} named"
        + (
            f" (a whole cycle of {pz['named_flags']} days in the span: {pz['full_cycle_distinct']} distinct)"
            if pz["full_cycle_distinct"] is not None
            else ""
        )
        + (
            "; no flag repeats"
            if pz["first_repeat_day"] is None
            else f"; first repeat on day {pz['first_repeat_day']} of the span; "
            f"shortest gap between two turns of a flag {pz['min_gap']} days"
        )
        + "; grids "
        + ", ".join(f"{k} {v}" for k, v in sorted(pz["grids"].items())),
    ]
    for name, f in (("scheduled", s), ("daily: seeds", p)):
        purple = f["tiers"][3]
        lines.append(f"most used purple ({name}): {purple['most_used'][0]!r} on {purple['most_used'][1]} days")
    lines.append("")
    lines.append(
        "difficulty model per weekday (mean board score / mean group score / tempting phantoms; docs/difficulty.md):"
    )
    for name, key in (("scheduled", "scheduled"), ("daily: seeds", "plain")):
        week = report["weekdays"][key]
        cells = (f"{d} {v['score']:g}/{v['groups']:g}/{v['tempting']:g}" for d, v in week.items())
        lines.append(f"  {name:<12} " + "  ".join(cells))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    start = as_day(args.start, "--from")
    days = as_days_text(args.days)
    if args.png is not None:
        from ..review.pictures import picture_format

        picture_format(args.png)  # a bad file name fails now, not after the span is computed
    if days >= LONG_SPAN:
        from ._progress import progress

        with progress(days, f"season {args.mode}") as bar:
            scheduled, plain = collect(start, days, args.mode, lambda: bar.update(1))
    else:
        scheduled, plain = collect(start, days, args.mode)
    report = {
        "mode": args.mode,
        "from": start.isoformat(),
        "days": days,
        "scheduled": figures(scheduled, args.mode),
        "plain": figures(plain, args.mode),
        "puzzle": puzzle_figures(start, days),
        "weekdays": weekday_difficulty(start, scheduled, plain),
    }
    if args.png is not None:
        chart(args.png, {"scheduled (connections.daily)": scheduled, "plain daily: seeds": plain}, args.mode, start)
        print(f"flagcore: wrote {args.png}", file=sys.stderr)
    print(json.dumps(report) if args.json else format_report(report))
    return 0
