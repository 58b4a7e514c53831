"""The Connections engine: board generation, grading and the game.

Public names (DESIGN.md): generate, generate_many, check_guess, ConnectionsGame, find_ambiguities,
Board, Group.
"""
from __future__ import annotations

from .board import TIER_NAMES, Board, Group

__all__ = ["TIER_NAMES", "Board", "Group"]
