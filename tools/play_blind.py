"""Play Connections boards blind, one guess per command, and tally what a player did.

A play-test is judged by what a player sees: the sixteen tiles (flags and names), never the groups.
This tool keeps one game per state file and shows only what the game has earned: solved groups and
their labels, the verdict of each guess ("one away" included), mistakes left; the rest is revealed
when the game ends. Each guess is recorded with its verdict and the time, so the tally is honest.

    python tools/play_blind.py new STATE --seed S [--mode trivia] [--difficulty normal] [--png FILE]
    python tools/play_blind.py new STATE --daily 2027-03-01 [--mode trivia] [--png FILE]
    python tools/play_blind.py new STATE --seed S --ratings shipped    # dealt as `flagcore serve` deals
    python tools/play_blind.py show STATE [--png FILE]
    python tools/play_blind.py guess STATE CODE CODE CODE CODE
    python tools/play_blind.py tally STATE [STATE ...]      # wins, mistakes, solve order by colour
    python tools/play_blind.py review STATE [STATE ...]     # after the games: what each wrong four was
    python tools/play_blind.py records STATE [STATE ...]    # finished games as play records (JSON lines)

Every game that ends is also appended, as one play record (docs/ratings.md), to the records file
(``--records``, default records/blind-games.jsonl in the repository): the blind games the shipped
ratings are fitted from (``flagcore ratings fit --records records/blind-games.jsonl``).

``--png`` draws the remaining tiles (no groups outlined) at the picture's tile size.

The state file keeps the board as the player met it (``board``: its id, tiles, groups with their
category ids, labels, members and dealt colours, and the model's scores), so a game replays, and
its record and felt order name, that board even after the data changes and the seed deals
another; a state file without it (older games) deals its board again from the seed. After a game,

    python tools/play_blind.py felt STATE --player P LABEL LABEL LABEL LABEL   # easiest felt first

prints its felt-order line (records/felt/, tools/felt_order.py) with that board in it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from flagcore import connections
from flagcore.connections import ConnectionsGame
from flagcore.connections.board import Board, Group
from flagcore.library import load_library
from flagcore.ratings import load_ratings, record_of_game, write_records
from flagcore.ratings.shipped import SHIPPED
from flagcore.review.pictures import connections_png

TIER_NAMES = ("yellow", "green", "blue", "purple")
RECORDS = Path(__file__).resolve().parent.parent / "records" / "blind-games.jsonl"


def _record(state: dict[str, Any], board: Board, game: ConnectionsGame) -> Any:
    """The play record of a finished game (its board id names how it was dealt)."""
    difficulty = None if state.get("daily") else (state.get("difficulty") or "normal")
    return record_of_game(game, connections.board_id(board), state.get("daily"), difficulty)


def _ratings(choice: str | None) -> Any:
    """The ratings a game is dealt with: none, "shipped" (the package's, as the server deals) or a file."""
    if not choice:
        return None
    return load_ratings(SHIPPED if choice == "shipped" else choice)


def met(board: Board) -> dict[str, Any]:
    """The board as the player meets it, in JSON: what ``board_of`` rebuilds without the engine."""
    model = board.stats.get("model") or {}
    return {
        "id": connections.board_id(board),
        "seed": board.seed,
        "mode": board.mode,
        "tiles": list(board.tiles),
        "groups": [g.to_dict() for g in board.groups],  # yellow first: the colours it was dealt in
        "model": {k: model.get(k) for k in ("scores", "difficulty", "ratings")},
    }


def board_of(kept: dict[str, Any]) -> Board:
    """The Board ``met`` kept (its groups, colours and the model's scores as dealt)."""
    groups = tuple(Group(g["tier"], g["label"], tuple(g["codes"]), g["category_id"]) for g in kept["groups"])
    model = {k: v for k, v in kept["model"].items() if v is not None}
    board = Board(tuple(kept["tiles"]), groups, kept["seed"], kept["mode"], False, {"model": model})  # type: ignore[arg-type]
    if connections.board_id(board) != kept["id"]:
        raise ValueError(f"kept board {kept['id']!r}: its fields name another board")
    return board


def _board(state: dict[str, Any]) -> Board:
    if state.get("board"):  # the board the player met, whatever the engine deals today
        return board_of(state["board"])
    ratings = _ratings(state.get("ratings"))
    if state.get("daily"):
        return connections.daily(state["daily"], state["mode"], ratings=ratings)
    kwargs: dict[str, Any] = {"difficulty": state["difficulty"]} if state.get("difficulty") else {}
    if ratings is not None:
        kwargs["ratings"] = ratings
    return connections.generate(state["seed"], state["mode"], **kwargs)


def _replay(state: dict[str, Any]) -> tuple[Board, ConnectionsGame]:
    board = _board(state)
    game = ConnectionsGame(board)
    for g in state["guesses"]:
        game.guess(g["codes"])
    return board, game


def _names() -> dict[str, str]:
    lib = load_library()
    return {c: lib.name(c) for c in lib.codes}


def _show(board: Board, game: ConnectionsGame, png: str | None) -> None:
    names = _names()
    for g in game.solved_groups:
        print(f"solved: {g.label}: {', '.join(f'{c} {names.get(c, c)}' for c in g.codes)}")
    left = game.remaining_tiles
    print(f"mistakes left: {game.mistakes_left}")
    print("tiles: " + "; ".join(f"{c} {names.get(c, c)}" for c in left))
    if png:
        shown = Board(
            tiles=tuple(left) + tuple(c for g in game.solved_groups for c in g.codes),
            groups=board.groups,
            seed=board.seed,
            mode=board.mode,
            legacy=board.legacy,
            stats={},
            events=None,
        )
        connections_png(shown, png, names=names)
        print(f"picture: {png}")


def _end(board: Board, game: ConnectionsGame) -> None:
    print("WON" if game.won else "LOST", f"with {game.mistakes} mistakes")
    for g in board.groups:
        print(f"  {TIER_NAMES[g.tier]}: {g.label}: {', '.join(g.codes)}")


def _shape(four: Any, group_of: dict[str, int]) -> str:
    """How a set of tiles spreads over the board's groups, largest part first ("3+1")."""
    parts = sorted((sum(1 for c in four if group_of[c] == g) for g in range(4)), reverse=True)
    return "+".join(str(p) for p in parts if p)


def _review(paths: list[str]) -> int:
    """For the lead, after the games (it reveals the groups): each wrong four, its shape over the
    board's groups and the phantoms (docs/difficulty.md) that hold it; per board, the model's figures
    and whether the tiles split into four fours a second way (benchmarks/second_splits.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from second_splits import split_kind  # noqa: PLC0415 (a benchmark module, not the package)

    from flagcore.connections import board_difficulty  # noqa: PLC0415

    wrong_fours = in_exact = in_tempting = 0
    for path in paths:
        state = json.loads(Path(path).read_text())
        board, game = _replay(state)
        if not game.over:
            print(f"{path}: not finished", file=sys.stderr)
            continue
        model = board_difficulty(board)
        group_of = {c: g.tier for g in board.groups for c in g.codes}
        exists, keeps_none = split_kind(board)
        off_only, mixed = exists and keeps_none, exists and not keeps_none
        exact = sum(1 for p in model.phantoms if len(p.codes) == 4 and p.spread >= 2)
        print(
            f"{path}: {'won' if game.won else 'lost'}, {game.mistakes} mistakes; tempting phantoms "
            f"{len(model.tempting)}, exact fours over 2+ groups {exact}, second split "
            f"{'off-board only' if off_only else ('with real groups' if mixed else 'none')}"
        )
        for g in state["guesses"]:
            if g["result"] == "correct":
                continue
            four = set(g["codes"])
            holders = [p for p in model.phantoms if four <= set(p.codes)]
            wrong_fours += 1
            in_exact += any(len(p.codes) == 4 for p in holders)
            in_tempting += any(p.tempting for p in holders)
            held = "; ".join(
                f"{p.label} ({len(p.codes)} on board, strength {p.strength}{', tempting' if p.tempting else ''})"
                for p in sorted(holders, key=lambda p: len(p.codes))[:3]
            )
            print(f"  {g['result']}: {' '.join(g['codes'])} ({_shape(four, group_of)}): {held or 'no category'}")
    print(
        f"{wrong_fours} wrong fours: {in_exact} exactly a phantom of four tiles, "
        f"{in_tempting} inside a tempting phantom"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    new = sub.add_parser("new")
    new.add_argument("state")
    new.add_argument("--seed")
    new.add_argument("--daily")
    new.add_argument("--mode", default="flags")
    new.add_argument("--difficulty")
    new.add_argument("--png")
    new.add_argument("--ratings", help='deal with these ratings: "shipped" (as the server deals) or a file')
    show = sub.add_parser("show")
    show.add_argument("state")
    show.add_argument("--png")
    guess = sub.add_parser("guess")
    guess.add_argument("state")
    guess.add_argument("codes", nargs=4)
    tally = sub.add_parser("tally")
    tally.add_argument("states", nargs="+")
    review = sub.add_parser("review")
    review.add_argument("states", nargs="+")
    records = sub.add_parser("records")
    records.add_argument("states", nargs="+")
    guess.add_argument("--records", default=str(RECORDS), help="append the finished game here (JSON lines)")
    felt = sub.add_parser("felt")
    felt.add_argument("state")
    felt.add_argument("--player", required=True)
    felt.add_argument("labels", nargs=4, help="the four groups' labels, easiest felt first")
    a = ap.parse_args(argv)

    if a.cmd == "new":
        if bool(a.seed) == bool(a.daily):
            ap.error("give exactly one of --seed and --daily")
        state = {
            "seed": a.seed,
            "daily": a.daily,
            "mode": a.mode,
            "difficulty": a.difficulty,
            "ratings": a.ratings,
            "guesses": [],
        }
        board, game = _replay(state)
        state["board"] = met(board)
        Path(a.state).write_text(json.dumps(state, indent=1))
        _show(board, game, a.png)
        return 0
    if a.cmd == "felt":
        state = json.loads(Path(a.state).read_text())
        board, game = _replay(state)
        labels = [g.label for g in board.groups]
        if not game.over or sorted(a.labels) != sorted(labels):
            ap.error(f"felt: a finished game and its four labels, easiest first: {labels}")
        where = {"daily": state["daily"]} if state.get("daily") else {"seed": state["seed"]}
        line = {"player": a.player, **where, "mode": state["mode"], "difficulty": state.get("difficulty")}
        if state.get("ratings"):
            line["ratings"] = state["ratings"]
        line.update(felt=a.labels, board=met(board))
        print(json.dumps(line))
        return 0
    if a.cmd in ("show", "guess"):
        state = json.loads(Path(a.state).read_text())
        board, game = _replay(state)
        if game.over:  # a finished game shows its end; a guess after it is refused
            _end(board, game)
            return 0 if a.cmd == "show" else 1
    if a.cmd == "show":
        _show(board, game, a.png)
        return 0
    if a.cmd == "guess":
        codes = [c.upper() for c in a.codes]
        try:
            out = game.guess(codes)
        except (TypeError, ValueError) as exc:
            print(f"refused: {exc}")
            return 2
        tier = TIER_NAMES[out.matched.tier] if out.matched else None
        state["guesses"].append({"codes": codes, "result": out.result, "tier": tier, "at": time.time()})
        Path(a.state).write_text(json.dumps(state, indent=1))
        print(out.result.upper() + (f": {out.matched.label} ({tier})" if out.matched else ""))
        if game.over:
            _end(board, game)
            path = Path(a.records)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8") as f:
                write_records([_record(state, board, game)], f)
            print(f"record: {path}")
        else:
            _show(board, game, None)
        return 0
    if a.cmd == "review":
        return _review(a.states)
    if a.cmd == "records":  # the state files of games played before records were written
        for path in a.states:
            state = json.loads(Path(path).read_text())
            board, game = _replay(state)
            if game.over:
                write_records([_record(state, board, game)], sys.stdout)
            else:
                print(f"{path}: not finished", file=sys.stderr)
        return 0
    # tally
    played = wins = mistakes = 0
    order_rows = []
    for path in a.states:
        state = json.loads(Path(path).read_text())
        board, game = _replay(state)
        if not game.over:
            print(f"{path}: not finished", file=sys.stderr)
            continue
        played += 1
        wins += game.won
        mistakes += game.mistakes
        order = [g["tier"] for g in state["guesses"] if g["result"] == "correct"]
        order_rows.append(order)
        print(f"{path}: {'won' if game.won else 'lost'}, {game.mistakes} mistakes, solved {' > '.join(order)}")
    if played:
        first_yellow = sum(1 for o in order_rows if o[:1] == ["yellow"])
        last_purple = sum(1 for o in order_rows if len(o) == 4 and o[-1] == "purple")
        in_order = sum(1 for o in order_rows if o == list(TIER_NAMES))
        print(
            f"{played} games: {wins} won ({wins / played:.0%}), {mistakes} mistakes "
            f"({mistakes / played:.2f} per game); yellow first {first_yellow}, purple last {last_purple}, "
            f"colour order exactly as solved {in_order}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
