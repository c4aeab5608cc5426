"""Which store the app uses: its CLASS_STORE setting (`spec`) read once at start."""

from __future__ import annotations

from pathlib import Path

from .redis_store import RedisStore
from .sqlite_store import SQLiteStore
from .store import ClassStore

SQLITE_FILE = "classes.sqlite3"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def open_store(spec: str | None, data_dir: Path) -> ClassStore:
    """No spec: SQLite in `data_dir` (one machine, any number of threads and processes);
    a redis:// (rediss://, unix://) URL: Redis, shared by replicas on several machines (a
    Redis that does not answer raises redis.ConnectionError here, when the app starts).
    Anything else is a mistake in the setting: ValueError, naming only the scheme, since
    a URL may carry a password."""
    if spec is None or not spec.strip():
        return SQLiteStore(Path(data_dir) / SQLITE_FILE)
    spec = spec.strip()
    if spec.lower().startswith(REDIS_SCHEMES):
        return RedisStore(spec)
    scheme = spec.split("://", 1)[0][:20] if "://" in spec else "no scheme"
    raise ValueError(f"CLASS_STORE is empty (SQLite in the data folder) or a redis:// URL, "
                     f"not {scheme!r}")
