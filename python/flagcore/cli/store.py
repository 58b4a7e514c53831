"""``flagcore store backup``: a consistent copy of a running server's SQLite store.

SQLite's online backup API copies the file page by page while the server goes on writing, so the
copy is the store of one moment, never a torn file (copying the file with ``cp`` while a server
writes may give one). A Redis store is backed up by Redis itself (its RDB or AOF files).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(groups: dict[str, Any]) -> None:
    p = groups[""].add_parser("store", help="the game store of flagcore serve (backup)")
    sub = p.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    backup = sub.add_parser(
        "backup",
        help="copy a SQLite store, consistent, while the server runs",
        description="Copy the SQLite store of flagcore serve into a new file, consistent, while the server "
        "goes on writing (SQLite's online backup). Restore: stop the server, put the copy in place of the "
        "store's file (removing its -wal and -shm files), start the server (docs/server.md).",
    )
    backup.add_argument("target", metavar="FILE", help="the copy to write (must not exist)")
    backup.add_argument(
        "--store",
        default=None,
        help="the store to copy: sqlite:///path/games.db or a plain path (default: flagcore serve's default store)",
    )
    backup.set_defaults(func=run_backup)


def run_backup(args: argparse.Namespace) -> int:
    from .._args.store import parse_store_url
    from ..store import SQLiteStore
    from .serve import default_store

    kind, source = parse_store_url(args.store or default_store())
    if kind != "sqlite":
        raise ValueError(f"flagcore store backup copies a SQLite store; a {kind} store is backed up by its own tools")
    if not Path(source).is_file():
        raise FileNotFoundError(f"no SQLite store at {source}")  # never created by a backup
    target = Path(args.target)
    if target.exists():
        raise FileExistsError(f"{target} exists: give a new file")
    store = SQLiteStore(source)
    try:
        store.backup(target)
    finally:
        store.close()
    print(f"flagcore store backup: {source} -> {target}", file=sys.stderr)
    return 0
