"""Connections game tokens: which board a game is on and the guesses graded so far, signed.

A new game's token is its board id, spelt exactly as the server wrote it; after a guess, a signed
token (flagcore.web.tokens) holds the board's game number, mode and guesses, the digest of the
ratings that dealt the board and, with a store, the player and the game's version (what the next
guess's compare-and-set expects). A board of an old secret (rotation) is named by that secret's
id, since the current secret signs the token.

The ratings' digest, as the board id's MAC is keyed with it (flagcore.web.boards): after a refit a
seed's number deals another board, so a token of the board before it is refused (410
``ratings_changed``), never graded on the new board; a daily of a day the refit leaves alone keeps
its digest, and its tokens grade as before. A token without one (signed before tokens named their
ratings) is read as it was.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import ApiError, TokenError
from .boards import ID_LENGTH, KeyedBoards
from .tokens import Signer

RATINGS_CHANGED = (
    "this game's board was dealt with ratings this server no longer deals it with (the ratings were "
    "refitted since): start a new game"
)


class Game(NamedTuple):
    """Which board a game is on: its public game number, mode and the secret it is keyed under
    (0: the current one)."""

    number: int
    mode: str
    key: int


class TokenState(NamedTuple):
    """What a guess's token says: the game, its guesses so far and, bound to a store, its player
    and version (None and 0 for a new game or a stateless one)."""

    game: Game
    guesses: list[list[str]]
    player: str | None = None
    version: int = 0


class GameTokens:
    """Signs and reads the tokens of Connections games under ``signer``, valid for ``ttl`` seconds."""

    def __init__(self, signer: Signer, boards: KeyedBoards, ttl: int) -> None:
        self._signer, self._boards, self.ttl = signer, boards, ttl

    def sign(self, game: Game, guesses: list[list[str]], player: str | None = None, version: int = 0) -> str:
        """The token of ``game`` after ``guesses``; with ``player``, bound to its stored version."""
        payload: dict[str, Any] = {"n": game.number, "m": game.mode, "r": self._boards.ratings_digest(game.number)}
        if player is not None:
            payload.update(u=player, v=version)
        payload["g"] = guesses
        if game.key:
            payload["bk"] = self._signer.kid(game.key)
        return self._signer.sign("connections", payload, self.ttl)

    def read(self, token: str, bound: bool) -> TokenState:
        """The state in a guess's token (``bound``: the server keeps games, so a signed token must
        name its player); TokenError (or a subclass) when it is not one of this server's, and
        ApiError 410 ``ratings_changed`` when its board was dealt with ratings the server no longer
        deals it with."""
        if len(token) == ID_LENGTH:  # a new game: its token is the board id
            return TokenState(Game(*self._boards.parse_token_id(token)), [])
        # the token names the board by game number, mode and ratings (signed, so no id tag to check)
        state = self._signer.check("connections", token)
        game = Game(state["n"], state["m"], self._board_key(state))
        if "r" in state and state["r"] != self._boards.ratings_digest(game.number):
            raise ApiError(410, "ratings_changed", RATINGS_CHANGED)
        if not bound:
            return TokenState(game, state["g"])
        if "u" not in state:
            raise TokenError("token is of a stateless game; this server keeps games: reload the board")
        return TokenState(game, state["g"], state["u"], state["v"])

    def _board_key(self, state: dict[str, Any]) -> int:
        """The secret a token's board is keyed under: the one named by "bk", else the token's own."""
        if "bk" not in state:
            return int(state["key"])
        key = self._signer.key_of(state["bk"])
        if key is None:
            raise TokenError("token's board was made under a secret this server no longer has; start a new game")
        return key
