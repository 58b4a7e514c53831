"""``flagcore store backup``: a consistent copy of a SQLite store in use, never a new store."""

from __future__ import annotations

import threading

from flagcore.cli import main
from flagcore.store import GameRecord, SQLiteStore


def test_backup_of_a_store_being_written_is_a_store_with_what_it_held(tmp_path, capsys):
    path = tmp_path / "games.db"
    store = SQLiteStore(path)
    assert store.save_game("ann", "B1", 0, b"one", 3600)
    stop = threading.Event()

    def writer():  # a server writing meanwhile
        i = 0
        while not stop.is_set():
            store.save_game(f"w{i}", "B1", 0, b"x", 3600)
            i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert main(["store", "backup", str(tmp_path / "copy.db"), "--store", f"sqlite://{path}"]) == 0
    finally:
        stop.set()
        thread.join()
    store.close()
    copy = SQLiteStore(tmp_path / "copy.db")
    assert copy.load_game("ann", "B1") == GameRecord(1, b"one")
    assert copy._call(lambda conn: conn.execute("PRAGMA integrity_check").fetchone()[0]) == "ok"
    copy.close()


def test_backup_refuses_a_missing_store_an_existing_target_and_redis(tmp_path, capsys):
    missing = tmp_path / "none.db"
    assert main(["store", "backup", str(tmp_path / "copy.db"), "--store", str(missing)]) == 2
    assert "no SQLite store" in capsys.readouterr().err
    assert not missing.exists()  # a backup never creates the store it copies
    SQLiteStore(tmp_path / "games.db").close()
    (tmp_path / "taken.db").write_bytes(b"")
    assert main(["store", "backup", str(tmp_path / "taken.db"), "--store", str(tmp_path / "games.db")]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["store", "backup", str(tmp_path / "c.db"), "--store", "redis://127.0.0.1:1/0"]) == 2
    assert "its own tools" in capsys.readouterr().err
