"""The Connections engine: board generation, grading and the game.

Public names: generate, generate_many, check_guess, ConnectionsGame, find_ambiguities,
Board, Group.
"""

from __future__ import annotations

from ..errors import NoBoardError
from .board import TIER_NAMES, Board, Group
from .daily import daily
from .game import MAX_MISTAKES, ConnectionsGame, GuessOutcome
from .generator import Ambiguity, BoardBatch, find_ambiguities, generate, generate_many
from .grading import GuessResult, check_guess
from .ids import board_id, daily_seed, encode_board_id, from_board_id, parse_board_id

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
__all__ += ["daily", "generate", "generate_many", "BoardBatch", "find_ambiguities", "NoBoardError", "Ambiguity"]
