"""The ratings shipped with the package (docs/ratings.md, "The shipped ratings").

``shipped.json`` beside this module, when the package has one, is fitted from the play records
of the team's blind play-testers (records/*.jsonl in the repository) by one command,
``FIT_COMMAND``: a few hundred games by careful players. ``flagcore serve`` deals with it unless
told otherwise (``--ratings FILE`` or ``--ratings none``); the library never does by itself:
``generate()``, ``daily()`` and ``create_app()`` take ratings only when given them, so a seed's
board (and every board id a test or a player holds) stays what it was whatever file ships.

``shipped/`` beside it is its history: the files shipped before it, one a file named by its
digest, each with the first day whose daily it colours (``dailies_from``), so that a refit never
recolours a daily already published, on a server without a store too (the daily of day D takes
the newest of them whose ``dailies_from`` is D or before; a seed's board, the newest).
``FIT_COMMAND`` keeps the file it replaces there by itself.
"""

from __future__ import annotations

from pathlib import Path

SHIPPED = Path(__file__).with_name("shipped.json")
FIT_COMMAND = "flagcore ratings fit --records records/*.jsonl --out python/flagcore/ratings/shipped.json"
NONE, DEFAULT = "none", "shipped"  # the --ratings words that name no file


def shipped_ratings() -> Path | None:
    """The shipped ratings file, or None when this package has none."""
    return SHIPPED if SHIPPED.is_file() else None


def serve_ratings(choice: str | None, library: str | None) -> Path | None:
    """The ratings file ``flagcore serve`` deals with, for ``choice`` (its ``--ratings``, else
    the environment's FLAGCORE_RATINGS): a file; "none": none; None or "shipped": the shipped
    file where the package has one, but never with a private ``library`` (the shipped file's
    categories are the bundled library's)."""
    if choice is None or choice == DEFAULT:
        return None if library is not None else shipped_ratings()
    return None if choice == NONE else Path(choice)
