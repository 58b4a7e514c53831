"""``open_store``: which store a URL names, and the messages for the ones it cannot open."""

from __future__ import annotations

import pytest

from flagcore.errors import FlagcoreError, StoreUnavailable
from flagcore.store import RedisStore, SQLiteStore, open_store


def test_none_is_stateless():
    assert open_store("none") is None
    assert open_store(" NONE ") is None


@pytest.mark.parametrize("form", ["sqlite://{}", "sqlite:{}", "{}"])  # {} is absolute: sqlite:///tmp/...
def test_sqlite_urls_and_plain_paths(tmp_path, form):
    path = tmp_path / "games.db"
    store = open_store(form.format(path))
    assert isinstance(store, SQLiteStore)
    assert store.path == path
    assert path.exists()  # created with its tables
    store.close()


def test_redis_url(redis_server):
    store = open_store(redis_server.url)
    assert isinstance(store, RedisStore)
    store.ping()
    store.close()


@pytest.mark.parametrize(
    "url, error, message",
    [
        (None, TypeError, "store must be a str"),
        ("", ValueError, "store is empty"),
        ("sqlite://", ValueError, "store 'sqlite://': name the SQLite file"),
        ("redis:", ValueError, "store 'redis:': a Redis URL is redis://host:port/db"),
        ("postgres://db/games", ValueError, "store 'postgres://db/games': unknown kind 'postgres'"),
        ("memcached://:hunter2@cache:11211", ValueError, "store 'memcached://***@cache:11211'"),
    ],
)
def test_bad_urls(url, error, message):
    with pytest.raises(error) as info:
        open_store(url)
    assert str(info.value).startswith(message)
    assert "hunter2" not in str(info.value)


def test_a_sqlite_file_in_a_missing_folder_is_unavailable_at_once(tmp_path):
    with pytest.raises(StoreUnavailable, match="unable to open database file"):
        open_store(str(tmp_path / "missing" / "games.db"))


def test_a_file_that_is_not_a_database_is_unavailable(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(StoreUnavailable, match="unusable"):
        open_store(str(path))


def test_store_unavailable_is_a_flagcore_error_and_a_connection_error():
    assert issubclass(StoreUnavailable, FlagcoreError)
    assert issubclass(StoreUnavailable, ConnectionError)
