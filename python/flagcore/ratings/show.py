"""``flagcore ratings show``: a ratings file as a table and a chart (pillow; no plotting library).

The chart has one panel per mode: each rated category a dot at its difficulty with a bar of
+-1.96 sd (about 95%), hardest at the top; beside it the colour calibration, one bar per colour
split by the share found 1st, 2nd, 3rd, 4th and not at all.
"""

from __future__ import annotations

from pathlib import Path

from .._args.ratings import COLOURS
from .document import Ratings

__all__ = ["chart", "table"]

Z95 = 1.96
POSITIONS = ("1st", "2nd", "3rd", "4th", "unsolved")


def table(ratings: Ratings, mode: str | None = None, limit: int | None = None) -> str:
    """Categories hardest first with their 95% intervals and plays, then the colour calibration."""
    lines = []
    for m, cs in sorted(ratings.categories.items()):
        if mode is not None and m != mode:
            continue
        n = ratings.records.get(m, 0)
        lines.append(f"{m}: {len(cs)} categories from {n} records (higher is harder)")
        lines.append(f"  {'category':<44} {'difficulty':>10} {'95% interval':>17} {'plays':>6}")
        rows = sorted(cs.items(), key=lambda kv: (-kv[1].difficulty, kv[0]))
        for cid, r in rows[:limit]:
            lo, hi = r.difficulty - Z95 * r.sd, r.difficulty + Z95 * r.sd
            lines.append(f"  {cid[:44]:<44} {r.difficulty:>10.2f} {f'[{lo:.2f}, {hi:.2f}]':>17} {r.plays:>6}")
        cal = ratings.colours.get(m)
        if cal:
            lines.append("  colour calibration: share of games each colour was found " + ", ".join(POSITIONS))
            for col in COLOURS:
                row = cal.get(col, [0] * 5)
                total = sum(row) or 1
                lines.append(f"  {col:<8} " + " ".join(f"{v / total:>8.0%}" for v in row) + f"   ({sum(row)} games)")
        mm = ratings.model.get(m)
        if mm:
            lines.append(
                f"  today's model on this scale: {mm.intercept:.2f} + {mm.slope:.3f} x (10 - salience), sd {mm.sd:.2f}"
            )
    return "\n".join(lines)


_COLOUR_RGB = {"yellow": (249, 223, 109), "green": (160, 195, 90), "blue": (176, 196, 239), "purple": (186, 129, 197)}
_POS_SHADE = ((40, 40, 40), (100, 100, 100), (150, 150, 150), (200, 200, 200), (235, 120, 110))


def chart(ratings: Ratings, path: str | Path, mode: str | None = None, limit: int = 60) -> Path:
    """A PNG of the categories by difficulty with intervals (the ``limit`` most played per mode,
    drawn by difficulty), and the colour calibration; returns the path written."""
    from PIL import Image, ImageDraw  # noqa: PLC0415 (only the chart needs pillow)

    from ..review.pictures import font_of_size  # noqa: PLC0415

    modes = [m for m in sorted(ratings.categories) if mode is None or m == mode]
    row_h, label_w, plot_w, pad = 14, 300, 420, 12
    font = font_of_size(11)
    panels = []
    for m in modes:
        cs = sorted(ratings.categories[m].items(), key=lambda kv: (-kv[1].plays, kv[0]))[:limit]
        panels.append((m, sorted(cs, key=lambda kv: (-kv[1].difficulty, kv[0]))))
    height = pad + sum(row_h * (len(rows) + 3) + 5 * row_h + pad for _, rows in panels) + pad
    img = Image.new("RGB", (label_w + plot_w + 2 * pad, max(height, 60)), "white")
    draw = ImageDraw.Draw(img)
    y = pad
    for m, rows in panels:
        draw.text((pad, y), f"{m}: difficulty (dot) and 95% interval, harder at the top", fill="black", font=font)
        y += row_h + 4
        vals = [r.difficulty + s * Z95 * r.sd for _, r in rows for s in (-1, 1)] or [0.0, 1.0]
        lo, hi = min(vals), max(vals)
        span = (hi - lo) or 1.0

        def px(v: float, lo: float = lo, span: float = span) -> float:
            return label_w + pad + (v - lo) / span * (plot_w - 10)

        top = y
        for cid, r in rows:
            draw.text((pad, y), cid[:46], fill="black", font=font)
            cy = y + row_h // 2
            draw.line(
                (px(r.difficulty - Z95 * r.sd), cy, px(r.difficulty + Z95 * r.sd), cy), fill=(90, 90, 200), width=2
            )
            cx = px(r.difficulty)
            draw.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=(20, 20, 120))
            y += row_h
        zero = px(0.0)
        draw.line((zero, top, zero, y), fill=(200, 200, 200))
        draw.text((label_w + pad, y + 2), f"{lo:.1f}", fill="black", font=font)
        draw.text((label_w + pad + plot_w - 40, y + 2), f"{hi:.1f}", fill="black", font=font)
        y += row_h + 6
        cal = ratings.colours.get(m, {})
        draw.text(
            (pad, y), "colour calibration: found 1st (dark) .. 4th (light), unsolved (red)", fill="black", font=font
        )
        y += row_h
        for col in COLOURS:
            row = cal.get(col, [0] * 5)
            total = sum(row) or 1
            draw.rectangle((pad, y + 1, pad + 60, y + row_h - 2), fill=_COLOUR_RGB[col])
            draw.text((pad + 4, y), col, fill="black", font=font)
            x = float(label_w + pad)
            for k, v in enumerate(row):
                w = v / total * (plot_w - 10)
                if w > 0:
                    draw.rectangle((x, y + 1, x + w, y + row_h - 2), fill=_POS_SHADE[k])
                x += w
            y += row_h
        y += pad
    out = Path(path)
    img.save(out, format="PNG")
    return out
