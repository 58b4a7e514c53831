"""Rules of the ``flagcore`` command's options that involve more than one option, or the shipped files."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

from ..errors import ArgumentError

MAKE_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


def check_daily_not_difficulty(daily: object, difficulty: object) -> None:
    """``connections --daily`` is a board of the schedule: the season picks its groups, not a difficulty."""
    if daily is not None and difficulty is not None:
        raise ArgumentError(
            "--difficulty does not apply to --daily (the schedule picks the day's groups); "
            "for a day's plain seed at a difficulty use --seed daily:YYYY-MM-DD --difficulty LEVEL"
        )


def check_daily_not_legacy(daily: object, legacy: bool) -> None:
    """``connections --daily`` is a board of the schedule, which uses the fixed search only."""
    if daily is not None and legacy:
        raise ArgumentError(
            "--legacy does not apply to --daily (the schedule uses the fixed search); "
            "for the legacy board of a day's plain seed use --seed daily:YYYY-MM-DD --legacy"
        )


def check_daily_alone(given: Sequence[str]) -> None:
    """``puzzle --daily`` deals the day's flag, grid and seed: none of them may be given beside it."""
    if given:
        raise ArgumentError(f"--daily deals the day's flag, grid and seed: drop {', '.join(given)}")


def check_png_has_flag(flag: object, daily: object) -> None:
    """``puzzle --png`` cuts the picture from a flag's artwork: it needs one."""
    if not flag and daily is None:
        raise ArgumentError("--png needs --flag CODE (the picture is cut from the flag's artwork)")


def max_nodes_option_error(n: int, k: int, max_nodes: int) -> ArgumentError:
    """ParSearchLimit's advice in the command's words (its option, not the library's keyword)."""
    return ArgumentError(
        f"the exact par of this board ({n} tiles, {k} tile classes) needs "
        f"more than {max_nodes} search nodes; pass a larger --max-nodes, or "
        "--max-nodes none for no limit (hard boards can take minutes)"
    )


def refuse_shared_store_without_secret(kind: str, secret_env: str) -> NoReturn:
    """A store shared by several servers needs the secret they share, given, not made by one of them."""
    raise ArgumentError(
        f"--store {kind}: set {secret_env} (the same on every server sharing the store); make one with {MAKE_SECRET}"
    )


def as_bundled_codes(wanted: Iterable[str], bundled: Iterable[str]) -> list[str]:
    """Flag codes (already of the right form) that have artwork in this installation."""
    wanted = list(wanted)
    unknown = sorted(set(wanted) - set(bundled))
    if unknown:
        raise ArgumentError(f"unknown flag code(s): {', '.join(unknown)}")
    return wanted
