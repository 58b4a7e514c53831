"""Do the signatures agree with what a player sees? A measurement both ways, per flag and grid.

Judged on the board as the game shows it (``render_flag(code, columns, rows)``: every piece in
its own box, composited over a white page), pair by pair, with two criteria that do not use
either signature:

* **visibly differ**: more than 15 pixels differ by more than 60 levels (in R, G or B), not
  counting the 2 px along each edge of the tile. Fifteen pixels is a blob about 4 px across at
  48 px per tile; sixty levels is about two steps of the spec's colour quantum. Differences
  confined to the edges are left out because a seam can only add a sliver there.
* **look the same**: after a 3 x 3 box blur of each tile (roughly what the eye resolves at the
  size a tile is shown: single anti-aliased pixels and sub-pixel slivers fade in), no pixel of
  the whole tile, edges included, differs by more than 16 levels in any channel.

A signature *wrongly merges* a pair that visibly differs and *wrongly splits* a pair that looks
the same. Pairs that are neither (small but not invisible differences) are counted separately:
either answer is defensible for them. Par is compared on the same random boards (the strict
shuffles of ``puzzle.new_game(None, grid, seed)``, seeds "audit:<code>:<grid>:<i>").
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import puzzle, signatures

VISIBLE_LEVELS = 60
VISIBLE_PIXELS = 15
VISIBLE_MARGIN = 2
SAME_LEVELS = 16
SAME_BLUR = 3

Tile = npt.NDArray[np.int32]


def shown_tiles(code: str, columns: int, rows: int) -> list[Tile]:
    """Each piece as the game shows it, RGB over white, slots in row-major order."""
    image = signatures.render_flag(code, columns, rows)
    rgb = image[:, :, :3].astype(np.int32)
    alpha = image[:, :, 3:].astype(np.int32)
    shown = (rgb * alpha + 255 * (255 - alpha) + 127) // 255
    th, tw = image.shape[0] // rows, image.shape[1] // columns
    return [shown[r * th : (r + 1) * th, c * tw : (c + 1) * tw] for r in range(rows) for c in range(columns)]


def visibly_differ(a: Tile, b: Tile) -> bool:
    """True when more than VISIBLE_PIXELS pixels, away from the edges, differ by more than
    VISIBLE_LEVELS in some channel (the "visibly differ" criterion above)."""
    m = VISIBLE_MARGIN
    diff = np.abs(a - b)[m:-m, m:-m].max(axis=2)
    return int((diff > VISIBLE_LEVELS).sum()) > VISIBLE_PIXELS


def _blur(tile: Tile) -> npt.NDArray[np.float64]:
    k = SAME_BLUR // 2
    padded = np.pad(tile.astype(np.float64), ((k, k), (k, k), (0, 0)), mode="edge")
    h, w = tile.shape[:2]
    out = np.zeros((h, w, tile.shape[2]))
    for dy in range(SAME_BLUR):
        for dx in range(SAME_BLUR):
            out += padded[dy : dy + h, dx : dx + w]
    return out / (SAME_BLUR * SAME_BLUR)


def look_same(a: Tile, b: Tile) -> bool:
    """True when the two tiles, box-blurred as the eye resolves them, differ by at most
    SAME_LEVELS anywhere, edges included (the "look the same" criterion above)."""
    return float(np.abs(_blur(a) - _blur(b)).max()) <= SAME_LEVELS


def _pairs_against(
    sigs: list[int], differ: set[tuple[int, int]], same: set[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    merged = sorted(p for p in differ if sigs[p[0]] == sigs[p[1]])
    split = sorted(p for p in same if sigs[p[0]] != sigs[p[1]])
    return merged, split


def audit_flag(code: str, grid: str, seeds: int = 20) -> dict[str, Any]:
    """Both signatures of one flag at one grid against the two criteria, and their pars."""
    columns, rows = puzzle.GRIDS[grid]
    spec = signatures.piece_signatures(code, columns, rows, method="spec")
    visual = signatures.piece_signatures(code, columns, rows, method="visual")
    if spec is None or visual is None:
        raise RuntimeError(f"no signatures for bundled flag {code} at {columns}x{rows}")
    tiles = shown_tiles(code, columns, rows)
    n = len(tiles)
    differ: set[tuple[int, int]] = set()
    same: set[tuple[int, int]] = set()
    between: set[tuple[int, int]] = set()
    for i in range(n):
        for j in range(i + 1, n):
            if visibly_differ(tiles[i], tiles[j]):
                differ.add((i, j))
            elif look_same(tiles[i], tiles[j]):
                same.add((i, j))
            else:
                between.add((i, j))
    row: dict[str, Any] = {
        "code": code,
        "grid": grid,
        "pairs": n * (n - 1) // 2,
        "differ_pairs": len(differ),
        "same_pairs": len(same),
        "between_pairs": len(between),
    }
    for name, sigs in (("spec", spec), ("visual", visual)):
        merged, split = _pairs_against(sigs, differ, same)
        row[name] = {
            "k": len(set(sigs)),
            "merged_visible": merged,
            "split_same": split,
            "merged_between": sum(1 for i, j in between if sigs[i] == sigs[j]),
        }
    pars: dict[str, list[int]] = {"spec": [], "visual": []}
    solved_by_spec = 0
    for seed in range(seeds):
        board = puzzle.new_game(None, puzzle.resolve_grid(grid), seed=f"audit:{code}:{grid}:{seed}").tiles_by_slot
        for name, sigs in (("spec", spec), ("visual", visual)):
            pars[name].append(puzzle.min_swaps_to_visual_solve(board, sigs))
        solved_by_spec += pars["spec"][-1] == 0 and pars["visual"][-1] > 0
    for name in pars:
        row[name]["mean_par"] = statistics.fmean(pars[name])
    row["boards"] = seeds
    row["spec_solved_not_visual"] = solved_by_spec
    return row


def summarise(grid: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One grid's totals over audit_flag rows: per signature, the flags and pairs that merge what
    visibly differs or split what looks the same, and how many flags' mean par moved."""
    out: dict[str, Any] = {"grid": grid, "flags": len(rows)}
    for name in ("spec", "visual"):
        out[name] = {
            "flags_merging_visible": sum(1 for r in rows if r[name]["merged_visible"]),
            "pairs_merging_visible": sum(len(r[name]["merged_visible"]) for r in rows),
            "flags_splitting_same": sum(1 for r in rows if r[name]["split_same"]),
            "pairs_splitting_same": sum(len(r[name]["split_same"]) for r in rows),
            "pairs_merged_between": sum(r[name]["merged_between"] for r in rows),
            "mean_par": statistics.fmean(r[name]["mean_par"] for r in rows) if rows else 0.0,
        }
    out["flags_par_moved"] = sum(1 for r in rows if abs(r["spec"]["mean_par"] - r["visual"]["mean_par"]) > 1e-9)
    out["flags_k_changed"] = sum(1 for r in rows if r["spec"]["k"] != r["visual"]["k"])
    out["boards_spec_solved_not_visual"] = sum(r["spec_solved_not_visual"] for r in rows)
    out["boards"] = sum(r["boards"] for r in rows)
    out["pairs_between"] = sum(r["between_pairs"] for r in rows)
    return out


def audit(codes: Iterable[str], grids: Iterable[str], seeds: int = 20, step: Any = None) -> dict[str, Any]:
    """audit_flag over every code and grid; ``step(label)`` is called after each (progress)."""
    codes = list(codes)
    flags: list[dict[str, Any]] = []
    summaries = []
    for grid in grids:
        rows = []
        for code in codes:
            rows.append(audit_flag(code, grid, seeds))
            if step is not None:
                step(f"{grid} {code}")
        flags += rows
        summaries.append(summarise(grid, rows))
    return {"seeds": seeds, "grids": summaries, "flags": flags}


def render(result: dict[str, Any]) -> str:
    """The before (spec) / after (visual) table and the flags behind every nonzero count."""
    head = [
        "grid",
        "signature",
        "flags merging visible",
        "pairs",
        "flags splitting same",
        "pairs",
        "in-between merged",
        "K changed",
        "par moved",
        "mean par",
    ]
    body = []
    for s in result["grids"]:
        for name in ("spec", "visual"):
            v = s[name]
            body.append(
                [
                    s["grid"],
                    name,
                    f"{v['flags_merging_visible']}/{s['flags']}",
                    str(v["pairs_merging_visible"]),
                    f"{v['flags_splitting_same']}/{s['flags']}",
                    str(v["pairs_splitting_same"]),
                    f"{v['pairs_merged_between']}/{s['pairs_between']}",
                    str(s["flags_k_changed"]) if name == "visual" else "",
                    str(s["flags_par_moved"]) if name == "visual" else "",
                    f"{v['mean_par']:.3f}",
                ]
            )
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(head)]
    lines = [
        "Signatures against what a player sees (flagcore.signature_audit): "
        f"par over {result['seeds']} boards per flag and grid",
        "",
    ]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in [head] + body]
    lines += [
        "",
        "in-between: pairs that neither visibly differ nor look the same (either answer is",
        "defensible); merged: how many of them the signature calls look-alike. K changed,",
        "par moved: flags whose number of classes / mean par differs from the spec's.",
    ]
    spec_solved = sum(s["boards_spec_solved_not_visual"] for s in result["grids"])
    boards = sum(s["boards"] for s in result["grids"])
    lines += [
        "",
        f"boards the spec's signature calls solved while a tile is visibly out of place: {spec_solved}/{boards}",
    ]
    for name, key, what in (
        ("spec", "merged_visible", "merges that visibly differ"),
        ("visual", "merged_visible", "merges that visibly differ"),
        ("visual", "split_same", "splits that look the same"),
        ("spec", "split_same", "splits that look the same"),
    ):
        hits = [f"{f['code']} {f['grid']} {f[name][key]}" for f in result["flags"] if f[name][key]]
        lines.append(f"{name} {what}: " + ("none" if not hits else ""))
        lines += [f"  {h}" for h in hits]
    return "\n".join(lines)
