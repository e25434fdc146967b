"""Records you can trust (docs: Running long jobs): an unrelated file or a link is refused and
left as it is, one run at a time writes a file, and every record is checked in full on resume,
with a message that names its line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.arena import ArenaResult, GameError, GameRecord
from tikigames.bots import RandomBot
from tikigames.records import (
    RecordFile,
    RecordsError,
    RecordsExistError,
    RecordsFileError,
    RecordsInUseError,
    printable,
)

GAME = tikigames.load("tiki_topple", players=2)
BOTS = [RandomBot(), RandomBot()]
LABELS = ["a", "b"]
PACKAGE_ROOT = Path(tikigames.__file__).resolve().parent.parent


def tournament(out: Path, games: int = 3, **kwargs: Any) -> ArenaResult:
    return tikigames.arena(GAME, BOTS, games=games, seed=1, labels=LABELS, out=out, **kwargs)


def test_an_unrelated_file_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    for text in ("my notes, no newline", "my notes\n", '{"a": 1}\n', "[1, 2]\n", "\x00\x00"):
        notes = tmp_path / "notes.txt"
        notes.write_text(text)
        for resume in (False, True):
            with pytest.raises(RecordsError, match="not a records file"):
                tournament(notes, resume=resume)
            assert notes.read_text() == text
    with pytest.raises(RecordsError, match="not a records file"):
        RecordFile.read_header(notes)
    # A records file of another kind is refused as well.
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "something-else/1"}\n')
    with pytest.raises(RecordsError, match="not a tikigames-arena/1 file"):
        tournament(other, resume=True)
    assert other.read_text() == '{"format": "something-else/1"}\n'


def test_a_symbolic_link_or_a_directory_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("precious")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with pytest.raises(RecordsFileError, match="symbolic link"):
        tournament(link)
    with pytest.raises(RecordsFileError, match="symbolic link"):
        RecordFile.read_header(link)
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(RecordsFileError, match="symbolic link"):
        tournament(dangling)
    assert not (tmp_path / "nowhere").exists() and target.read_text() == "precious"
    with pytest.raises(RecordsFileError):
        tournament(tmp_path)  # a directory


def test_an_empty_file_or_a_torn_header_is_started_afresh(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.touch()
    assert RecordFile.read_header(out) is None
    whole = tournament(out)
    header_line = out.read_text().splitlines()[0]
    out.write_text(header_line[:30])  # killed while writing the header
    assert RecordFile.read_header(out) is None
    assert tournament(out) == whole


def test_a_file_with_a_tournament_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    tournament(out)
    before = out.read_text()
    with pytest.raises(RecordsExistError, match="resume it"):
        tournament(out)
    assert out.read_text() == before


def test_one_run_at_a_time_holds_a_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    tournament(out)
    header = RecordFile.read_header(out) or {}
    with RecordFile.open(out, header, resume=True), pytest.raises(RecordsInUseError, match="use"):
        tournament(out, resume=True)
    assert tournament(out, resume=True).resumed == 3  # released on close


def test_two_concurrent_runs_on_one_file_the_second_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    script = (
        "import sys, tikigames\n"
        "from tikigames.bots import ISMCTSBot, RandomBot\n"
        "tikigames.arena(tikigames.load('tiki_topple', players=2),"
        " [ISMCTSBot(iterations=200), RandomBot()], games=40, seed=1, labels=['a', 'b'],"
        " out=sys.argv[1], resume=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    first = subprocess.Popen([sys.executable, "-c", script, str(out)], env=env)
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text().count("\n") >= 1):
            assert first.poll() is None and time.monotonic() < deadline, (
                "the first run did not start"
            )
            time.sleep(0.02)
        with pytest.raises(RecordsInUseError, match="in use"):
            tikigames.arena(GAME, BOTS, games=40, seed=1, labels=LABELS, out=out, resume=True)
    finally:
        first.kill()
        first.wait()
    indices = [json.loads(line)["index"] for line in out.read_text().splitlines()[1:]]
    assert len(indices) == len(set(indices))  # nothing written twice


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, rows: list[Any]) -> None:
    path.write_text(
        "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows)
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"returns": [1.0]}, "'returns' must be a list, one per seat"),
        ({"returns": ["NaN", 1.0]}, "'returns' must hold finite numbers"),
        ({"returns": [True, -1.0]}, "'returns' must hold finite numbers"),
        ({"returns": [1e300, -1.0]}, "'returns' must hold finite numbers"),
        ({"moves": 5}, "'moves' must be a list"),
        ({"moves": [1.5, 2]}, "'moves' must hold ints"),
        ({"labels": None}, "'labels' must be a list"),
        ({"labels": ["a", 3]}, "'labels' must hold strings"),
        ({"index": 0.7}, "'index' must be an int"),
        ({"index": True}, "'index' must be an int"),
        ({"index": -1}, "'index' must be an int ≥ 0"),
        ({"seed": "12"}, "'seed' must be an int"),
        ({"length": None}, "'length' must be an int"),
        ({"seconds": [0.1, -2.0]}, "'seconds' must hold finite numbers ≥ 0"),
        ({"extra": 1}, "unknown key"),
        ({"error": 5}, "unknown key"),  # an error has no returns
    ],
)
def test_a_tampered_record_is_refused_with_its_line(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    out = tmp_path / "games.jsonl"
    tournament(out)
    header, *records = lines(out)
    records[1].update(change)
    rewrite(out, [header, *records])
    with pytest.raises(
        RecordsError, match=f"line 3: its {message}" if "key" not in message else message
    ) as caught:
        tournament(out, resume=True)
    assert "line 3" in str(caught.value)


def test_missing_keys_raw_nan_and_a_bad_line_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    tournament(out)
    header, *records = lines(out)
    del records[0]["moves"]
    rewrite(out, [header, *records])
    with pytest.raises(RecordsError, match="line 2: it lacks 'moves'"):
        tournament(out, resume=True)
    records[0]["moves"] = [1, 1]
    text = json.dumps(records[0]).replace(str(records[0]["returns"][0]), "NaN", 1)
    rewrite(out, [header, text, *records[1:]])
    with pytest.raises(RecordsError, match="line 2: not valid JSON"):
        tournament(out, resume=True)
    rewrite(out, [header, '{"index": 0, "index": 1}', *records[1:]])
    with pytest.raises(RecordsError, match="line 2: not valid JSON"):
        tournament(out, resume=True)
    rewrite(out, [header, "[1, 2]", *records[1:]])
    with pytest.raises(RecordsError, match="line 2: not a JSON object"):
        tournament(out, resume=True)


def test_concatenated_files_are_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    tournament(a, games=2)
    tikigames.arena(GAME, BOTS, games=2, seed=1, labels=LABELS, out=b, workers=1)
    both = tmp_path / "both.jsonl"
    both.write_text(a.read_text() + b.read_text())
    with pytest.raises(RecordsError, match=r"line 4: a second header .*cat a b"):
        tournament(both, games=2, resume=True)


def test_duplicates_must_be_identical(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    whole = tournament(out)
    header, *records = lines(out)
    twice = dict(records[0], seconds=[9.0, 9.0])  # the timings may differ, not the game
    rewrite(out, [header, *records, twice])
    assert tournament(out, resume=True) == whole
    changed = dict(records[0], length=records[0]["length"] + 1)
    rewrite(out, [header, *records, changed])
    with pytest.raises(RecordsError, match="line 5: game 0 is recorded twice, differently"):
        tournament(out, resume=True)


def test_a_record_with_control_characters_is_shown_escaped(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    tournament(out, games=2)
    header, first, second = lines(out)
    failed = {key: second[key] for key in ("index", "seed", "labels")}
    failed["error"] = "RuntimeError: \x1b[2J\x1b]0;owned\x07gone\nfake line\x9b"
    rewrite(out, [header, first, failed])
    result = tournament(out, games=2, resume=True)
    assert result.errors[0].error == failed["error"]  # the data as it is
    table = result.table()
    assert "\x1b" not in table and "\x07" not in table and "\x9b" not in table
    assert "\\x1b[2J\\x1b]0;owned\\x07gone\\nfake line\\x9b" in table
    assert printable("tab\there\x7f") == "tab\\there\\x7f"


def test_old_records_still_load(tmp_path: Path) -> None:
    """A file written before timings were recorded, and errors without details."""
    out = tmp_path / "games.jsonl"
    whole = tournament(out, games=2)
    header, first, second = lines(out)
    del first["seconds"]
    error = GameError(second["index"], second["seed"], tuple(second["labels"]), "X: y").to_json()
    del error["details"]
    rewrite(out, [header, first, error])
    resumed = tournament(out, games=2, resume=True)
    assert resumed.records == whole.records[:1] and resumed.errors[0].error == "X: y"
    assert GameRecord.from_json(first).seconds == (0.0, 0.0)
