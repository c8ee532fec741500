"""The state file: mutable state of a local register in one SQLite database.

Credentials, extracts, monitors, credit usage and plan changes live here, so a restart loses nothing.
The database runs in WAL mode with a busy timeout; connections come from a small pool (one per thread
at a time), and every change that spends credits runs in one ``BEGIN IMMEDIATE`` transaction, so the
balance check and the charge cannot interleave between threads or processes.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = ["StateDB", "SCHEMA_VERSION"]

logger = logging.getLogger("regkit.local.state")  # the name log configurations know it by

SCHEMA_VERSION = 1
#: First extract number: ids look like ``tre_100001``.
EXTRACT_SEQ_START = 100000

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS user_plans (
    user TEXT PRIMARY KEY, plan TEXT NOT NULL, changed_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS usage (
    user TEXT NOT NULL, day TEXT NOT NULL, credits INTEGER NOT NULL,
    PRIMARY KEY (user, day)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS credentials (
    user TEXT NOT NULL, name TEXT NOT NULL, token BLOB NOT NULL,
    created_at REAL NOT NULL, updated_at REAL NOT NULL,
    PRIMARY KEY (user, name));
CREATE TABLE IF NOT EXISTS extracts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL, mode TEXT NOT NULL, credential_name TEXT, account_ref TEXT,
    company_id TEXT, ekrn TEXT NOT NULL, submitted_at REAL NOT NULL, ready_at REAL NOT NULL,
    outcome TEXT NOT NULL, reference_number TEXT, report TEXT);
CREATE INDEX IF NOT EXISTS extracts_quota ON extracts (user, mode, submitted_at);
CREATE TABLE IF NOT EXISTS extract_documents (
    document_id TEXT PRIMARY KEY, extract_seq INTEGER NOT NULL REFERENCES extracts (seq),
    format TEXT NOT NULL, filename TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS monitors (
    user TEXT NOT NULL, entity_id TEXT NOT NULL, entity_type TEXT NOT NULL,
    preferences TEXT NOT NULL, update_frequency TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL,
    PRIMARY KEY (user, entity_id));
CREATE TABLE IF NOT EXISTS monitor_days (
    user TEXT NOT NULL, entity_id TEXT NOT NULL, created_day TEXT NOT NULL, checked_day TEXT NOT NULL,
    PRIMARY KEY (user, entity_id));
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    user TEXT PRIMARY KEY, url TEXT NOT NULL, secret TEXT NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_messages (
    id TEXT PRIMARY KEY, user TEXT NOT NULL, event_id TEXT NOT NULL, entity_id TEXT NOT NULL,
    body TEXT NOT NULL, status TEXT NOT NULL, tries INTEGER NOT NULL DEFAULT 0, next_attempt REAL NOT NULL,
    last_error TEXT, created_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS webhook_messages_due ON webhook_messages (status, next_attempt);
INSERT OR IGNORE INTO sqlite_sequence (name, seq)
    SELECT 'extracts', {EXTRACT_SEQ_START} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'extracts');
"""


class StateDB:
    """A local register's state file.

    Parameters
    ----------
    path : str or Path
        The SQLite file; created (with mode 0600) and migrated when missing.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        with self.connection() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise RuntimeError(f"{self.path} has state schema {version}; this regkit reads {SCHEMA_VERSION}.")
            conn.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('signing_secret', ?)", (secrets.token_hex(32),)
            )
        logger.debug("Opened local register state %s", self.path)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a connection in autocommit mode (each statement is its own transaction)."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the state file {self.path} was closed")
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        finally:
            if conn.in_transaction:  # a failed statement left a transaction open
                conn.rollback()
            with self._lock:
                if self._closed:
                    conn.close()
                else:
                    self._idle.append(conn)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run a block in one ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on error."""
        with self.connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def meta(self, key: str) -> str | None:
        """A value of the ``meta`` table (``signing_secret``)."""
        with self.connection() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def files(self) -> list[Path]:
        """The state file and its WAL companions that exist now."""
        candidates = [self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")]
        return [p for p in candidates if p.exists()]

    def close(self) -> None:
        """Close every pooled connection (borrowed ones close when they come back)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
