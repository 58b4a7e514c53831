"""The boards a server deals, as players have seen them: a day's board is published to the store
the first time it is served and read from there after, so an upgrade of flagcore or of the
library never changes a board players have seen (the first writer wins)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from ..connections import Board, Group
from ..store import Store
from .boards import Dealt, KeyedBoards


class PublishedBoards:
    """``boards``' boards (KeyedBoards), the published version first when ``store`` has one.

    ``prepare(board, board_id)`` makes a published board's ``Dealt.extra`` as KeyedBoards does."""

    def __init__(self, boards: KeyedBoards, store: Store | None, prepare: Callable[[Board, str], Any]) -> None:
        self.keyed = boards
        self._store = store
        self._prepare = prepare
        # boards read from the store's published boards, by (game number, mode, secret): never change
        self._published: dict[tuple[int, str, int], Dealt] = {}

    def known(self, number: int, mode: str, key: int) -> Dealt | None:
        """The board of (number, mode, secret) when it needs no store call (read from the store
        already, or never a day's board), else None (then ``adealt``): a guess's board, without
        the cost of a coroutine."""
        known = self._published.get((number, mode, key))
        if known is not None:
            return known
        if self._store is None or self.keyed.scheduled_day(number) is None:
            return self.keyed.dealt(number, mode, key)  # a board of a seed or an id: never published
        return None

    async def adealt(self, number: int, mode: str, key: int, publish: bool = False) -> Dealt:
        """The board of (number, mode, secret): its published version when the store has one
        (``publish``: publishing this one if there is none yet, the first writer winning)."""
        if not publish:
            known = self.known(number, mode, key)
            if known is not None:
                return known
        dealt = self.keyed.dealt(number, mode, key)
        if self._store is None:
            return dealt
        known = self._published.get((number, mode, key))
        if known is not None:
            return known
        mine = orjson.dumps(_board_json(dealt.board))
        store = self._store
        data = await (store.apublish_board(dealt.board_id, mine) if publish else store.apublished_board(dealt.board_id))
        if data is None:
            return dealt  # not published: a board of a seed or an id, never served as a daily
        if data != mine:  # published by another version of flagcore or of the library: that one stays
            board = _board_from_json(orjson.loads(data), dealt.board_id)
            dealt = Dealt(board, dealt.board_id, self._prepare(board, dealt.board_id))
        self._published[(number, mode, key)] = dealt
        return dealt


def _board_json(board: Board) -> dict[str, Any]:
    """What a published board keeps: its mode, tiles and groups (all a game needs)."""
    return {"mode": board.mode, "tiles": list(board.tiles), "groups": [g.to_dict() for g in board.groups]}


def _board_from_json(data: dict[str, Any], board_id: str) -> Board:
    groups = tuple(Group(g["tier"], g["label"], tuple(g["codes"]), g["category_id"]) for g in data["groups"])
    return Board(tuple(data["tiles"]), groups, board_id, data["mode"])  # type: ignore[arg-type]
