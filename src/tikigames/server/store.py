"""Where the server's games live between moves and across restarts: one SQLite file.

Durability is the promise: a move is acknowledged only once its transaction is committed
with SQLite's write-ahead log and ``synchronous=FULL`` (each commit is on the disk before
``commit`` returns), so a server killed with SIGKILL and started again on the same file finds
every game where its players last saw it. A game is stored as its state's JSON
(:meth:`~tikigames.core.state.State.to_json_text`: the game, options and history), its seats
(tokens as SHA-256 digests only), its seed and its rng's state, so that the chance outcomes
still to come are the ones they would have been.

One process owns the file: :class:`Store` takes an exclusive lock (``flock`` on a ``-lock``
file beside it) and a second server on the same file is refused with a message, since two
processes holding the same game in memory would each accept a different move.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with Store(os.path.join(folder, "games.sqlite")) as store:
...     store.insert("g1", "tiki_topple", 7, ("[]", '{"game": "x"}', "[3, [], null]"), 0)
...     [row.id for row in store.rows()]
['g1']
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "StoredGame"]

#: The layout of the file; a file of a newer layout is refused rather than misread.
SCHEMA_VERSION: Final = 1
_SQLITE_HEADER: Final = b"SQLite format 3\x00"

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    state TEXT NOT NULL,
    rng TEXT NOT NULL,
    move_number INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""


class StoreError(Exception):
    """The database cannot be used: a bad path, another server holds it, not a database of
    ours. The message says which, and names the path."""


@dataclass(frozen=True)
class StoredGame:
    """One stored game, as :meth:`Store.rows` reads it."""

    id: str
    game: str
    seed: int
    seats: str
    state: str
    rng: str
    move_number: int


class Store:
    """The SQLite file of a server's games, opened and locked for this process alone.

    Raises:
        StoreError: the path is a symbolic link or not a regular file, its folder is missing,
            the file is not a SQLite database or is of a newer layout, or another process
            holds its lock.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock_fd = -1
        folder = self.path.parent
        if not folder.is_dir():
            raise StoreError(f"{self.path}: the folder {folder} does not exist")
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise StoreError(f"{self.path}: {error.strerror}") from None
        if info is not None:
            if stat.S_ISLNK(info.st_mode):
                raise StoreError(f"{self.path} is a symbolic link; give the file itself")
            if not stat.S_ISREG(info.st_mode):
                raise StoreError(f"{self.path} is not a regular file")
            if info.st_size and not self._is_sqlite():
                raise StoreError(f"{self.path} is not a SQLite database; it is left as it is")
        self._lock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer tikigames (layout {version}, "
                    f"this one reads {SCHEMA_VERSION})"
                )
            self._db.execute(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as error:
            self._unlock()
            raise StoreError(f"{self.path}: {error}") from None
        except StoreError:
            self._unlock()
            raise

    def _is_sqlite(self) -> bool:
        fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            return os.read(fd, len(_SQLITE_HEADER)) == _SQLITE_HEADER
        finally:
            os.close(fd)

    def _lock(self) -> None:
        lock_path = f"{self.path}-lock"
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as error:
            raise StoreError(f"{lock_path}: {error.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"{self.path} is in use by another tikigames server "
                "(one process owns a database; give another --db)"
            ) from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # closing the descriptor releases the lock
            self._lock_fd = -1

    # ----------------------------------------------------------------- reading and writing

    def rows(self) -> Iterator[StoredGame]:
        """Every stored game, oldest first."""
        cursor = self._db.execute(
            "SELECT id, game, seed, seats, state, rng, move_number FROM games ORDER BY created"
        )
        for row in cursor:
            yield StoredGame(*row)

    def insert(
        self, game_id: str, game: str, seed: int, record: tuple[str, str, str], move_number: int
    ) -> None:
        """Store a new game, committed before this returns. ``record`` is
        ``(seats JSON, state JSON, rng JSON)``."""
        seats, state, rng = record
        now = time.time()
        with self._transaction():
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, game, seed, seats, state, rng, move_number, now, now),
            )

    def update(self, game_id: str, record: tuple[str, str, str], move_number: int) -> None:
        """Store a game's new state and rng, committed before this returns."""
        _, state, rng = record
        with self._transaction():
            self._db.execute(
                "UPDATE games SET state = ?, rng = ?, move_number = ?, updated = ? WHERE id = ?",
                (state, rng, move_number, time.time(), game_id),
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        """Close the database and release its lock."""
        if self._lock_fd >= 0:
            self._db.close()
            self._unlock()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
