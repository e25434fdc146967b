"""A durable, append-only file of JSON records: a header line, then one record per line (JSON
lines). The arena writes each finished game to it as it finishes, so that a crash loses at most
the games in flight, and a resumed run reads back the games already played.

Why JSON lines, and why the appends are atomic:

- Every record is **one** ``os.write`` of one whole line (``\\n``-terminated) to a descriptor
  opened with ``O_APPEND``, then ``os.fsync``. A process killed with ``SIGKILL`` either made the
  ``write`` call or did not: Linux does not interrupt a write to a regular file half-way, and
  what was written is in the page cache, which the kernel flushes even though the process died.
  ``fsync`` before the next game extends that to a crash of the machine: only the line being
  written can be lost, or be torn by a power cut.
- A torn last line is recognised — it lacks its ``\\n`` — and ignored by
  :meth:`RecordFile.open`, which also cuts it off before appending, so that the next record
  starts on a line of its own. Nothing else is ever cut: a line before the last that is not a
  JSON object is an error (it cannot happen with one writer), and so is a file that does not
  start with the expected header — an unrelated file given by mistake is refused, untouched.
- There is one writer: :meth:`RecordFile.open` takes an exclusive advisory lock
  (``flock``) on the file, held until :meth:`RecordFile.close`; a second run on the same file
  is refused at once (:class:`RecordsInUseError`) rather than interleaving its games.
- The path is opened without following a symbolic link (``O_NOFOLLOW``): a link is refused,
  so a run never writes into a file it was not given.
- Against SQLite, which gives transactions as well: a JSON-lines file needs nothing outside the
  standard library's ``json`` and ``os``, can be read with ``grep``, ``jq`` or
  ``pandas.read_json(lines=True)``, and behaves on network file systems, where SQLite's locking
  is unreliable. The cost, one ``fsync`` per game, is milliseconds against games that take
  tenths of seconds or more. Files are *not* merged with ``cat``: the second file's header
  would come in the middle, which :meth:`RecordFile.open` refuses (a second header).

The header is the JSON object of the first line; its ``"format"`` key names the kind of file
and its version (the arena's is ``tikigames-arena/1``), and no record has that key.

A tool, in the top layer; it knows nothing of games, only of JSON objects. Text read from a
file is shown with :func:`printable`, so that a record cannot drive the terminal.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from tikigames.core.errors import TikiGamesError, shown

if sys.platform != "win32":
    import fcntl

__all__ = [
    "RecordFile",
    "RecordsError",
    "RecordsExistError",
    "RecordsFileError",
    "RecordsInUseError",
    "locked_directory",
    "printable",
]


class RecordsError(TikiGamesError, ValueError):
    """A file, a record or a shard that is not what the run expects: not a records file of this
    kind, another run's, or malformed (the message names the file and the line)."""


class RecordsFileError(TikiGamesError, OSError):
    """A records file that cannot be used as it is: a symbolic link, not a regular file, not
    openable, held by another run (:class:`RecordsInUseError`) or holding a run already
    (:class:`RecordsExistError`)."""


class RecordsInUseError(RecordsFileError, BlockingIOError):
    """Another run holds the file (its lock): wait for it, or choose another file."""


class RecordsExistError(RecordsFileError, FileExistsError):
    """The file holds a run already, and the run was not asked to resume it."""


# C0 controls, DEL and C1 controls, each as an escape (the usual three by their letters).
_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
_ESCAPES.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def printable(text: str) -> str:
    """``text`` with every control character — C0, DEL and C1, newlines and tabs included —
    escaped, so that text read from a file (a record's error, a label) is shown on one line and
    cannot move the cursor, recolour or clear a terminal.

    >>> from tikigames.records import printable
    >>> printable("RuntimeError: bad\\x1b[2J\\nmove\\x9b")
    'RuntimeError: bad\\\\x1b[2J\\\\nmove\\\\x9b'
    >>> printable("ismcts é ✓")
    'ismcts é ✓'
    """
    return text.translate(_ESCAPES)


@contextlib.contextmanager
def locked_directory(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the exclusive lock of the directory ``path`` (as :meth:`RecordFile.open` holds a
    file's): one run at a time writes a self-play directory.

    Raises:
        RecordsInUseError: another run holds it.
    """
    target = Path(path)
    fd = os.open(target, os.O_RDONLY | _CLOEXEC)
    try:
        _lock(fd, target)
        yield
    finally:
        os.close(fd)


class RecordFile:
    """An open record file: :meth:`open` it with the header the run expects, read
    :attr:`records` (those already written), then :meth:`append` new ones. It holds the file's
    lock until :meth:`close` (or the end of a ``with`` block).

    >>> import tempfile, pathlib
    >>> from tikigames.records import RecordFile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
    >>> with RecordFile.open(path, {"format": "demo/1"}) as out:
    ...     out.append({"index": 0})
    >>> with open(path, "a") as torn:  # a crash half-way through a line
    ...     _ = torn.write('{"index": 1, "ret')
    >>> with RecordFile.open(path, {"format": "demo/1"}, resume=True) as out:
    ...     out.records, out.lines
    ([{'index': 0}], [2])
    >>> path.read_text()
    '{"format": "demo/1"}\\n{"index": 0}\\n'
    """

    def __init__(
        self,
        path: Path,
        header: dict[str, Any],
        records: list[dict[str, Any]],
        fd: int,
        lines: list[int] | None = None,
    ) -> None:
        self.path = path
        #: The header line.
        self.header = header
        #: The records found in the file when it was opened, in file order.
        self.records = records
        #: The line number (1-based) of each of :attr:`records`, for messages.
        self.lines = lines if lines is not None else list(range(2, len(records) + 2))
        self.fd = fd

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        header: Mapping[str, Any],
        *,
        resume: bool = False,
        growing: Collection[str] = (),
    ) -> RecordFile:
        """Open ``path`` for appending, and lock it. A missing or empty file is started with
        ``header`` (which must have a ``"format"`` key). An existing one must start with a
        header of the same ``"format"``; it is read only with ``resume=True``, and its header
        must equal ``header`` (so that a resumed run continues the same tournament, not another
        one) — except that the int under a key of ``growing`` may be larger in ``header`` than
        in the file (a tournament of more games resumed from one of fewer). The file's header is
        kept as it is: it records how the file was started.

        Raises:
            RecordsError: the file is not a records file of this format (it is left as it is),
                its header differs from ``header``, or a line before the last is not a JSON
                object or is a second header (two files concatenated).
            RecordsExistError: the file has a header and ``resume`` is false.
            RecordsInUseError: another run holds the file.
            RecordsFileError: ``path`` is a symbolic link, not a regular file, or cannot be
                opened.
        """
        target = Path(path)
        wanted = json.loads(json.dumps(dict(header)))  # as it reads back: tuples become lists
        kind = wanted.get("format")
        if not isinstance(kind, str):
            raise TypeError("a records file's header needs a 'format' string")
        fd, created = _open(target)
        try:
            _lock(fd, target)
            found, numbered, keep, size = _read(fd, target, _line(wanted))
            if found is None:
                if size:
                    os.ftruncate(fd, 0)  # a header torn by a crash, nothing else
                _write_line(fd, wanted)
                if created:
                    _sync_directory(target)
                return cls(target, wanted, [], fd, [])
            if found.get("format") != kind:
                raise RecordsError(
                    f"{target} is not a {kind} file: its header's format is "
                    f"{shown(found.get('format'))}; it is left as it is"
                )
            if not resume:
                raise RecordsExistError(
                    f"{target} already holds a tournament: resume it, or choose another file"
                )
            _compare(target, found, wanted, growing)
            if keep < size:
                os.ftruncate(fd, keep)  # a torn last line: the next record starts afresh
                os.fsync(fd)
            return cls(target, found, [data for _, data in numbered], fd, [n for n, _ in numbered])
        except BaseException:
            os.close(fd)
            raise

    @staticmethod
    def read_header(path: str | os.PathLike[str]) -> dict[str, Any] | None:
        """The header of the file at ``path``, or ``None`` if there is none (yet): the file is
        missing, empty, or holds only the start of a header (torn by a crash).

        Raises:
            RecordsError: the file exists and is not a records file.
            RecordsFileError: ``path`` is a symbolic link or not a regular file.
        """
        target = Path(path)
        try:
            fd = os.open(target, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _open_error(target, error) from None
        try:
            _regular(fd, target)
            with os.fdopen(os.dup(fd), "rb") as file:
                first = file.readline()
        finally:
            os.close(fd)
        if not first.endswith(b"\n"):
            if _HEADER_START.startswith(first[: len(_HEADER_START)]):
                return None
            raise RecordsError(f"{target} is not a records file: it has no header line")
        return _header(target, first)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write ``record`` as one line, durably (see the module's docstring)."""
        _write_line(self.fd, record)

    def close(self) -> None:
        """Close the file, which releases its lock (records appended are on disk already)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC: int = getattr(os, "O_CLOEXEC", 0)
#: How every header written by :func:`_write_line` starts (``"format"`` comes first).
_HEADER_START = b'{"format": '


def _open(path: Path) -> tuple[int, bool]:
    """A descriptor of ``path`` for reading and appending (created if missing), never through a
    symbolic link, and whether it was created."""
    flags = os.O_RDWR | os.O_APPEND | _NOFOLLOW | _CLOEXEC
    try:
        try:
            fd, created = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
        except FileExistsError:
            fd, created = os.open(path, flags), False
    except OSError as error:
        raise _open_error(path, error) from None
    try:
        _regular(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd, created


def _open_error(path: Path, error: OSError) -> RecordsFileError:
    if error.errno == errno.ELOOP or path.is_symlink():
        return RecordsFileError(
            f"{path} is a symbolic link: refused (give the file it points to, if it is yours)"
        )
    return RecordsFileError(f"cannot open {path}: {error.strerror or error}")


def _regular(fd: int, path: Path) -> None:
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise RecordsFileError(f"{path} is not a regular file: refused")


def _lock(fd: int, path: Path) -> None:
    """Take the file's exclusive lock, or fail at once if another run holds it."""
    if sys.platform == "win32":  # pragma: no cover - no flock there; one writer by convention
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise RecordsInUseError(
            f"{path} is in use: another run is writing it (it is locked); wait for it to end, "
            "or choose another file"
        ) from None


def _sync_directory(path: Path) -> None:
    """Make a new file's name durable too (its directory entry)."""
    if sys.platform == "win32":  # pragma: no cover
        return
    fd = os.open(path.parent, os.O_RDONLY | _CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _compare(
    path: Path, found: dict[str, Any], wanted: dict[str, Any], growing: Collection[str]
) -> None:
    """Refuse a header that is not ``wanted``'s, but for keys of ``growing`` that grew."""
    differ = sorted(
        key
        for key in {*found, *wanted}
        if found.get(key) != wanted.get(key)
        and not (key in growing and _grows(found.get(key), wanted.get(key)))
    )
    shrunk = [key for key in differ if key in growing and _grows(wanted.get(key), found.get(key))]
    if differ and differ == shrunk:
        started = ", ".join(f"{key} = {found[key]}" for key in shrunk)
        raise RecordsError(f"{path} was started with {started}: it can grow, not shrink")
    if differ:
        raise RecordsError(
            f"{path} holds another tournament (it differs in {printable(', '.join(differ))})"
        )


def _grows(found: object, wanted: object) -> bool:
    """Whether ``wanted`` is an int at least ``found`` (both ints, not bools)."""
    return type(found) is int and type(wanted) is int and found <= wanted


def _line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, separators=(", ", ": "), allow_nan=False) + "\n").encode()


def _write_line(fd: int, record: Mapping[str, Any]) -> None:
    data = _line(record)
    written = os.write(fd, data)  # one call: with O_APPEND the whole line lands at the end
    while written < len(data):  # only on a full disk or the like; never seen in practice
        written += os.write(fd, data[written:])
    os.fsync(fd)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("a key appears twice")
    return result


def _parse(line: bytes) -> object:
    """A line's JSON value: strict (no NaN or Infinity, no key twice in an object)."""
    return json.loads(line, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)


def _header(path: Path, line: bytes) -> dict[str, Any]:
    try:
        value = _parse(line)
    except ValueError:
        value = None
    if not isinstance(value, dict) or not isinstance(value.get("format"), str):
        raise RecordsError(
            f"{path} is not a records file: its first line is not a header "
            "(a JSON object with a 'format'); it is left as it is"
        )
    return value


def _torn_header(line: bytes, fresh: bytes) -> bool:
    """Whether ``line`` (the file's only one, without its newline) is a header torn by a crash:
    the start of ``fresh``, or of any header of the same format."""
    kind = fresh[: fresh.index(b",") if b"," in fresh else len(fresh)]
    return fresh.startswith(line) or line.startswith(kind)


def _lines(fd: int) -> Iterator[bytes]:
    with os.fdopen(os.dup(fd), "rb") as file:
        file.seek(0)
        yield from file


def _read(
    fd: int, path: Path, fresh: bytes
) -> tuple[dict[str, Any] | None, list[tuple[int, dict[str, Any]]], int, int]:
    """The header, the records with their line numbers, the length of the sound prefix of the
    file (a torn last line is left out) and the file's length. The header is ``None`` when the
    file is empty or holds only a prefix of ``fresh`` (the header line a new file gets)."""
    header: dict[str, Any] | None = None
    numbered: list[tuple[int, dict[str, Any]]] = []
    keep = size = 0
    for number, line in enumerate(_lines(fd), 1):
        size += len(line)
        if not line.endswith(b"\n"):  # the last line, torn: it is cut
            if header is None and not _torn_header(line, fresh):
                raise RecordsError(
                    f"{path} is not a records file: it has no header line; it is left as it is"
                )
            break
        keep = size
        if header is None:
            header = _header(path, line)
            continue
        try:
            value = _parse(line)
        except ValueError as error:
            raise RecordsError(f"{path}, line {number}: not valid JSON ({error})") from None
        if not isinstance(value, dict):
            raise RecordsError(f"{path}, line {number}: not a JSON object")
        if "format" in value:
            raise RecordsError(
                f"{path}, line {number}: a second header — two files concatenated (cat a b)? "
                "A records file holds one run: resume each file on its own"
            )
        numbered.append((number, value))
    return header, numbered, keep, size
