"""The ``flagcore`` command.

Each module in this package that defines ``register(groups)`` adds its own sub-commands.
``groups`` maps "" to the top-level sub-parsers, "stats" to ``flagcore stats ...`` and "data" to
``flagcore data ...``; a command sets ``func=`` (taking the parsed args, returning an exit code)
with ``set_defaults``. Errors a user can cause (ValueError, TypeError, FlagcoreError, OSError) end
as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn

from .._impl import core
from .._version import __version__
from ..errors import ImplError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="flagcore", description="Engine for the Connections and Puzzle flag games.")
    parser.add_argument("--version", action="version", version=f"flagcore {__version__}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    stats = top.add_parser("stats", help="measure the engines (the spec's tables)")
    stats_sub = stats.add_subparsers(dest="stats_command", metavar="WHAT", parser_class=_Parser)
    data = top.add_parser("data", help="validate the bundled flag library")
    data_sub = data.add_subparsers(dest="data_command", metavar="ACTION", parser_class=_Parser)
    groups = {"": top, "stats": stats_sub, "data": data_sub}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        core.check()  # FLAGCORE_IMPL is read here, so a bad value is one line, not a traceback
    except ImplError as exc:
        print(f"flagcore: error: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    # A warning (e.g. libcairo2 missing) is one line for a user, not a file name and source line.
    warnings.formatwarning = lambda message, *_args, **_kw: f"flagcore: warning: {message}\n"
    try:
        return int(func(args) or 0)
    except BrokenPipeError:
        # The reader went away (``flagcore ... | head``): end quietly. Point stdout at devnull so
        # the interpreter's own flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("flagcore: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OSError, LookupError, RuntimeError) as exc:
        print(f"flagcore: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
