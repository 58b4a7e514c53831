"""Contact sheets: every category with its pool and its arguable codes, flags drawn at tile size.

A person reviews a category at a glance the way a player meets it: the label, then the flags.
The pool's certain codes come first; then its doubtful codes (in the pool, but a player could
argue they do not fit), outlined in red and marked "-?"; then the arguable codes (outside the
pool, but a player could argue they fit), outlined in orange and marked "+?"; the reasons of
both are written under the grid. One PNG per sheet group (colours, stripes, symbols, geography, ...);
``flagcore data sheet`` writes them.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from .._args.review import as_int_in, as_modes, as_names
from ..library import MODES, Category, Library, house_rules
from .library_check import artwork_path
from .pictures import BACKGROUND, INK, TIER_RGB, fit_image, font_of_size, save_picture

# Sheet groups in page order. A category's group comes from its id prefix, and for flag design
# categories from the attributes its rule tests (stripes before symbols before colours).
GROUPS = ("colours", "stripes", "symbols", "geography", "languages-money-names", "politics-history", "other")
_PREFIX_GROUP = {
    "geo": "geography",
    "lang": "languages-money-names",
    "money": "languages-money-names",
    "name": "languages-money-names",
    "org": "politics-history",
    "gov": "politics-history",
    "hist": "politics-history",
}
_STRIPES = ("stripes", "stripe_count")
_SYMBOLS = ("features", "stars", "tags")
_ARGUABLE_RGB = (230, 120, 20)
_DOUBTFUL_RGB = (200, 30, 60)
_MISSING_RGB = (215, 215, 215)


def _rule_attributes(rule: Any) -> set[str]:
    if isinstance(rule, dict):
        out: set[str] = set()
        for key, value in rule.items():
            out |= _rule_attributes(value) if key in ("any", "not") else {key}
        return out
    if isinstance(rule, list):
        return set().union(*(_rule_attributes(r) for r in rule)) if rule else set()
    return set()


def sheet_group(cat: Category) -> str:
    """The sheet a category is drawn on."""
    if cat.kind == "synthetic":
        tag = cat.tag or ""
        if tag.startswith(("colour:", "colours:", "colour_count:")):
            return "colours"
        return "stripes" if tag.startswith("stripes") else "symbols"
    prefix = cat.id.split(":", 1)[0]
    if prefix in _PREFIX_GROUP:
        return _PREFIX_GROUP[prefix]
    attrs = _rule_attributes(cat.extra.get("rule"))
    if attrs & set(_STRIPES):
        return "stripes"
    if attrs & set(_SYMBOLS):
        return "symbols"
    if attrs and attrs <= {"colours", "colour_count"}:
        return "colours"
    return "other"


def sheet_groups(library: Library, modes: Iterable[str] = MODES) -> dict[str, list[Category]]:
    """The categories of ``modes`` (each once, in library order) by sheet group, in GROUPS order."""
    seen: dict[str, Category] = {}
    for mode in modes:
        for cat in library.categories(mode):
            seen.setdefault(cat.id, cat)
    groups: dict[str, list[Category]] = {g: [] for g in GROUPS}
    for cat in seen.values():
        groups[sheet_group(cat)].append(cat)
    return {g: cats for g, cats in groups.items() if cats}


class _Tiles:
    """Each flag rendered once at tile size (a grey box with the code when there is no artwork)."""

    def __init__(self, width: int, height: int, svg_dir: Path | None) -> None:
        self.width, self.height, self.svg_dir = width, height, svg_dir
        self._cache: dict[str, Image.Image] = {}

    def get(self, code: str) -> Image.Image:
        if code not in self._cache:
            path = artwork_path(code, self.svg_dir)
            if path.is_file():
                from ..signatures import render_flag  # late: cairosvg is only needed for drawing

                rgba = render_flag(path.read_bytes(), max(1, -(-self.width // 48)))
                image = fit_image(Image.fromarray(np.ascontiguousarray(rgba), "RGBA"), self.width, self.height)
            else:
                image = Image.new("RGBA", (self.width, self.height * 2 // 3), _MISSING_RGB)
            self._cache[code] = image
        return self._cache[code]


def _header(cat: Category) -> str:
    """A category's heading on the sheet: label, id, modes, pool size, doubtful and arguable counts."""
    modes = "both modes" if cat.modes == frozenset(MODES) else f"{'/'.join(sorted(cat.modes))} only"
    return (
        f"{cat.label}   [{cat.id}, {modes}; pool {len(cat.pool)}"
        + (f" ({len(cat.doubtful)} doubtful)" if cat.doubtful else "")
        + (f", arguable {len(cat.arguable)}]" if cat.arguable else "]")
    )


def _draw_tile(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    flag: Image.Image,
    cat: Category,
    code: str,
    corner: tuple[int, int],
    size: tuple[int, int, int],
    font: Any,
) -> None:
    """One flag centred in its cell, outlined and captioned by its membership (+? arguable, -? doubtful)."""
    (x0, y0), (tile_width, tile_h, code_h) = corner, size
    fx, fy = x0 + (tile_width - flag.width) // 2, y0 + (tile_h - flag.height) // 2
    canvas.alpha_composite(flag, (fx, fy))
    mark, colour = (
        ("+? ", _ARGUABLE_RGB)
        if code in cat.arguable
        else ("-? ", _DOUBTFUL_RGB)
        if code in cat.doubtful
        else ("", INK)
    )
    draw.rectangle(
        (fx - 1, fy - 1, fx + flag.width, fy + flag.height),
        outline=colour if mark else (200, 200, 200),
        width=3 if mark else 1,
    )
    draw.text((x0 + tile_width // 2, y0 + tile_h + code_h // 2), mark + code, fill=colour, font=font, anchor="mm")


def draw_sheet(
    title: str,
    cats: Sequence[Category],
    path: str | os.PathLike[str],
    *,
    names: Mapping[str, str],
    tile_width: int = 96,
    columns: int = 12,
    svg_dir: Path | None = None,
    tiles: _Tiles | None = None,
    preface: Sequence[str] = (),
) -> None:
    """One PNG: ``preface`` paragraphs (wrapped) under the title, then for each category a header, its pool's flags,
    its arguable flags (marked) and reasons."""
    tile_h = tile_width * 2 // 3
    tiles = tiles or _Tiles(tile_width, tile_h, svg_dir)
    pad, gap, code_h, head_h, line_h = 16, 8, 16, 30, 17
    cell_w, cell_h = tile_width + gap, tile_h + code_h + gap
    width = 2 * pad + columns * cell_w
    wrap = max(40, (width - 2 * pad) // 7)
    preface_lines = [line for par in preface for line in textwrap.wrap(par, wrap, subsequent_indent="  ")]
    blocks = []
    height = pad + 40 + len(preface_lines) * line_h + (pad if preface else 0)
    for cat in cats:
        codes = sorted(cat.certain) + sorted(cat.doubtful) + sorted(cat.arguable)
        rows = -(-len(codes) // columns)
        reasons = [
            line
            for mark, why in (("-?", cat.doubtful_reasons), ("+?", cat.arguable_reasons))
            for code in sorted(why)
            for line in textwrap.wrap(
                f"{mark} {code} {names.get(code, code)}: " + "; ".join(why[code]), wrap, subsequent_indent="    "
            )
        ]
        blocks.append((cat, codes, reasons))
        height += head_h + rows * cell_h + len(reasons) * line_h + pad
    canvas = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    title_font, head_font, small = font_of_size(22), font_of_size(16), font_of_size(12)
    draw.text((pad, pad), title, fill=INK, font=title_font)
    y = pad + 40
    for line in preface_lines:
        draw.text((pad, y), line, fill=INK, font=small)
        y += line_h
    y += pad if preface else 0
    for cat, codes, reasons in blocks:
        draw.rectangle((pad, y + 4, pad + 16, y + 20), fill=TIER_RGB[cat.tier])
        draw.text((pad + 24, y + 3), _header(cat), fill=INK, font=head_font)
        y += head_h
        for i, code in enumerate(codes):
            x0 = pad + (i % columns) * cell_w
            y0 = y + (i // columns) * cell_h
            _draw_tile(canvas, draw, tiles.get(code), cat, code, (x0, y0), (tile_width, tile_h, code_h), small)
        y += -(-len(codes) // columns) * cell_h
        for line in reasons:
            draw.text((pad, y), line, fill=INK, font=small)
            y += line_h
        y += pad
    save_picture(canvas, path)


def write_sheets(
    library: Library,
    out_dir: str | os.PathLike[str],
    *,
    modes: Iterable[str] = MODES,
    groups: Iterable[str] | None = None,
    tile_width: int = 96,
    columns: int = 12,
    svg_dir: Path | None = None,
    step: Callable[[str], None] | None = None,
) -> list[Path]:
    """Draw one sheet per group into ``out_dir`` (created if needed) as ``<group>.png``; return the paths.

    ``step(group)`` is called after each group's sheet (progress over ``len(GROUPS)`` steps at most).
    """
    as_int_in(tile_width, "tile_width", 24, 400)
    as_int_in(columns, "columns", 1, 40)
    modes = as_modes(modes)
    by_group = sheet_groups(library, modes)
    wanted = as_names(by_group if groups is None else groups, GROUPS, "sheet groups")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = {code: library.name(code) for code in library.codes}
    tiles = _Tiles(tile_width, tile_width * 2 // 3, svg_dir)
    # Each sheet opens with the house rules: a reviewer reads the labels as a player does, with them.
    preface = ["House rules:", *(f"{rule.topic}: {rule.text}" for rule in house_rules())]
    written = []
    for group in wanted:
        cats = by_group.get(group, [])
        if not cats:
            continue
        n_arg = sum(len(c.arguable) for c in cats)
        n_doubt = sum(len(c.doubtful) for c in cats)
        title = (
            f"{group}: {len(cats)} categories ({', '.join(modes)} mode{'s' if len(modes) > 1 else ''}); "
            f"arguably in: {n_arg} (orange, '+?'), arguably out: {n_doubt} (red, '-?')"
        )
        path = out / f"{group}.png"
        draw_sheet(title, cats, path, names=names, tile_width=tile_width, columns=columns, tiles=tiles, preface=preface)
        written.append(path)
        if step is not None:
            step(group)
    return written
