"""Write the benchmark tables of the docs from pytest-benchmark's own JSON output.

    python scripts/write_figures.py           # rewrite every table between its marks
    python scripts/write_figures.py --check   # exit 1, naming the page, if a table differs

Each table is the region of a page between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->``
(never edited by hand); its numbers come from ``benchmarks/results/<json>``, which this command
writes (a timed run of a few minutes; rerun the one you changed, then this script):

    pytest benchmarks/bench_season.py --benchmark-enable --benchmark-only --dist no \
        --benchmark-json=benchmarks/results/season.json
    pytest benchmarks/bench_public.py --benchmark-enable --benchmark-only --dist no \
        --benchmark-json=benchmarks/results/public.json
    pytest benchmarks/bench_connections.py benchmarks/bench_puzzle.py benchmarks/bench_signatures.py \
        --benchmark-enable --benchmark-only --dist no --benchmark-json=benchmarks/results/kernels.json

One table is not a benchmark: ``year`` (docs/season.md: the scheduled dailies of the first year of
schedule version 3, 2027-02-01 .. 2028-01-31, beside the plain ``daily:`` seeds) is the
``flagcore season`` report's own JSON, written by

    flagcore season --from 2027-02-01 --days 365 --mode flags --json > benchmarks/results/season-2027-flags.json
    flagcore season --from 2027-02-01 --days 365 --mode trivia --json > benchmarks/results/season-2027-trivia.json

Each run's raw timings (``stats.data``, megabytes) are dropped from its file the first time this
script reads it, keeping pytest-benchmark's summary (median, quartiles, rounds, machine, commit).

Tables: ``season`` (docs/season.md: the scheduled daily beside plain generate, both twins),
``public`` (docs/performance.md: each public call, its kernel alone, the call on the twin) and
``kernels`` (docs/performance.md: every kernel benchmark, compiled core against the twin). Each
cell is the median of the run; each table says when and on what the run was made.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
TWIN = {"ref", "reference"}  # the params that put the pure-Python twin behind the call


def seconds(value: float) -> str:
    """A median as the pages write it: 3 significant digits, in s, ms or µs."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if value >= scale or unit == "ns":
            v = value / scale
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.1f} {unit}" if v >= 10 else f"{v:.2f} {unit}"
    raise AssertionError(value)


def ratio(slow: float, fast: float) -> str:
    r = slow / fast
    return f"{r:,.0f}x" if r >= 10 else f"{r:.2f}x"


def load(name: str) -> dict[str, Any]:
    path = RESULTS / name
    run = json.loads(path.read_text(encoding="utf-8"))
    if any("data" in b["stats"] for b in run.get("benchmarks", [])):  # the raw samples: not needed, not kept
        for b in run["benchmarks"]:
            b["stats"].pop("data", None)
        path.write_text(json.dumps(run, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return run


def provenance(run: dict[str, Any], command: str) -> str:
    machine = run.get("machine_info", {})
    commit = run.get("commit_info", {}).get("id", "")[:7]
    when = run.get("datetime", "")[:16].replace("T", " ")
    cpu = machine.get("cpu", {}).get("count", "?")
    python = machine.get("python_version", "?")
    return (
        f"Medians of one run (`{command}`), {when} UTC, commit {commit or 'unknown'}, "
        f"Python {python}, {cpu} cores shared with other work: read the ratios, not the absolute figures."
    )


def median(bench: dict[str, Any]) -> float:
    return float(bench["stats"]["median"])


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def season() -> str:
    run = load("season.json")
    cells: dict[tuple[str, str, str], float] = {}
    stats: dict[tuple[str, str, str], dict[str, float]] = {}
    extra: dict[tuple[str, str, str], dict[str, float]] = {}
    for b in run["benchmarks"]:
        func = b["name"].split("[")[0].removeprefix("test_")
        cells[func, b["params"]["mode"], b["params"]["impl"]] = median(b)
        stats[func, b["params"]["mode"], b["params"]["impl"]] = b["stats"]
        extra[func, b["params"]["mode"], b["params"]["impl"]] = b.get("extra_info", {})
    rows_of = [
        ("one_day_generate", '`generate("daily:DATE")` (difficulty normal), one day'),
        ("one_day_daily_kept", "`daily(DATE)`, a day already made"),
        ("one_day_daily_new", "`daily(DATE)`, a new day (the next of 2027, after `prepare`)"),
        ("one_day_daily_cold", "`daily(DATE)`, the first day of a library loaded afresh"),
        ("year_daily", "the 365 days of 2027, fresh schedule"),
        ("year_generate", "`generate` on the same 365 dates"),
    ]
    columns = [(m, i) for m in ("flags", "trivia") for i in ("core", "ref")]
    rows = [[label] + [seconds(cells[func, m, i]) for m, i in columns] for func, label in rows_of]
    new, gen = "one_day_daily_new", "one_day_generate"
    cpu = {(m, i): (extra[new, m, i], extra[gen, m, i]) for m, i in columns}  # compiled only
    rows.insert(
        3,
        ["... wall mean / worst of those days"]
        + [f"{seconds(stats[new, m, i]['mean'])} / {seconds(stats[new, m, i]['max'])}" for m, i in columns],
    )
    rows.insert(
        4,
        ["... in CPU time: mean / worst day / days over 5 ms"]
        + [
            f"{seconds(d['cpu_mean'])} / {seconds(d['cpu_max'])} / {d['cpu_over_5ms']}" if d else ""
            for d, _ in cpu.values()
        ],
    )
    new_day = [
        ratio(cells[new, m, i], cells[gen, m, i])
        + (f" / {ratio(cpu[m, i][0]['cpu_mean'], cpu[m, i][1]['cpu_mean'])}" if i == "core" else "")
        for m, i in columns
    ]
    compiled_only = [r if i == "core" else "" for r, (_, i) in zip(new_day, columns)]
    rows.append(["a new day over one `generate`, compiled: wall medians / CPU means", *compiled_only])
    served = "one_day_daily_served"
    rows.append(["`daily(DATE)` as served: a year of days after start-up, each on its own day"])
    rows[-1] += [seconds(cells[served, m, i]) for m, i in columns]
    for kind in ("wall", "cpu"):
        rows.append([f"... {'wall' if kind == 'wall' else 'CPU'} time: mean / p99 / worst day / days over 5 ms"])
        rows[-1] += [
            " / ".join(seconds(d[f"{kind}_{q}"]) for q in ("mean", "p99", "max")) + f" / {d[f'{kind}_over_5ms']}"
            if (d := extra[served, m, i])
            else ""
            for m, i in columns
        ]
    header = ["median", "flags, core", "flags, reference", "trivia, core", "trivia, reference"]
    command = "pytest benchmarks/bench_season.py --benchmark-enable --benchmark-only --dist no"
    return provenance(run, command) + "\n\n" + table(header, rows)


def year() -> str:
    """The season's figures of version 3's first year (from 2027-02-01), scheduled beside the plain
    seeds, from ``flagcore season --json``."""
    runs = {mode: load(f"season-2027-{mode}.json") for mode in ("flags", "trivia")}
    cols = [(runs[m], kind) for m in ("flags", "trivia") for kind in ("scheduled", "plain")]

    def row(label: str, cell: Callable[[dict[str, Any], bool], str]) -> list[str]:
        return [label] + [cell(run[kind], kind == "scheduled") for run, kind in cols]

    def tier(t: dict[str, Any], sched: bool) -> str:
        return f"{t['min_gap']} / {t['median_gap']:g}" + (f" ({t['target_gap']:g})" if sched else "")

    purple = lambda r: r["tiers"][3]  # noqa: E731
    rows = [
        row(
            "days that repeat a category from the day before", lambda r, s: f"{r['repeat_within_1']} of {r['days'] - 1}"
        ),
        row("... from the past 7 days", lambda r, s: str(r["repeat_within_7"])),
        row("... from the past 28 days", lambda r, s: str(r["repeat_within_28"])),
        *[
            row(f"{name}: min / median gap (0.8 n)", lambda r, s, i=i: tier(r["tiers"][i], s))
            for i, name in enumerate(("yellow", "green", "blue", "purple"))
        ],
        row("most uses / median uses, purple", lambda r, s: f"{purple(r)['max_uses']} / {purple(r)['median_uses']:g}"),
        row(
            "categories used",
            lambda r, s: f"{sum(t['used'] for t in r['tiers'])} of {sum(t['placeable'] for t in r['tiers'])}",
        ),
        row(
            "groups that repeat an earlier group",
            lambda r, s: f"{r['groups']['repeat_earlier_group']} of {r['groups']['total']:,}",
        ),
        row("... within 90 days", lambda r, s: str(r["groups"]["repeat_within_90"])),
        row(
            "returns keeping 3 or 4 of the previous members",
            lambda r, s: f"{r['groups']['returns_keeping_3_or_4']} of {r['groups']['returns']:,}",
        ),
        row(
            "flags seen (of those the mode can use)", lambda r, s: f"{r['flags']['appeared']} of {r['flags']['usable']}"
        ),
        row(
            "flags on boards of consecutive days (chance: same frequencies)",
            lambda r, s: f"{r['flags']['on_consecutive_days']} ({r['flags']['on_consecutive_days_by_chance']:.0f})",
        ),
        row(
            "by the label shown: days with a label identity of the day before / the past 7 days",
            lambda r, s: f"{r['shown']['identity_repeat_within_1']} / {r['shown']['identity_repeat_within_7']}",
        ),
        row(
            "... with the same words of the past 7 days",
            lambda r, s: str(r["shown"]["label_repeat_within_7"]),
        ),
        *[
            row(
                f"{name}: shortest gap of a label (0.8 x turns per cycle)",
                lambda r, s, i=i: f"{r['shown']['tiers'][i]['min_gap']} ({r['shown']['tiers'][i]['target_gap']:g})",
            )
            for i, name in enumerate(("yellow", "green", "blue", "purple"))
        ],
        row(
            "a label's same four flags within 180 days / within a year, pool 6+ / returns keeping 3, pool 8+",
            lambda r, s: "{same_four_within_180} / {same_four_within_year_pool_6} / {returns_keeping_3_pool_8}".format(
                **r["shown"]["groups"]
            ),
        ),
        row(
            "by family: days with a family of the day before / 7-day windows with one 3 times or more",
            lambda r, s: f"{r['shown']['family_repeat_within_1']} / {r['shown']['family_more_than_twice_in_7']}",
        ),
        row("days with a decoy four of a label of the past 7 days", lambda r, s: str(r["shown"]["decoy_days"])),
        row("... a complete one (the cap of step 4c)", lambda r, s: str(r["shown"]["complete_decoy_days"])),
        row(
            "complete decoy fours a board (mean / max)",
            lambda r, s: "{mean:g} / {max}".format(**r["shown"]["decoy_fours"]),
        ),
        row(
            "rule-ambiguous boards, boards breaking an arguable membership",
            lambda r, s: f"{r['boards_rule_ambiguous']}, {r['boards_breaking_arguable']}",
        ),
    ]
    header = ["2027-02-01 .. 2028-01-31", "flags scheduled", "flags `daily:`", "trivia scheduled", "trivia `daily:`"]
    puzzle = runs["flags"]["puzzle"]
    grids = ", ".join(f"{g} {puzzle['grids'][g]}" for g in ("easy", "medium", "hard") if g in puzzle["grids"])
    return (
        "From `flagcore season --from 2027-02-01 --days 365 --mode flags|trivia --json`"
        " (schedule version 3).\n\n"
        + table(header, rows)
        + f"\n\nThe Puzzle daily over those days: {puzzle['distinct_flags']} distinct flags, the shortest gap"
        " between two"
        f" turns of a flag {puzzle['min_gap']} days, grids {grids} days."
    )


def side(bench: dict[str, Any]) -> str:
    """public, kernel or twin: which way a bench_public benchmark makes the call."""
    if bench["name"].split("[")[0].endswith("_kernel"):
        return "kernel"
    return "twin" if TWIN & {str(v) for v in (bench.get("params") or {}).values()} else "public"


def public() -> str:
    run = load("public.json")
    groups: dict[str, dict[str, float]] = {}
    for b in run["benchmarks"]:
        threads = (b.get("params") or {}).get("threads")
        key = f"threads{threads}" if threads is not None else side(b)
        found = groups.setdefault(b["group"], {})
        found[key] = median(b)
        if "kernel_s" in b.get("extra_info", {}):  # one benchmark timing both sides in alternating rounds
            found["public"], found["kernel"] = b["extra_info"]["public_s"], b["extra_info"]["kernel_s"]
    rows = []
    for group, found in groups.items():
        if "threads1" in found:
            one, two = found["threads1"], found.get("threads2")
            pair = f"{seconds(one)} / {seconds(two)}" if two else seconds(one)
            rows.append([group, pair, "", "", "", ratio(one, two) + " (speed-up)" if two else ""])
            continue
        pub = found.get("public")
        row = [group] + [seconds(found[k]) if k in found else "" for k in ("public", "kernel", "twin")]
        row.append(ratio(pub, found["kernel"]) if pub and "kernel" in found else "")
        row.append(ratio(found["twin"], pub) if pub and "twin" in found else "")
        rows.append(row)
    header = ["public call", "public API", "kernel alone", "public API on the twin", "public / kernel", "twin / public"]
    command = "pytest benchmarks/bench_public.py --benchmark-enable --benchmark-only --dist no"
    return provenance(run, command) + "\n\n" + table(header, rows)


def kernels() -> str:
    run = load("kernels.json")
    rows_by: dict[str, dict[str, float]] = {}
    for b in run["benchmarks"]:
        params = dict(b.get("params") or {})
        impl = str(params.pop("impl", "core"))
        what = b["fullname"].split("::")[0].removeprefix("benchmarks/").removesuffix(".py").removeprefix("bench_")
        label = b["name"].split("[")[0].removeprefix("test_")
        if params:
            label += " (" + ", ".join(f"{k} {v}" for k, v in params.items()) + ")"
        per = b.get("extra_info", {}).get("boards")
        rows_by.setdefault(f"{what}: {label}" + (f", per board of {per}" if per else ""), {})[
            "twin" if impl in TWIN else "core"
        ] = median(b) / (per or 1)
        if "speedup_2_threads" in b.get("extra_info", {}):  # 1 vs 2 threads in alternating rounds
            rows_by[f"{what}: {label}"]["speedup"] = b["extra_info"]["speedup_2_threads"]
    rows = [
        [label, seconds(f["core"]) if "core" in f else "", seconds(f["twin"]) if "twin" in f else ""]
        + [
            ratio(f["twin"], f["core"])
            if "core" in f and "twin" in f
            else f"{f['speedup']:.2f}x (2 threads vs 1)"
            if "speedup" in f
            else ""
        ]
        for label, f in rows_by.items()
    ]
    command = (
        "pytest benchmarks/bench_connections.py benchmarks/bench_puzzle.py benchmarks/bench_signatures.py"
        " --benchmark-enable --benchmark-only --dist no"
    )
    return provenance(run, command) + "\n\n" + table(["benchmark", "core", "reference twin", "ratio"], rows)


TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "year": ("docs/season.md", year),
    "season": ("docs/season.md", season),
    "public": ("docs/performance.md", public),
    "kernels": ("docs/performance.md", kernels),
}


def region(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(<!-- /figures:{name} -->)", re.S)


def written(page: str) -> str:
    """The page as this script writes it: each of its tables from its JSON file."""
    text = (ROOT / page).read_text(encoding="utf-8")
    for name, (where, make) in TABLES.items():
        if where != page:
            continue
        found = region(name).search(text)
        if found is None:
            raise SystemExit(f"{page} has no <!-- figures:{name} --> region")
        generated = f"<!-- Written by scripts/write_figures.py from its JSON file: do not edit by hand. -->\n{make()}\n"
        text = text[: found.start(2)] + generated + text[found.end(2) :]
    return text


def main(argv: list[str]) -> int:
    check = "--check" in argv
    differ = []
    for page in sorted({where for where, _ in TABLES.values()}):
        new = written(page)
        if new != (ROOT / page).read_text(encoding="utf-8"):
            differ.append(page)
            if not check:
                (ROOT / page).write_text(new, encoding="utf-8")
    if check and differ:
        print(
            f"tables differ from benchmarks/results/: {', '.join(differ)} (run scripts/write_figures.py)",
            file=sys.stderr,
        )
        return 1
    for page in differ:
        print(f"wrote {page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
