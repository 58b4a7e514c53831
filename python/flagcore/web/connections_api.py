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

import secrets
from collections.abc import Coroutine
from typing import Any

import orjson

from .._args.web import as_board_query, as_guess_codes, as_trace_query, field
from ..connections import MAX_MISTAKES, Board, ConnectionsGame, Group
from ..days import latest_day_text
from ..errors import ApiError
from ..library import Library
from ..store import Store
from . import stats
from .boards import Dealt, KeyedBoards, daily_number, game_number
from .flag_names import FlagNames
from .game_tokens import Game, GameTokens
from .jsonapi import Reply
from .plays import Plays
from .published import PublishedBoards
from .tokens import Signer
from .trace import simulate

STALE = (
    "this guess token was already used, or the game has moved on since it was issued "
    "(another tab or device): reload the board to continue the game where it is"
)
Groups = tuple[dict[str, Any], ...]


class Prepared:
    """What the API keeps with each dealt board (``Dealt.extra``): the board reply in two encoded
    halves around its "daily" value and, from the first guess on, a new game to copy and the
    groups as JSON objects (most boards of random seeds are never guessed: these wait)."""

    def __init__(self, head: bytes, tail: bytes) -> None:
        self.head, self.tail = head, tail
        self._grading: tuple[ConnectionsGame, Groups] | None = None

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
    ) -> None:
        self.names, self.library, self.token_ttl, self.store = names, library, token_ttl, store
        # with a store, each finished game's play record and the day's aggregate (flagcore.web.plays)
        self.plays = Plays(store, signer) if store is not None else None
        # boards dealt from ``library`` when it is private, else the bundled one (generate's fast path)
        keyed = KeyedBoards(signer, self.prepare, library=library if private_library else None, ratings=ratings)
        self.boards = PublishedBoards(keyed, store, self.prepare)
        self.tokens = GameTokens(signer, keyed, token_ttl)

    def board(self, query: dict[str, str], player: str | None = None) -> Reply | dict[str, Any]:
        """A keyed board by seed, daily date or id (tiles only); with a store, the player's game on
        it where it is."""
        asked = as_board_query(query, latest_day_text())
        if asked.board_id is not None:
            game = Game(*self.boards.keyed.parse_id(asked.board_id))
        else:
            assert asked.mode is not None  # as_board_query: a mode unless an id names it
            if asked.daily is not None:
                number = daily_number(asked.daily)
            else:
                number = game_number(asked.seed) if asked.seed is not None else secrets.randbelow(1 << 32)
            game = Game(number, asked.mode, 0)
        dealt = self.boards.dealt(*game, publish=asked.daily is not None)
        if self.store is not None and player is not None:
            record = self.store.load_game(player, dealt.board_id)
            if record is not None:  # the game in progress (or finished), exactly where it is
                guesses = orjson.loads(record.data)
                return self._game_state(dealt, game, guesses, player, record.version, asked.daily)
        prepared: Prepared = dealt.extra
        return Reply(prepared.head + orjson.dumps(asked.daily) + prepared.tail)

    def _game_state(
        self, dealt: Dealt, game: Game, guesses: list[list[str]], player: str, version: int, daily: str | None
    ) -> dict[str, Any]:
        """A stored game as the board request returns it: the tiles left, the groups solved, the
        mistakes, and a token for its next guess."""
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
            if self.plays is not None:  # the board's aggregate, once the player has finished
                reply["today"] = self.plays.today(dealt.board_id, self.boards.keyed.scheduled_day(game.number))
        return reply

    def prepare(self, board: Board, board_id: str) -> Prepared:
        """A dealt board's reply, encoded once in two halves around its "daily" value."""
        tiles = b",".join([self.names.tile_json[c] for c in board.tiles])
        quoted_id = b'"' + board_id.encode("ascii") + b'"'  # 13 letters and digits: nothing to escape
        return Prepared(
            b'{"board_id":' + quoted_id + b',"mode":"' + board.mode.encode("ascii") + b'","daily":',
            b',"tiles":['
            + tiles
            + b'],"mistakes":0,"mistakes_left":%d,"solved":[],"over":false,"token":' % MAX_MISTAKES
            + quoted_id
            + b"}",
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
        dealt = self.boards.dealt(*game)
        played, groups = dealt.extra.play(dealt.board, past)  # signed by this server: every one was legal
        if played.over:
            raise ApiError(409, "game_over", "the game is over; start a new one")
        outcome = played.guess(codes)  # codes not on the board or already solved: bad_guess (routes.py)
        guesses = [list(g) for g in played.guesses]
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
        if self.store is not None and player is not None:
            return self._bound_guess(reply, dealt, game, player, version, past, guesses, played)
        reply["token"] = self.tokens.sign(game, guesses)
        return reply

    async def _bound_guess(
        self,
        reply: dict[str, Any],
        dealt: Dealt,
        game: Game,
        player: str,
        version: int,
        past: list[list[str]],
        guesses: list[list[str]],
        played: ConnectionsGame | None = None,
    ) -> dict[str, Any]:
        """Record a graded guess in the player's stored game, then answer it. Written only if the
        stored game is exactly the token's (its version and guesses, so no read first): a replayed
        or older token, or a guess recorded meanwhile, finds another game and gets 409. The write
        waits for the end of the event loop's turn and goes with the other requests' (the store's
        ``save_game_batched``): the loop stops for the store once per turn, not once per guess."""
        assert self.store is not None  # only called with a store (guess)
        previous = orjson.dumps(past) if version else None
        data = orjson.dumps(guesses)
        day = self.boards.keyed.scheduled_day(game.number) if reply["over"] else None
        # a finishing guess reads the board's counters in the same batch as its save (flagcore.web.plays)
        counts = self.plays.counts(dealt.board_id, day) if reply["over"] and self.plays is not None else None
        if not await self.store.save_game_batched(player, dealt.board_id, version, data, self.token_ttl, previous):
            if counts is not None:
                counts.cancel()
            raise ApiError(409, "stale_token", STALE)
        reply["token"] = self.tokens.sign(game, guesses, player, version + 1)
        if day is not None and stats.counts(day):  # a daily's end: the player's stats (once per day)
            entry = stats.result_data(reply["won"], reply["mistakes"])
            self.store.record_player_result(player, stats.result_key(stats.connections_game(game.mode), day), entry)
        if counts is not None and self.plays is not None and played is not None:
            # the play record (once per player and board, written after the reply) and the day's aggregate
            model = dealt.board.stats.get("model") or {}
            reply["today"] = await self.plays.finished(
                counts, played, dealt.board_id, player, day, model.get("difficulty")
            )
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
