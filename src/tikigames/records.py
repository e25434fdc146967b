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
- A torn last line is recognised — it lacks its ``\\n`` or is not valid JSON — and ignored by
  :meth:`RecordFile.open`, which also cuts it off before appending, so that the next record
  starts on a line of its own. A torn line anywhere else is an error (it cannot happen with
  one writer).
- There is one writer: the process that runs the tournament (the workers send their results
  to it), so lines never interleave.
- Against SQLite, which gives transactions as well: a JSON-lines file needs nothing outside the
  standard library's ``json`` and ``os``, can be read with ``grep``, ``jq`` or
  ``pandas.read_json(lines=True)``, is concatenated across machines with ``cat``, and behaves
  on network file systems, where SQLite's locking is unreliable. The cost, one ``fsync`` per
  game, is milliseconds against games that take tenths of seconds or more.

A tool, in the top layer; it knows nothing of games, only of JSON objects.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

__all__ = ["RecordFile"]


class RecordFile:
    """An open record file: :meth:`open` it with the header the run expects, read
    :attr:`records` (those already written), then :meth:`append` new ones.

    >>> import tempfile, pathlib
    >>> from tikigames.records import RecordFile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
    >>> with RecordFile.open(path, {"format": "demo/1"}) as out:
    ...     out.append({"index": 0})
    >>> with open(path, "a") as torn:  # a crash half-way through a line
    ...     _ = torn.write('{"index": 1, "ret')
    >>> with RecordFile.open(path, {"format": "demo/1"}, resume=True) as out:
    ...     out.records
    [{'index': 0}]
    >>> path.read_text()
    '{"format": "demo/1"}\\n{"index": 0}\\n'
    """

    def __init__(
        self, path: Path, header: dict[str, Any], records: list[dict[str, Any]], fd: int
    ) -> None:
        self.path = path
        #: The header line.
        self.header = header
        #: The records found in the file when it was opened, in file order.
        self.records = records
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
        """Open ``path`` for appending. A missing or empty file is started with ``header``. An
        existing one is read only with ``resume=True``, and its header must equal ``header``
        (so that a resumed run continues the same tournament, not another one) — except that
        the int under a key of ``growing`` may be larger in ``header`` than in the file (a
        tournament of more games resumed from one of fewer). The file's header is kept as it
        is: it records how the file was started.

        Raises:
            FileExistsError: the file has records and ``resume`` is false.
            ValueError: its header differs from ``header``, or a line before the last is not a
                JSON object.
        """
        target = Path(path)
        wanted = json.loads(json.dumps(dict(header)))  # as it reads back: tuples become lists
        fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            found, records, keep = _read(target)
            if found is None:
                os.ftruncate(fd, 0)
                _write_line(fd, wanted)
                return cls(target, wanted, [], fd)
            if not resume:
                raise FileExistsError(
                    f"{target} already holds a tournament: resume it, or choose another file"
                )
            differ = sorted(
                key
                for key in {*found, *wanted}
                if found.get(key) != wanted.get(key)
                and not (key in growing and _grows(found.get(key), wanted.get(key)))
            )
            shrunk = [
                key for key in differ if key in growing and _grows(wanted.get(key), found.get(key))
            ]
            if differ and differ == shrunk:
                started = ", ".join(f"{key} = {found[key]}" for key in shrunk)
                raise ValueError(f"{target} was started with {started}: it can grow, not shrink")
            if differ:
                raise ValueError(
                    f"{target} holds another tournament (it differs in {', '.join(differ)})"
                )
            if keep < target.stat().st_size:
                os.ftruncate(fd, keep)  # a torn last line: the next record starts afresh
                os.fsync(fd)
            return cls(target, found, records, fd)
        except BaseException:
            os.close(fd)
            raise

    @staticmethod
    def read_header(path: str | os.PathLike[str]) -> dict[str, Any] | None:
        """The header of the file at ``path``, or ``None`` if there is none (yet)."""
        target = Path(path)
        return _read(target)[0] if target.exists() else None

    def append(self, record: Mapping[str, Any]) -> None:
        """Write ``record`` as one line, durably (see the module's docstring)."""
        _write_line(self.fd, record)

    def close(self) -> None:
        """Close the file (records appended are on disk already)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _grows(found: object, wanted: object) -> bool:
    """Whether ``wanted`` is an int at least ``found`` (both ints, not bools)."""
    return type(found) is int and type(wanted) is int and found <= wanted


def _write_line(fd: int, record: Mapping[str, Any]) -> None:
    data = (json.dumps(record, separators=(", ", ": ")) + "\n").encode()
    written = os.write(fd, data)  # one call: with O_APPEND the whole line lands at the end
    while written < len(data):  # only on a full disk or the like; never seen in practice
        written += os.write(fd, data[written:])
    os.fsync(fd)


def _read(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """The header, the records and the length of the sound prefix of the file (a torn last
    line is left out)."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    # After the last "\n" comes a torn line or nothing.
    complete, tail = lines[:-1], lines[-1]
    keep = len(data) - len(tail)
    parsed: list[dict[str, Any]] = []
    for number, line in enumerate(complete):
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            if number == len(complete) - 1 and not tail:
                keep -= len(line) + 1  # the last line, its newline written: torn all the same
                break
            raise ValueError(f"{path}, line {number + 1}: not a JSON object")
        parsed.append(value)
    if not parsed:
        return None, [], 0
    return parsed[0], parsed[1:], keep
