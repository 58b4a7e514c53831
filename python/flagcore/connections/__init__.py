"""The Connections engine: board generation, grading and the game.

Modules by idea: board (Board, Group, board_id), ids (the id codec, the daily seed), tables (a
Library's compiled tables and their caches), assembly (a raw search result as a Board), search
(generate), batch (generate_many, BoardBatch), ambiguity (find_ambiguities, find_second_split), grading
(check_guess), game (ConnectionsGame), daily (the scheduled daily board), difficulty
(board_difficulty: the difficulty model of a board).

Public names: generate, generate_many, daily, check_guess, ConnectionsGame, find_ambiguities, find_second_split,
board_difficulty, Board, Group.
"""

from __future__ import annotations

from .._connections_layout import TIER_NAMES
from ..errors import NoBoardError
from .ambiguity import Ambiguity, Four, find_ambiguities, find_second_split
from .batch import BoardBatch, generate_many
from .board import Board, Group, board_id
from .daily import daily
from .difficulty import BoardDifficulty, GroupDifficulty, Phantom, board_difficulty
from .game import MAX_MISTAKES, ConnectionsGame, GuessOutcome
from .grading import GuessResult, check_guess
from .ids import daily_seed, encode_board_id, parse_board_id
from .search import from_board_id, generate

__all__ = ["TIER_NAMES", "Board", "Group"]
__all__ += [
    "MAX_MISTAKES",
    "ConnectionsGame",
    "GuessOutcome",
    "GuessResult",
    "check_guess",
    "board_id",
    "daily_seed",
    "encode_board_id",
    "from_board_id",
    "parse_board_id",
]
__all__ += ["BoardDifficulty", "GroupDifficulty", "Phantom", "board_difficulty"]
__all__ += ["daily", "generate", "generate_many", "BoardBatch", "find_ambiguities", "NoBoardError", "Ambiguity"]
__all__ += ["Four", "find_second_split"]
