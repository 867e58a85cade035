"""Opening the SQLite file safely: probe read-only first, refuse what we must not touch, then migrate.

Python's own sqlite3 is used when it can load extensions; some builds (pyenv's default) cannot, and
then pysqlite3 (the `pysqlite3-binary` wheel, same DB-API) is used. sqlite-vec is loaded into either.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import schema
from .errors import MemoryStoreError


def sqlite_module():
    import sqlite3

    probe = sqlite3.connect(":memory:")
    try:
        if hasattr(probe, "enable_load_extension"):
            return sqlite3
    finally:
        probe.close()
    try:
        from pysqlite3 import dbapi2
    except ImportError:
        raise MemoryStoreError("this Python's sqlite3 cannot load extensions (needed for sqlite-vec); "
                               "install pysqlite3-binary") from None
    return dbapi2


def one_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def is_locked(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def probe(path: Path, sqlite) -> int:
    """The file's schema version, read without writing a byte; raises MemoryStoreError when unusable."""
    if not os.access(path, os.R_OK | os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK):
        raise MemoryStoreError(f"the memory store {path} (or its folder) is read-only; Hearth needs to write "
                               "there: fix its permissions or choose another --data-dir")
    try:
        conn = sqlite.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
    except sqlite.Error as exc:
        raise MemoryStoreError(f"cannot open the memory store {path}: {one_line(exc)}") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if version > schema.SCHEMA_VERSION:
            raise MemoryStoreError(f"the memory store {path} was written by a newer Hearth (schema version {version}, "
                                   f"this one knows {schema.SCHEMA_VERSION}); it was left unchanged")
        if path.stat().st_size < 64 << 20:
            check = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            if check != "ok":
                detail = " ".join(check.replace("*** in database main ***", "").split())
                raise MemoryStoreError(f"the memory store {path} is damaged ({detail}); it was left unchanged")
        return version
    except sqlite.Error as exc:
        if is_locked(exc):
            raise MemoryStoreError(f"the memory store {path} is locked by another program; close it and retry") from None
        raise MemoryStoreError(f"the memory store {path} is damaged or not a Hearth database "
                               f"({one_line(exc)}); it was left unchanged") from None
    finally:
        conn.close()


def reader(path: Path, timeout: float = 2.0):
    """A second connection to an open store, for reading on another thread (sqlite-vec loaded)."""
    conn = sqlite_module().connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
    load_vec(conn)
    conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    return conn


def connect(path: Path, timeout: float = 2.0):
    """An open, migrated connection in autocommit mode (transactions are explicit), sqlite-vec loaded."""
    path = Path(path)
    sqlite = sqlite_module()
    if path.exists():
        probe(path, sqlite)
    else:
        try:  # the folder holds what people said: only its owner may look inside
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise MemoryStoreError(f"cannot create the memory folder {path.parent}: {one_line(exc)}") from None
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            probe(path, sqlite)
        except OSError as exc:
            raise MemoryStoreError(f"cannot create the memory store {path}: {one_line(exc)}") from None
    try:
        conn = sqlite.connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
    except sqlite.Error as exc:
        raise MemoryStoreError(f"cannot open the memory store {path}: {one_line(exc)}") from None
    try:
        load_vec(conn)
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn, path)
    except MemoryStoreError:
        conn.close()
        raise
    except sqlite.Error as exc:
        conn.close()
        if is_locked(exc):
            raise MemoryStoreError(f"the memory store {path} is locked by another program; close it and retry") from None
        raise MemoryStoreError(f"cannot open the memory store {path}: {one_line(exc)}") from None
    return conn


def load_vec(conn) -> None:
    import sqlite_vec

    try:
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
    except Exception as exc:
        raise MemoryStoreError(f"cannot load sqlite-vec: {one_line(exc)}") from None


def migrate(conn, path: Path, target: int | None = None) -> int:
    """Apply the forward migrations the file lacks, all in one transaction; returns the new version."""
    target = schema.SCHEMA_VERSION if target is None else target
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > schema.SCHEMA_VERSION:
            raise MemoryStoreError(f"the memory store {path} was written by a newer Hearth (schema version {version}); "
                                   "it was left unchanged")
        for number in range(version + 1, target + 1):
            for statement in schema.statements(schema.MIGRATIONS[number - 1]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
        return max(version, target)
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def timestamp(value) -> str:
    """A datetime as stored (ISO, to the second); a string is taken as already stored."""
    return value if isinstance(value, str) else value.isoformat(timespec="seconds")


def vector_blob(vector, dim: int) -> bytes:
    """A vector as sqlite-vec stores it: `dim` float32s."""
    import numpy as np

    vector = np.asarray(vector, dtype=np.float32).reshape(-1)
    if vector.shape[0] != dim:
        raise ValueError(f"expected a {dim}-d vector, got {vector.shape[0]}")
    return vector.tobytes()


def chunks(values: list, size: int = 500):
    """`values` in pieces small enough for one statement's parameters."""
    for i in range(0, len(values), size):
        yield values[i:i + size]
