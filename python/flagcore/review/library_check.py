"""Checks of a loaded Library beyond what loading enforces: artwork, tier counts, repeated pools,
and each flag's declared colours against its rendered pixels. ``flagcore data check`` and the
tests both call ``check_library``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..library import MODES, TIERS, Library, bundled_path, flag_names

# Candidate categories per tier (yellow, green, blue, purple) that each mode must offer: 30 in
# every tier of both modes (issue 20: a daily schedule must not bring a group back every two weeks).
MINIMUM_PER_TIER: dict[str, tuple[int, int, int, int]] = {
    "flags": (30, 30, 30, 30),
    "trivia": (30, 30, 30, 30),
}


@dataclass
class CheckResult:
    """The report of ``check_library``: every line, and the problems among them."""

    problems: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the report, problems included

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.problems

    def fail(self, message: str) -> None:
        """Record a problem (also as a "FAIL ..." line of the report)."""
        self.problems.append(message)
        self.lines.append(f"FAIL {message}")


def artwork_path(code: str, svg_dir: Path | None = None) -> Path:
    """Where ``code``'s SVG is: in ``svg_dir``, or the bundled flags/svg."""
    return (svg_dir if svg_dir is not None else bundled_path() / "svg") / f"{code}.svg"


def tier_counts(library: Library, mode: str) -> tuple[int, int, int, int]:
    """Candidate categories of ``mode`` per tier (yellow, green, blue, purple)."""
    counts = Counter(c.tier for c in library.categories(mode))
    return (counts[0], counts[1], counts[2], counts[3])


def check_flag_names(result: CheckResult) -> None:
    """Every bundled artwork has a name that is not its code, and names.json names no country."""
    art = sorted(p.stem for p in (bundled_path() / "svg").glob("*.svg"))
    names = flag_names()
    unnamed = [c for c in art if names.get(c, c) == c]
    if unnamed:
        result.fail(f"no name for the bundled flags {unnamed} (flags/names.json)")
    extra = sorted(set(names) - set(art))
    if extra:
        result.fail(f"names for codes without artwork: {extra}")
    if not unnamed and not extra:
        result.lines.append(f"names: all {len(art)} bundled flags have a name")


def check_library(
    library: Library,
    *,
    svg_dir: Path | None = None,
    colours: bool = True,
    minimums: dict[str, tuple[int, int, int, int]] | None = None,
    step: Callable[[str], None] | None = None,
) -> CheckResult:
    """Check ``library`` beyond what loading enforces (see the module docstring).

    ``minimums`` maps each mode to the candidates per tier it must offer (default:
    MINIMUM_PER_TIER, the bundled library's); ``colours=False`` skips rendering the flags.
    ``step(code)`` is called after each flag's colour check (the slow part: one render per
    flag), so a caller can show progress over ``len(library.codes)`` steps.
    """
    result = CheckResult()
    lines = result.lines
    lines.append(f"library: {library.source}")
    lines.append(f"countries: {len(library.codes)}")
    missing_art = [c for c in library.codes if not artwork_path(c, svg_dir).is_file()]
    if missing_art:
        result.fail(f"no artwork for {missing_art}")
    else:
        lines.append(f"artwork: all {len(library.codes)} codes have an SVG")
    check_flag_names(result)
    for mode in MODES:
        cats = library.categories(mode)
        counts = tier_counts(library, mode)
        want = (minimums or MINIMUM_PER_TIER).get(mode, (0, 0, 0, 0))
        kinds = Counter(c.kind for c in cats)
        lines.append(
            f"mode {mode}: {len(cats)} candidates ({kinds['library']} library, "
            f"{kinds['synthetic']} synthetic); per tier "
            + ", ".join(f"{TIERS[t]} {counts[t]} (min {want[t]})" for t in range(4))
        )
        for t in range(4):
            if counts[t] < want[t]:
                result.fail(f"mode {mode}: {TIERS[t]} has {counts[t]} candidates, needs {want[t]}")
        by_pool: dict[frozenset[str], list[str]] = {}
        for c in cats:
            by_pool.setdefault(c.pool, []).append(c.id)
        for ids in by_pool.values():
            if len(ids) > 1:
                result.fail(f"mode {mode}: categories {ids} have the same pool")
        small = min(len(c.pool) for c in cats)
        lines.append(f"mode {mode}: smallest pool {small}, largest {max(len(c.pool) for c in cats)}")
    if colours and not missing_art:
        from .colour_check import check_colours

        bad = 0
        for code in library.codes:
            declared = library.facts(code).get("colours")
            report = check_colours(artwork_path(code, svg_dir).read_bytes(), declared) if declared else None
            if report is not None and not report.ok:
                bad += 1
                shares = ", ".join(f"{k} {v:.1%}" for k, v in report.shares.items() if v >= 0.001)
                result.fail(
                    f"flag {code}: declared colours {sorted(declared or ())}; missing {list(report.missing)}, "
                    f"undeclared {list(report.undeclared)} (rendered: {shares})"
                )
            if step is not None:
                step(code)
        if not bad:
            lines.append(
                f"colours: every declared colour is visible and no large colour is undeclared "
                f"({len(library.codes)} flags rendered)"
            )
    lines.append("OK" if result.ok else f"{len(result.problems)} problem(s)")
    return result
