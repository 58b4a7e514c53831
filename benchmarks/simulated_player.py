"""A simulated Connections player: solves boards the way the difficulty model says people do.

    python benchmarks/simulated_player.py --boards 10000 --mode flags --difficulty normal
    python benchmarks/simulated_player.py --boards 2000 --json

It is a model, not people: it sees exactly what flagcore.connections.board_difficulty says a
board shows (docs/difficulty.md), with the noise below standing for attention. It is a tool to
compare boards, modes and colourings with each other, not a prediction of how many people win.

How it plays, one guess at a time (every random choice from one flagcore.Rng per board):

* It looks at the sets it can see among the tiles left: each unsolved group (visibility
  SALIENCE_MAX * 10 - its model score: salient features first, lures and phantom pulls hide it)
  and each tempting phantom with at least four members left across two or more unsolved groups
  (visibility its salience * 10, +10 when exactly four members are left: a ready-made four).
  Each visibility gets uniform noise in [0, NOISE); it goes for the most visible set.
* Going for a group, it picks four of the tiles left that carry the feature the group's label
  names (its named set: the group's tiles and its lures); with no lure that is the group itself,
  and so it is for a plain clause ("Only red and white"): such flags stand out from the lures.
  Going for a phantom, four of its members left. A four it has tried before is never tried again.
* A wrong four is a mistake; a phantom it was wrong about is not tried again (it heard "wrong").
  Four mistakes lose. The last four tiles are solved by elimination.

Reported per mode and difficulty: win rate, mistakes per board, mistakes that came from phantoms,
and the solve order by colour under three colourings of the same groups: ``library`` (the tier of
the category, what boards showed before the model), ``board`` (the groups ranked by their model
score on this board: what generate shows now) and ``recalibrated`` (ranked by the category's mean
score over the sample, a fixed tier per category).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from flagcore import Rng, connections
from flagcore._connections_layout import SALIENCE_MAX, TIER_NAMES
from flagcore._impl import core
from flagcore.connections.difficulty import model_tables

NOISE = 30  # attention: a set 3 salience points less visible than another is still picked first sometimes
MAX_MISTAKES = 4
SCHEMES = ("library", "board", "recalibrated")


@dataclass
class Game:
    """One simulated game: the groups (board indices) in the order solved, mistakes, and why."""

    won: bool
    solved: list[int] = field(default_factory=list)
    mistakes: int = 0
    phantom_mistakes: int = 0


def play(board: Any, model: Any, named: list[frozenset[str]], rng: Rng) -> Game:
    """Play ``board`` (its model and each group's named set) as the module docstring says."""
    groups = [frozenset(g.codes) for g in board.groups]
    left = set(board.tiles)
    unsolved = [0, 1, 2, 3]
    tried: set[frozenset[str]] = set()
    rejected: set[str] = set()
    game = Game(False)
    phantoms = [(p.category_id, frozenset(p.codes), p) for p in model.tempting]
    while game.mistakes < MAX_MISTAKES:
        if len(unsolved) == 1:
            game.solved.append(unsolved.pop())
            game.won = True
            return game
        options: list[tuple[int, frozenset[str], str | None]] = []
        for g in unsolved:
            vis = SALIENCE_MAX * 10 - model.groups[g].score
            options.append((vis + rng.below(NOISE), named[g] & left, None))
        for cid, members, p in phantoms:
            have = members & left
            spread = sum(1 for g in unsolved if have & groups[g])
            if cid in rejected or len(have) < 4 or spread < 2:
                continue
            vis = 10 * p.salience
            vis += 10 if len(have) == 4 else 0
            options.append((vis + rng.below(NOISE), have, cid))
        options.sort(key=lambda o: -o[0])
        guess = None
        for _, pool, cid in options:
            fours = [frozenset(c) for c in combinations(sorted(pool), 4)]
            fresh = [f for f in fours if f not in tried]
            if fresh:
                guess = (fresh[rng.below(len(fresh))], cid)
                break
        if guess is None:  # every visible four tried: guess among the tiles left
            rest = sorted(left)
            fresh = [frozenset(c) for c in combinations(rest, 4) if frozenset(c) not in tried]
            guess = (fresh[rng.below(len(fresh))], None)
        four, cid = guess
        tried.add(four)
        hit = next((g for g in unsolved if groups[g] == four), None)
        if hit is not None:
            game.solved.append(hit)
            unsolved.remove(hit)
            left -= four
            continue
        game.mistakes += 1
        if cid is not None:
            game.phantom_mistakes += 1
            rejected.add(cid)
    return game


def named_sets(board: Any, library: Any = None) -> list[frozenset[str]]:
    """Per group: the codes that carry the feature its label names (fit set and clause-free set; the
    fit set alone for a plain clause, whose lures do not hide it)."""
    mt = model_tables(core.connections, library, board.mode)
    out = []
    for g in board.groups:
        c = mt.tables.index[g.category_id]
        cat = mt.tables.categories[c]
        named = frozenset() if mt.data[c].plain else (mt.data[c].named or frozenset())
        out.append(named | cat.pool | cat.arguable)
    return out


def colours(board: Any, model: Any, scheme: str, mean_score: dict[str, float], tier_of: dict[str, int]) -> list[int]:
    """The colour (0 yellow .. 3 purple) each group of ``board`` shows under ``scheme``."""
    if scheme == "library":  # the category's own tier (a board holds one category of each)
        return [tier_of[g.category_id] for g in board.groups]
    if scheme == "board":
        key = [(model.groups[i].score, board.groups[i].tier) for i in range(4)]
    else:
        key = [(mean_score[g.category_id], g.tier) for g in board.groups]
    rank = sorted(range(4), key=lambda i: key[i])
    out = [0] * 4
    for colour, i in enumerate(rank):
        out[i] = colour
    return out


def run(mode: str, difficulty: Any, n: int, first_seed: int = 0, progress: bool = False) -> dict[str, Any]:
    """Play ``n`` boards (seeds first_seed..) of ``mode`` at ``difficulty``; the report as a dict."""
    games = []
    score_sum: dict[str, float] = defaultdict(float)
    score_n: dict[str, int] = defaultdict(int)
    for seed in range(first_seed, first_seed + n):
        board = connections.generate(seed, mode, difficulty=difficulty)
        model = connections.board_difficulty(board)
        game = play(board, model, named_sets(board), Rng(f"player:{seed}"))
        games.append((board, model, game))
        for g in model.groups:
            score_sum[g.category_id] += g.score
            score_n[g.category_id] += 1
        if progress and (seed - first_seed) % 1000 == 999:
            print(f"  {mode} {difficulty}: {seed - first_seed + 1} boards", file=sys.stderr)
    mean_score = {cid: score_sum[cid] / score_n[cid] for cid in score_sum}
    tier_of = {c.id: c.tier for c in model_tables(core.connections, None, mode).tables.categories}
    won = [x for x in games if x[2].won]
    mistakes = sum(x[2].mistakes for x in games)
    report: dict[str, Any] = {
        "mode": mode,
        "difficulty": difficulty if difficulty is not None else "none (the search alone)",
        "boards": n,
        "win_rate": round(len(won) / n, 4),
        "mistakes_per_board": round(mistakes / n, 3),
        "phantom_mistakes_per_board": round(sum(x[2].phantom_mistakes for x in games) / n, 3),
        "boards_with_tempting_phantom": round(sum(1 for x in games if x[1].tempting) / n, 4),
        "clause_idle_groups": sum(1 for x in games for g in x[1].groups if g.clause == "idle"),
        "colours": {},
    }
    for scheme in SCHEMES:
        first = last = exact = near = 0
        position = [0.0] * 4
        for board, model, game in won:
            col = colours(board, model, scheme, mean_score, tier_of)
            order = [col[g] for g in game.solved]
            first += order[0] == 0
            last += order[-1] == 3
            exact += order == [0, 1, 2, 3]
            inversions = sum(1 for i in range(4) for j in range(i + 1, 4) if order[i] > order[j])
            near += inversions <= 1
            for pos, c in enumerate(order):
                position[c] += pos + 1
        k = max(1, len(won))
        report["colours"][scheme] = {
            "yellow_first": round(first / k, 4),
            "purple_last": round(last / k, 4),
            "order_exact": round(exact / k, 4),
            "order_within_one_swap": round(near / k, 4),
            "mean_solve_position": {TIER_NAMES[c]: round(position[c] / k, 2) for c in range(4)},
        }
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--mode", choices=("flags", "trivia", "both"), default="both")
    ap.add_argument(
        "--difficulty", action="append", help="easy, normal, hard, a number or none (the search alone); repeatable"
    )
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    modes = ("flags", "trivia") if args.mode == "both" else (args.mode,)
    levels: list[Any] = ["normal"] if not args.difficulty else [_level(d) for d in args.difficulty]
    reports = [run(m, d, args.boards, args.first_seed, progress=not args.json) for m in modes for d in levels]
    if args.json:
        print(json.dumps(reports, indent=1))
        return 0
    for r in reports:
        print(
            f"{r['mode']:6} {r['difficulty']!s:6} boards {r['boards']}: won {r['win_rate']:.1%}, "
            f"{r['mistakes_per_board']:.2f} mistakes/board ({r['phantom_mistakes_per_board']:.2f} from phantoms), "
            f"tempting phantom on {r['boards_with_tempting_phantom']:.0%} of boards, "
            f"{r['clause_idle_groups']} groups with an idle clause"
        )
        for scheme, c in r["colours"].items():
            pos = ", ".join(f"{k} {v}" for k, v in c["mean_solve_position"].items())
            print(
                f"    colours {scheme:12}: yellow first {c['yellow_first']:.0%}, purple last {c['purple_last']:.0%}, "
                f"order exact {c['order_exact']:.0%}, within one swap {c['order_within_one_swap']:.0%}; "
                f"mean position {pos}"
            )
    return 0


def _level(text: str) -> Any:
    if text == "none":
        return None  # the search alone, as before the model
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text


if __name__ == "__main__":
    raise SystemExit(main())
