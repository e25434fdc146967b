"""``tikigames`` on bad paths and bad files: each is one line ``tikigames: …`` on stderr and
exit status 2, never a traceback; ``play --svg`` overwrites nothing it did not write and
follows no link; text read from a file is printed with its control characters escaped."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

import tikigames
import tikigames.cli
from tikigames.cli import main
from tikigames.selfplay import SelfPlayError

#: Quick bots, for the commands that would run if the path were good.
QUICK = ("--games", "1", "-q", "-b", "iterations=2", "--seed", "1")
#: A human who plays every card of Tiki Topple in turn until one is accepted.
CARDS = "\n".join(str(a) for a in tikigames.load("tiki_topple").actions()[:37]) + "\n"

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and links")


def run(*argv: str, stdin: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=stdin or io.StringIO(""), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_refused(status: int, err: str, *words: str) -> None:
    """Exit status 2 and one line ``tikigames: …`` on stderr, saying ``words``."""
    assert status == 2, err
    assert err.startswith("tikigames: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


# arena --out FILE


@posix_only
@pytest.mark.parametrize("where", ["directory", "/nonexistent/x", "/dev/null", "link"])
def test_arena_out_that_cannot_be_a_records_file_is_refused(tmp_path: Path, where: str) -> None:
    victim = tmp_path / "victim.jsonl"
    victim.write_text("mine\n")
    (tmp_path / "link").symlink_to(victim)
    path = {"directory": str(tmp_path), "link": str(tmp_path / "link")}.get(where, where)
    status, out, err = run("arena", "tiki_topple", *QUICK, "--out", path)
    assert_refused(status, err, path)
    assert out == "" and victim.read_text() == "mine\n"


def test_arena_out_that_holds_something_else_is_refused(tmp_path: Path) -> None:
    for text in ("[1, 2]\n", "not json\n", '{"format": "tikigames-selfplay/1"}\n'):
        path = tmp_path / "games.jsonl"
        path.write_text(text)
        status, _, err = run("arena", "tiki_topple", *QUICK, "--out", str(path))
        assert_refused(status, err, str(path))
        assert path.read_text() == text  # left as it is


def test_an_error_read_back_from_out_is_printed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert run("arena", "tiki_topple", *QUICK, "--out", str(path))[0] == 0
    header, record = (json.loads(line) for line in path.read_text().splitlines())
    attack = "\x1b]0;pwned\x07\x1b[2J\nforged line"
    failed = {key: record[key] for key in ("index", "seed", "labels")} | {"error": attack}
    path.write_text(json.dumps(header) + "\n" + json.dumps(failed) + "\n")
    status, out, err = run("arena", "tiki_topple", *QUICK, "--out", str(path), "--resume")
    assert status == 1  # a game failed: reported, with its seed
    assert "game 0" in err and "\\x1b]0;pwned\\x07\\x1b[2J\\nforged line" in err
    for text in (out, err):
        assert "\x1b" not in text and "\x07" not in text and "\nforged" not in text


# selfplay --out DIR


@posix_only
def test_selfplay_out_that_cannot_be_a_directory_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    file = tmp_path / "file"
    file.write_text("mine\n")
    for path in ("/proc/x", str(file), str(file / "sub"), "/proc/x/y"):
        status, _, err = run("selfplay", "tiki_topple", *QUICK, "--out", path)
        assert_refused(status, err)
    assert file.read_text() == "mine\n"


def test_selfplay_resume_over_a_manifest_that_is_not_one_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    for text in ("[1, 2]", "{", '"x"', "{}"):
        (tmp_path / "selfplay.json").write_text(text)
        status, _, err = run("selfplay", "tiki_topple", *QUICK, "--out", str(tmp_path), "--resume")
        assert_refused(status, err)


def test_a_failed_selfplay_game_is_exit_status_1_and_printed_escaped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def failing(*args: object, **kwargs: object) -> None:
        raise SelfPlayError(3, 7, "RuntimeError: \x1b]0;pwned\x07\x1b[2J", "Traceback …")

    monkeypatch.setattr(tikigames.cli, "selfplay", failing)
    status, out, err = run("selfplay", "tiki_topple", *QUICK, "--out", str(tmp_path / "d"))
    assert status == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("tikigames: game 3 (seed 7) failed: RuntimeError: \\x1b]0;pwned")
    assert "\x1b" not in err and "\x07" not in err


# render FILE


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "tikigames-obs/1", "game": "tiki_topple", "options": 5}',
        '{"format": "tikigames-obs/1", "game": "tiki_topple", "options": [1]}',
        '{"format": "tikigames-obs/1", "game": 7}',
        '{"format": "tikigames-obs/1", "game": "tiki_topple", "options": {"bogus": 1}}',
        '{"format": "tikigames-obs/1", "game": "tiki_topple"}',
        '{"format": "tikigames/1", "game": "tiki_topple", "options": 5}',
        "[" * 100_000 + "]" * 100_000,  # deeper than Python's recursion
        "[1, 2]",
        "",
    ],
)
def test_render_of_a_bad_file_is_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "saved.json"
    path.write_text(text)
    assert_refused(*run("render", str(path))[::2], "saved.json")


def test_render_of_a_file_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"game": "caf\xe9"}')
    for path in (tmp_path, tmp_path / "missing.json", tmp_path / "latin1.json"):
        assert_refused(*run("render", str(path))[::2], str(path))


def test_render_to_a_path_that_cannot_be_written_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(tikigames.load("tiki_topple").new_initial_state().to_json()))
    for target in (tmp_path, tmp_path / "missing" / "x.svg", saved / "x.svg"):
        assert_refused(*run("render", str(saved), "-O", str(target))[::2])
    for player in ("9", "one"):
        assert_refused(*run("render", str(saved), "--player", player)[::2])


# play --svg DIR


def test_play_svg_on_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("mine\n")
    for path in (file, file / "sub"):
        status, _, err = run(
            "play", "tiki_topple", "--players", "random,random", "--svg", str(path)
        )
        assert_refused(status, err, "--svg", str(path))
    assert file.read_text() == "mine\n"


@posix_only
def test_play_svg_follows_no_link_and_overwrites_nothing_it_did_not_write(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "player0.svg").symlink_to(victim)  # our name, but a link
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine\n")  # not our name
    part = tmp_path / "part"
    part.mkdir()
    (part / "player0.svg.part").symlink_to(victim)
    (tmp_path / "link").symlink_to(tmp_path / "empty", target_is_directory=True)
    (tmp_path / "empty").mkdir()
    for directory, words in (
        (planted, ["player0.svg", "did not write"]),
        (foreign, ["notes.txt", "did not write"]),
        (part, ["player0.svg.part"]),
        (tmp_path / "link", ["symbolic link"]),
    ):
        status, _, err = run("play", "tiki_topple", "--players", "human,random",
                             "--svg", str(directory), stdin=io.StringIO(CARDS))  # fmt: skip
        assert_refused(status, err, "--svg", *words)
    assert victim.read_text() == "mine\n"
    assert (foreign / "notes.txt").read_text() == "mine\n"
    assert list((tmp_path / "empty").iterdir()) == []


class _Planting(io.StringIO):
    """A human's input that, before each line, plants links to ``victim`` under the names the
    pictures are written to, as another user of a shared directory could."""

    def __init__(self, text: str, directory: Path, victim: Path) -> None:
        super().__init__(text)
        self.directory = directory
        self.victim = victim
        self.planted = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed
        for name in ("player0.svg", "player0.svg.part"):
            target = self.directory / name
            if target.exists() or target.is_symlink():
                target.unlink()
            target.symlink_to(self.victim)
            self.planted += 1
        return super().readline(-1 if size is None else size)


@posix_only
def test_play_svg_writes_through_no_link_planted_while_it_plays(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    pictures = tmp_path / "pictures"
    stdin = _Planting(CARDS * 30, pictures, victim)
    status, _, err = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                         "-o", "rounds=1", "--svg", str(pictures), stdin=stdin)  # fmt: skip
    assert status == 0, err
    assert stdin.planted > 0 and victim.read_text() == "mine\n"
    svg = pictures / "player0.svg"
    assert not svg.is_symlink() and svg.read_text().startswith("<svg")


def test_play_svg_writes_again_in_its_own_directory(tmp_path: Path) -> None:
    pictures = tmp_path / "new" / "pictures"  # created, with its parents
    for _ in range(2):  # the second run finds only files of the first: they are replaced
        status, _, err = run("play", "tiki_topple", "--players", "random,random", "--seed", "2",
                             "-o", "rounds=1", "--svg", str(pictures))  # fmt: skip
        assert status == 0, err
        assert sorted(p.name for p in pictures.iterdir()) == ["spectator.html", "spectator.svg"]
    if sys.platform != "win32":
        assert (pictures / "spectator.svg").stat().st_mode & 0o777 == 0o644 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
