"""A player's stats on the server: what counts as a daily's result, how it is kept, and the figures.

With a store, the server records the first finish of each daily a player plays, once (the store's
``record_player_result``: write-once per player and key), and ``GET /api/stats`` computes the
player's figures from them. The rules are the browser's own (``Stats`` in static/common.js), so a
player sees the same figures from either:

- a daily counts while its day is still on somewhere on Earth (until it ends in UTC-12); a day
  played later from the archive is practice, and so is any board that is not a daily;
- a game is one of ``GAMES``: Connections per mode (flags, trivia) and Puzzle;
- the score of a result is its mistakes (Connections) or its swaps over par (Puzzle);
- the current streak counts the days won back from today (UTC, as the browser's days), or from
  yesterday while today's daily is not finished (a loss today ends it); the best streak is the
  longest run of days won.

Unlike the browser, the server counts a daily once it is finished (a game in progress is not
played yet), and a player is the one of the signed cookie (or the embedding server's), so the
figures follow the player to any browser that carries the cookie.
"""

from __future__ import annotations

import datetime
from typing import Any

import orjson

GAMES = ("connections", "connections-trivia", "puzzle")
EARLIEST_ZONE = datetime.timezone(datetime.timedelta(hours=-12))  # where a day ends last


def connections_game(mode: str) -> str:
    """The stats game of a Connections mode (the browser's names: "connections", "connections-trivia")."""
    return "connections" if mode == "flags" else f"connections-{mode}"


def counts(day: str, now: datetime.datetime | None = None) -> bool:
    """Whether a daily of ``day`` (YYYY-MM-DD) finished now counts: its day has not ended everywhere."""
    return (now or datetime.datetime.now(datetime.timezone.utc)).astimezone(EARLIEST_ZONE).date().isoformat() <= day


def result_key(game: str, day: str) -> str:
    """The key of a daily's result among a player's results."""
    return f"{game}|{day}"


def result_data(won: bool, score: int) -> bytes:
    """A daily's result as the store keeps it."""
    return orjson.dumps({"won": won, "score": score})


def summary(results: dict[str, bytes], today: datetime.date | None = None) -> dict[str, dict[str, Any]]:
    """Each game's figures from a player's results (``Store.player_results``): played, wins, win
    rate (a whole percent), current and best streak, wins by score (``scores[k]``: wins with
    score k), today's result or None, and every day's result (for the archive's marks)."""
    today = today or datetime.datetime.now(datetime.timezone.utc).date()
    days: dict[str, dict[str, dict[str, Any]]] = {game: {} for game in GAMES}
    for key, data in results.items():
        game, _, day = key.partition("|")
        if game in days:  # a key of another kind of result is not a daily's
            days[game][day] = orjson.loads(data)
    return {game: _figures(by_day, today) for game, by_day in days.items()}


def _figures(by_day: dict[str, dict[str, Any]], today: datetime.date) -> dict[str, Any]:
    won = {datetime.date.fromisoformat(day).toordinal() for day, r in by_day.items() if r["won"]}
    best = run = 0
    for day in sorted(won):
        run = run + 1 if day - 1 in won else 1
        best = max(best, run)
    current = 0
    day = today.toordinal() if today.isoformat() in by_day else today.toordinal() - 1  # a loss today ends it
    while day in won:
        current += 1
        day -= 1
    scores = [0] * (1 + max((r["score"] for r in by_day.values() if r["won"]), default=-1))
    for r in by_day.values():
        if r["won"]:
            scores[r["score"]] += 1
    played = len(by_day)
    return {
        "played": played,
        "wins": len(won),
        "win_rate": round(100 * len(won) / played) if played else 0,
        "current_streak": current,
        "best_streak": best,
        "scores": scores,
        "today": by_day.get(today.isoformat()),
        "days": dict(sorted(by_day.items())),
    }
