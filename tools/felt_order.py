"""Do a board's colours follow the order its blind players felt? Model colours against learned ones.

Each blind play-tester writes, after a game, the four labels from the easiest felt to the hardest
(records/felt/blind-games.jsonl: one line a game with its ``player``, ``seed`` or ``daily``, ``mode``,
``difficulty``, ``felt`` and the player's fairness notes). A line written by ``play_blind.py felt``
also holds the ``board`` as the player met it, which is read as it is; a line without it deals its
board again from the seed (the data may since have changed it). This reads them back and counts, per
board, how far the colours (yellow .. purple) are from the felt order: exactly, or within one
swap (one exchange of two groups, any two). A felt label the board does not show (misspelt) drops
that game from the count.

    python tools/felt_order.py --felt records/felt/blind-games.jsonl
                               [--ratings FILE | --cross-fit records/blind-games.jsonl] [--json]

The colours compared:

* ``as dealt``: the board's own colours (the board as the player met it);
* ``model``: today's difficulty model's colours (hand-set saliences) for the same four groups;
* ``ratings``: the same groups coloured by learned difficulty (``--ratings``), or, with
  ``--cross-fit``, by ratings fitted on every OTHER player's records (leave one player out), so
  no board is coloured by its own player's result.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flagcore import connections
from flagcore._connections_layout import SALIENCE_MAX, SCORE_HIDDEN
from flagcore._impl import core
from flagcore.connections.board import Board
from flagcore.connections.difficulty import model_tables
from flagcore.connections.tables import default_library
from flagcore.ratings import fit, load_ratings, read_records
from flagcore.ratings.colouring import rated_model
from flagcore.ratings.shipped import SHIPPED

sys.path.insert(0, str(Path(__file__).resolve().parent))
from play_blind import board_of  # noqa: E402

_RATINGS_BY_DIGEST: dict[str, Any] = {}  # the ratings a board was dealt with, by digest


def swaps(order: Sequence[int]) -> int:
    """The fewest exchanges of two items that sort ``order`` (a permutation of 0..n-1)."""
    seen, cycles = [False] * len(order), 0
    for i in range(len(order)):
        if not seen[i]:
            cycles += 1
            while not seen[i]:
                seen[i], i = True, order[i]
    return len(order) - cycles


def _board(game: dict[str, Any]) -> Board:
    ratings = None
    if game.get("ratings"):
        ratings = load_ratings(SHIPPED if game["ratings"] == "shipped" else game["ratings"])
        _RATINGS_BY_DIGEST[ratings.digest] = ratings
    if game.get("board"):  # the board as the player met it (play_blind.py felt): not dealt again
        return board_of(game["board"])
    if game.get("daily"):
        return connections.daily(game["daily"], game["mode"], ratings=ratings)
    kwargs: dict[str, Any] = {} if game.get("difficulty") in (None, "normal") else {"difficulty": game["difficulty"]}
    if ratings is not None:
        kwargs["ratings"] = ratings
    return connections.generate(game["seed"], game["mode"], **kwargs)


def _tiers(keys: list[tuple[float, int]]) -> list[int]:
    """Colours by ascending key (the dealt colour breaks ties)."""
    tiers = [0] * 4
    for colour, i in enumerate(sorted(range(4), key=keys.__getitem__)):
        tiers[i] = colour
    return tiers


def _own_scores(board: Board) -> list[float]:
    """Each group's board part of the model's score (its lure and pulls): the score less the part
    its category's salience gives, on the saliences the board was dealt on (rated or not)."""
    impl = core.connections
    digest = board.stats["model"].get("ratings")
    if digest:
        rm = rated_model(impl, None, board.mode, _RATINGS_BY_DIGEST[digest])
        salience = {cid: rm.salience[i] for cid, i in rm.index.items()}
    else:
        salience = _base_salience(board.mode)
    return [
        score - SCORE_HIDDEN * (SALIENCE_MAX - salience[g.category_id])
        for g, score in zip(board.groups, board.stats["model"]["scores"], strict=True)
    ]


def _base_salience(mode: str) -> dict[str, int]:
    base = model_tables(core.connections, default_library(), mode)
    return {c.id: d.salience for c, d in zip(base.tables.categories, base.data, strict=True)}


def model_tiers(board: Board) -> list[int]:
    """The colours today's model (hand-set saliences, no ratings) gives the same four groups."""
    sal = _base_salience(board.mode)
    own = _own_scores(board)
    return _tiers([(SCORE_HIDDEN * (SALIENCE_MAX - sal[g.category_id]) + o, g.tier) for g, o in zip(board.groups, own)])


def rated_tiers(board: Board, ratings: Any) -> list[int]:
    """The colours ``ratings`` gives the same four groups (learned difficulty, blended as the engine does)."""
    rm = rated_model(core.connections, None, board.mode, ratings)
    keys = []
    for g, own in zip(board.groups, _own_scores(board), strict=True):
        d, ws, _ = rm.terms[g.category_id]
        keys.append((d + ws * own / SCORE_HIDDEN, g.tier))
    return _tiers(keys)


def _felt_ranks(board: Board, felt: list[str]) -> list[int] | None:
    """Each group's felt rank (0 easiest), or None when the labels do not name the four groups."""
    labels = [g.label for g in board.groups]
    if sorted(felt) != sorted(labels):
        return None
    return [felt.index(lbl) for lbl in labels]


def _tally(rows: list[tuple[str, list[int], dict[str, list[int]]]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for _, felt, colourings in rows:
        for name, tiers in colourings.items():
            t = out.setdefault(name, {"boards": 0, "exact": 0, "within_one_swap": 0, "yellow_easiest": 0})
            order = [felt[tiers.index(c)] for c in range(4)]  # felt rank of yellow, green, ...
            n = swaps(order)
            t["boards"] += 1
            t["exact"] += n == 0
            t["within_one_swap"] += n <= 1
            t["yellow_easiest"] += order[0] == 0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--felt", required=True, nargs="+", help="felt-order JSON lines (records/felt/blind-games.jsonl)")
    ap.add_argument("--ratings", help="a ratings file to colour the same groups by")
    ap.add_argument("--cross-fit", help="play records: colour each player's boards by the others' ratings")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    games = []
    for path in a.felt:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                games.append(json.loads(line))
    records = read_records(a.cross_fit).records if a.cross_fit else []
    fixed = load_ratings(a.ratings) if a.ratings else None
    if SHIPPED.exists():
        shipped = load_ratings(SHIPPED)
        _RATINGS_BY_DIGEST[shipped.digest] = shipped
    if fixed is not None:
        _RATINGS_BY_DIGEST[fixed.digest] = fixed
    boards = [_board(g) for g in games]
    player_of = {connections.board_id(b): g["player"] for g, b in zip(games, boards, strict=True)}
    by_player: dict[str, Any] = {}
    rows, unmatched = [], 0
    for g, board in zip(games, boards, strict=True):
        felt = _felt_ranks(board, g["felt"])
        if felt is None:
            unmatched += 1
            continue
        colourings = {"as dealt": [grp.tier for grp in board.groups], "model": model_tiers(board)}
        player = g["player"]
        if a.cross_fit:
            if player not in by_player:  # the other players' records only
                by_player[player] = fit([r for r in records if player_of.get(r.board) != player])
            colourings["ratings"] = rated_tiers(board, by_player[player])
        elif fixed is not None:
            colourings["ratings"] = rated_tiers(board, fixed)
        rows.append((g.get("seed") or g["daily"], felt, colourings))
    result = {"games": len(rows), "unmatched_labels": unmatched, "colours": _tally(rows)}
    if a.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"{len(rows)} games with a felt order ({unmatched} whose labels did not match)")
    for name, t in result["colours"].items():
        n = t["boards"]
        print(
            f"  {name:>9}: exact {t['exact']}/{n} ({t['exact'] / n:.0%}), within one swap "
            f"{t['within_one_swap']}/{n} ({t['within_one_swap'] / n:.0%}), "
            f"yellow felt easiest {t['yellow_easiest']}/{n}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
