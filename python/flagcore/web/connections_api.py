"""The Connections API: keyed boards, graded guesses and the search simulator.

Stateless (no store), a game travels as a signed token holding the board's game number and mode
and the guesses graded so far; each guess replays them through ``ConnectionsGame`` (at most seven,
microseconds) and returns a new token. Bound (a store), each player (flagcore.web.players) has one
game per board, kept in the store: the token names the player, the board and the game's version,
and a guess is recorded only if the stored game is still at that version (compare-and-set), so a
replayed or older token gets 409 ``stale_token``, reopening the board returns the game where it is,
and a finished game stays finished. A new game's token is its board id, spelt exactly as the
server wrote it.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import secrets
from collections.abc import Coroutine
from typing import Any

import orjson

from .._args.web import as_board_query, as_guess_codes, as_trace_query, field
from ..connections import MAX_MISTAKES, Board, ConnectionsGame, Group
from ..days import latest_day_text
from ..errors import ApiError
from ..library import MODES, Library
from ..store import Store
from . import stats
from .boards import Dealt, KeyedBoards, daily_number, daily_numbers, game_number
from .flag_names import FlagNames
from .game_tokens import Game, GameTokens
from .jsonapi import Reply
from .ops import METRICS
from .players import new_player
from .plays import Plays, aggregate
from .published import PublishedBoards
from .tokens import Signer
from .trace import simulate

NEW_PLAYER_TTL = 3600  # seconds a game of a player without a cookie is kept (create_app's new_player_ttl)
STALE = (
    "this guess token was already used, or the game has moved on since it was issued "
    "(another tab or device): reload the board to continue the game where it is"
)
Groups = tuple[dict[str, Any], ...]
# a new board's reply after its "daily" value: its tiles and its token (the board id)
_TAIL = b',"tiles":[%%s],"mistakes":0,"mistakes_left":%d,"solved":[],"over":false,"token":"%%s"}' % MAX_MISTAKES


class Prepared:
    """What the API keeps with each dealt board (``Dealt.extra``): the board reply in two encoded
    halves around its "daily" value and, from the first guess on, a new game to copy and the
    groups as JSON objects (most boards of random seeds are never guessed: these wait)."""

    __slots__ = ("_head", "_tail", "_grading")

    def __init__(self, head: bytes, tail: bytes) -> None:
        self._head, self._tail = head, tail
        self._grading: tuple[ConnectionsGame, Groups] | None = None

    def reply(self, daily: str | None) -> Reply:
        """The reply to a request for this board as a new game (``daily``: the day it was asked as)."""
        return Reply(self._head + (b"null" if daily is None else orjson.dumps(daily)) + self._tail)

    def play(self, board: Board, guesses: list[list[str]]) -> tuple[ConnectionsGame, Groups]:
        """A game on ``board`` after ``guesses`` (each a legal guess), and its groups by tier as JSON."""
        if self._grading is None:  # two threads may both build it: the same value, either is kept
            self._grading = (ConnectionsGame(board), tuple(_group(g) for g in board.groups))
        new_game, groups = self._grading
        game = new_game.copy()
        for earlier in guesses:
            game.guess(earlier)
        return game, groups


class ConnectionsApi:
    """``GET /api/connections/board``, ``POST /api/connections/guess`` and ``GET
    /api/connections/trace`` under one server secret (``signer``). ``private_library``: boards are
    dealt from ``library``, not the bundled one."""

    def __init__(
        self,
        signer: Signer,
        names: FlagNames,
        library: Library,
        token_ttl: int,
        store: Store | None,
        private_library: bool = False,
        ratings: Any = None,
        season_key: bytes | None = None,
        new_player_ttl: int = NEW_PLAYER_TTL,
    ) -> None:
        self.names, self.library, self.token_ttl, self.store = names, library, token_ttl, store
        # with a store, each finished game's play record and the day's aggregate (flagcore.web.plays)
        self.plays = Plays(store, signer) if store is not None else None
        # a game of a player made by this very request (no cookie yet) is kept this long: a script
        # without cookies cannot grow the store for longer; the player's next guess keeps it token_ttl
        self.new_player_ttl = min(new_player_ttl, token_ttl)
        # boards dealt from ``library`` when it is private, else the bundled one (generate's fast path);
        # the dailies from the schedule keyed by ``season_key`` (docs/server.md: secret dailies)
        keyed = KeyedBoards(
            signer, self.prepare, library=library if private_library else None, ratings=ratings, season_key=season_key
        )
        self.boards = PublishedBoards(keyed, store, self.prepare)
        self.tokens = GameTokens(signer, keyed, token_ttl)
        self._dealt = keyed.dealt  # the stateless requests' boards: nothing is published without a store

    def warm(self) -> None:
        """Deal ahead what a worker's first board would pay (seconds on a busy machine): per mode
        the library's search and difficulty tables (a board of the first game number that is no
        day's) and today's daily (its schedule and the plans of its days), in UTC and in the
        earliest time zone. The app's start-up calls it (flagcore.web.ops), before any request."""
        keyed = self.boards.keyed
        plain = next(n for n in range(len(daily_numbers()) + 1) if n not in daily_numbers())
        days = {latest_day_text(), _dt.datetime.now(_dt.timezone.utc).date().isoformat()}
        for mode in MODES:
            keyed.dealt(plain, mode, 0)
            for day in sorted(days):
                keyed.dealt(daily_number(day), mode, 0)

    def board(
        self, query: dict[str, str], player: str | None = None
    ) -> Reply | Coroutine[Any, Any, Reply | dict[str, Any]]:
        """A keyed board by seed, daily date or id (tiles only); with a store, the player's game on
        it where it is (a coroutine: the store is asked without blocking the event loop)."""
        asked = as_board_query(query, latest_day_text())
        if asked.board_id is not None:
            number, mode, key = self.boards.keyed.parse_id(asked.board_id)
        else:
            assert asked.mode is not None  # as_board_query: a mode unless an id names it
            mode, key = asked.mode, 0
            if asked.daily is not None:
                number = daily_number(asked.daily)
            elif asked.seed is not None:
                number = game_number(asked.seed)
            else:
                number = secrets.randbelow(1 << 32)
                while number in daily_numbers():  # a random board is never a day's (1 draw in 100,000)
                    number = secrets.randbelow(1 << 32)
        if self.store is None:  # nothing is published: the board from the cache, or dealt now
            dealt: Prepared = self._dealt(number, mode, key).extra
            return dealt.reply(asked.daily)
        game = Game(number, mode, key)
        # a player this request made (no cookie yet) has no game: no store call, and no coroutine
        # when the board needs none either (a seed's or an id's, or a day's read from the store already)
        known = self.boards.known(*game) if player is None or new_player.get() else None
        if known is None:
            return self._stored_board(game, asked.daily, player)
        prepared: Prepared = known.extra
        return prepared.reply(asked.daily)

    async def _stored_board(self, game: Game, daily: str | None, player: str | None) -> Reply | dict[str, Any]:
        """``board`` with a store: the published board, and the player's game on it where it is."""
        assert self.store is not None  # only called with a store (board)
        dealt = await self.boards.adealt(*game, publish=daily is not None)
        if player is not None and not new_player.get():
            record = await self.store.aload_game(player, dealt.board_id)
            if record is not None:  # the game in progress (or finished), exactly where it is
                guesses = orjson.loads(record.data)
                reply = self._game_state(dealt, game, guesses, player, record.version, daily)
                if reply["over"] and self.plays is not None:  # the board's aggregate, once the player has finished
                    day = self.boards.keyed.scheduled_day(game.number)
                    reply["today"] = await self.plays.today(dealt.board_id, day)
                return reply
        prepared: Prepared = dealt.extra
        return prepared.reply(daily)

    def _game_state(
        self, dealt: Dealt, game: Game, guesses: list[list[str]], player: str, version: int, daily: str | None
    ) -> dict[str, Any]:
        """A stored game as the board request returns it: the tiles left, the groups solved, the
        mistakes, and a token for its next guess (a finished game's ``today`` is the caller's to add)."""
        played, groups = dealt.extra.play(dealt.board, guesses)
        reply: dict[str, Any] = {
            "board_id": dealt.board_id,
            "mode": game.mode,
            "daily": daily,
            "tiles": [orjson.Fragment(self.names.tile_json[c]) for c in played.remaining_tiles],
            "mistakes": played.mistakes,
            "mistakes_left": played.mistakes_left,
            "solved": [groups[g.tier] for g in played.solved_groups],
            "over": played.over,
            "token": self.tokens.sign(game, guesses, player, version),
        }
        if played.over:
            reply.update(
                won=played.won, lost=played.lost, groups=list(groups), share=_share_text(played, dealt.board_id)
            )
        return reply

    def prepare(self, board: Board, board_id: str) -> Prepared:
        """A dealt board's reply, encoded once in two halves around its "daily" value."""
        quoted_id = board_id.encode("ascii")  # 13 letters and digits: nothing to escape
        return Prepared(
            b'{"board_id":"%s","mode":"%s","daily":' % (quoted_id, board.mode.encode("ascii")),
            _TAIL % (b",".join(map(self.names.tile_json.__getitem__, board.tiles)), quoted_id),
        )

    def guess(
        self, body: dict[str, Any], player: str | None = None
    ) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
        """Grade four codes against the game in the token (with a store: the player's stored game,
        at the token's version; the reply then waits for the store's write, see ``_bound_guess``)."""
        token = field(body, "token", str)
        codes = as_guess_codes(field(body, "codes", list))
        game, past, named, version = self.tokens.read(token, bound=self.store is not None)
        player = named or player  # a signed token names its player; a new game's is the request's
        if self.store is not None and player is not None:
            return self._bound_guess(codes, game, player, version, past)
        reply, guesses, _ = self._grade(self._dealt(*game), codes, past)
        reply["token"] = self.tokens.sign(game, guesses)
        return reply

    def _grade(
        self, dealt: Dealt, codes: list[str], past: list[list[str]]
    ) -> tuple[dict[str, Any], list[list[str]], ConnectionsGame]:
        """The reply to a guess of ``codes`` after ``past`` (its token still to set), the guesses and the game."""
        played, groups = dealt.extra.play(dealt.board, past)  # signed by this server: every one was legal
        if played.over:
            raise ApiError(409, "game_over", "the game is over; start a new one")
        outcome = played.guess(codes)  # codes not on the board or already solved: bad_guess (routes.py)
        reply: dict[str, Any] = {
            "result": outcome.result,
            "group": groups[outcome.matched.tier] if outcome.matched else None,
            "solved": [groups[g.tier] for g in played.solved_groups],
            "mistakes": outcome.mistakes,
            "mistakes_left": outcome.mistakes_left,
            "won": outcome.won,
            "lost": outcome.lost,
            "over": outcome.over,
            "token": None,
        }
        if outcome.over:  # the answers are earned once the game ends, won or lost
            reply["groups"] = list(groups)
            reply["share"] = _share_text(played, dealt.board_id)
            METRICS.count("games_finished", "connections")
            if outcome.won:
                METRICS.count("games_won", "connections")
        if not past:
            METRICS.count("games_started", "connections")
        return reply, [list(g) for g in played.guesses], played

    async def _bound_guess(
        self, codes: list[str], game: Game, player: str, version: int, past: list[list[str]]
    ) -> dict[str, Any]:
        """Grade a guess on the player's stored game and record it, then answer. Written only if the
        stored game is exactly the token's (its version and guesses, so no read first): a replayed
        or older token, or a guess recorded meanwhile, finds another game and gets 409. The save
        that ends a daily carries the player's result (the stats), and the save that ends any game
        its play record (flagcore.web.plays), one atomic step with it, so a store failing between
        them cannot lose one or count it twice; a client told 503 may send the guess again. The
        write goes with the other requests' of this turn of the event loop (the store's
        ``asave_game``): the loop never waits for the store."""
        assert self.store is not None  # only called with a store (guess)
        dealt = self.boards.known(*game) or await self.boards.adealt(*game)
        reply, guesses, played = self._grade(dealt, codes, past)
        previous = orjson.dumps(past) if version else None
        result = None
        day = self.boards.keyed.scheduled_day(game.number) if reply["over"] else None
        if day is not None and stats.counts(day):  # a daily's end: the player's stats (once per day)
            key = stats.result_key(stats.connections_game(game.mode), day)
            result = (key, stats.result_data(reply["won"], reply["mistakes"]))
        play = None
        if reply["over"] and self.plays is not None:  # the play record, saved with the finishing guess
            model = dealt.board.stats.get("model") or {}
            play = self.plays.play(played, dealt.board_id, player, day, model.get("difficulty"))
        ttl = self.new_player_ttl if new_player.get() else self.token_ttl
        data = orjson.dumps(guesses)
        save = self.store.asave_game(player, dealt.board_id, version, data, ttl, previous, result, play)
        if play is None or self.plays is None:
            stored = await save
        else:
            # one batch: the board's counters read first (so without this game, even when Redis must
            # be sent the script again after the batch), then the save with its record
            counts, stored = await asyncio.gather(self.plays.counts(play[2]), save)
        if not stored:
            raise ApiError(409, "stale_token", STALE)
        reply["token"] = self.tokens.sign(game, guesses, player, version + 1)
        if play is not None and self.plays is not None:
            seen = self.plays.with_own(counts, play)
            reply["today"] = None if seen is None else aggregate(seen)
        return reply

    def trace(self, query: dict[str, str]) -> dict[str, Any]:
        """The search simulator's steps for an engine seed (the search alone unless asked for a
        difficulty, docs/difficulty.md)."""
        asked = as_trace_query(query)
        return simulate(asked.seed, asked.mode, asked.legacy, self.library, asked.difficulty)


def _group(g: Group) -> dict[str, Any]:
    return {"tier": g.tier, "tier_name": g.tier_name, "label": g.label, "codes": list(g.codes)}


def _share_text(game: ConnectionsGame, board_id: str) -> str:
    lines = game.share().split("\n")
    lines[0] = f"flagcore Connections {board_id}"  # the engine's title names the engine seed's id
    return "\n".join(lines)
