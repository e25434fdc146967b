"""``tikigames bench`` and :mod:`tikigames.bench`: a benchmark, so these tests check that every
figure is there, positive and finite, and how the run is reported (JSON, progress, the
comparison with OpenSpiel and python-chess) — never a speed. Kept fast: tiny ``--seconds``, one
round."""

from __future__ import annotations

import io
import json
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.bench import FIGURES, OPENSPIEL_YARDSTICKS, Meter, bench, bench_game, in_turns
from tikigames.cli import main

TINY = ("--seconds", "0.01", "--rounds", "1")
RUN_KEYS = {"environment", "seconds", "rounds", "games", "samples"}
ENVIRONMENT_KEYS = {"tikigames", "compiled", "python", "implementation", "platform", "cpus"}


class Recording(io.StringIO):
    """A stream that keeps what had been written at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[str] = []

    def flush(self) -> None:
        self.flushed.append(self.getvalue())


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["bench", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_figures(figures: dict[str, Any]) -> None:
    assert set(figures) == set(FIGURES)
    for key, value in figures.items():
        assert isinstance(value, float) and math.isfinite(value) and value > 0, (key, value)


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_every_figure_of_every_game_is_positive_and_finite(name: str) -> None:
    result = bench_game(tikigames.load(name), seconds=0.01, rounds=1)
    assert result.name == name
    assert_figures(result.figures)
    assert {key: len(values) for key, values in result.samples.items()} == dict.fromkeys(FIGURES, 1)


def test_figures_are_the_medians_of_the_rounds() -> None:
    result = bench_game(tikigames.load("tiki_topple"), seconds=0.01, rounds=3, seed=4)
    for key, values in result.samples.items():
        assert len(values) == 3
        assert result.figures[key] == statistics.median(values)


def test_bad_settings_are_refused() -> None:
    game = tikigames.load("tiki_topple")
    with pytest.raises(ValueError, match="seconds"):
        bench_game(game, seconds=0)
    with pytest.raises(ValueError, match="rounds"):
        bench_game(game, seconds=0.01, rounds=0)
    for argv in (["--seconds", "0"], ["--seconds", "nan"], ["--rounds", "0"], ["--rounds", "x"]):
        with pytest.raises(SystemExit) as exited:
            run("tiki_topple", *argv)
        assert exited.value.code == 2


def test_json_has_the_documented_keys_and_progress_goes_to_stderr() -> None:
    status, out, err = run("tiki_topple", *TINY, "--json")
    assert status == 0
    data = json.loads(out)  # stdout holds the JSON only
    assert set(data) == RUN_KEYS
    environment = data["environment"]
    assert set(environment) == ENVIRONMENT_KEYS
    assert environment["compiled"] is tikigames.compiled
    assert environment["python"] == platform.python_version()
    assert environment["tikigames"] == tikigames.__version__
    assert data["seconds"] == 0.01 and data["rounds"] == 1
    assert list(data["games"]) == ["tiki_topple"]
    assert_figures(data["games"]["tiki_topple"])
    assert data["samples"]["tiki_topple"]["clone_us"] == [data["games"]["tiki_topple"]["clone_us"]]
    lines = err.splitlines()
    assert lines[0].startswith(f"tikigames {tikigames.__version__}, tikigames.compiled = ")
    assert f"Python {platform.python_version()}" in lines[0]
    assert lines[-1].startswith("tiki_topple ")


def test_progress_is_printed_from_the_start_a_line_at_a_time() -> None:
    out = Recording()
    status = main(["bench", "tiki_topple", *TINY], stdout=out, stderr=io.StringIO())
    assert status == 0
    lines = out.getvalue().splitlines()
    # The build and the Python version first, then the table; every line flushed as it comes.
    assert f"tikigames.compiled = {tikigames.compiled}" in lines[0]
    assert "Python " in lines[0] and "medians of 1 round" in lines[1]
    assert out.flushed == [
        "".join(line + "\n" for line in lines[: i + 1]) for i in range(len(lines))
    ]
    head, row = lines[-2].split(), lines[-1].split()
    assert head[:3] == ["game", "playout/s", "fast/s"] and row[0] == "tiki_topple"
    assert len(row) == 14  # the name and every figure


def test_progress_reports_each_game_as_it_is_measured() -> None:
    seen: list[tuple[str, float]] = []
    result = bench(
        ["tiki_topple", "tactik"],
        seconds=0.01,
        rounds=1,
        progress=lambda line: seen.append((line, time.perf_counter())),
    )
    assert [r.name for r in result.games] == ["tiki_topple", "tactik"]
    (first, told), (second, last) = seen[-2:]
    assert first.split()[0] == "tiki_topple" and second.split()[0] == "tactik"
    # Tiki Topple was reported before Tac-Tik was measured: at least four rates of 0.01 s each.
    assert last - told >= 0.04
    assert result.comparison is None and "compare" not in result.to_json()


def test_progress_says_which_game_is_measured_as_an_event() -> None:
    events: list[tuple[str, str | None]] = []
    bench(
        ["tiki_topple", "tactik"],
        seconds=0.01,
        rounds=1,
        progress=lambda line: events.append(("line", line.split()[0] if line else "")),
        measuring=lambda name: events.append(("measuring", name)),
    )
    # Each game is announced after the table's head (or the previous game's line), before its
    # own line; then the end of the measuring.
    assert events[2:] == [
        ("line", "game"),
        ("measuring", "tiki_topple"),
        ("line", "tiki_topple"),
        ("measuring", "tactik"),
        ("line", "tactik"),
        ("measuring", None),
    ]


class Terminal(io.StringIO):
    """A stream that says it is a terminal: the status line is drawn on it."""

    def isatty(self) -> bool:
        return True


def test_the_status_line_names_the_game_being_measured() -> None:
    out = Terminal()
    assert main(["bench", "tiki_topple", *TINY], stdout=out, stderr=io.StringIO()) == 0
    text = out.getvalue()
    assert "\r  measuring tiki_topple… 0 s" in text
    # Blanked out before each line and at the end: the lines themselves stay whole.
    assert text.endswith("\r")
    assert "\rtiki_topple " in text and "\ngame " in text


def test_rates_compared_with_a_yardstick_are_measured_in_slices_taken_in_turn() -> None:
    # The yardsticks' and the game's rates interleave, so that the machine's drift reaches both.
    calls: list[tuple[str, float]] = []

    def counter(name: str, counted: int) -> Any:
        def measure(seconds: float, rng: random.Random) -> tuple[int, float, int]:
            calls.append((name, seconds))
            return counted, seconds, 2

        return measure

    yardstick = Meter(counter("yardstick", 30), random.Random(0))
    game = Meter(counter("game", 5), random.Random(0))
    in_turns([yardstick, game], 1.0)
    assert [name for name, _ in calls] == ["yardstick", "game"] * 10
    assert all(seconds == pytest.approx(0.1) for _, seconds in calls)
    assert yardstick.rate == pytest.approx(300) and game.rate == pytest.approx(50)
    assert game.per_game == pytest.approx(2.5)  # 50 counted over 20 games
    calls.clear()
    in_turns([yardstick, game], 0.01)  # shorter than a slice: one slice each
    assert calls == [("yardstick", 0.01), ("game", 0.01)]


def test_help_defines_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bench", "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    for option in ("--seconds", "--rounds", "--compare", "--json"):
        assert option in text
    for key in FIGURES:
        assert f"{key}: " in text


def test_compare_with_openspiel_and_python_chess() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("chess")
    status, out, err = run("tiki_topple", *TINY, "--compare", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == RUN_KEYS | {"compare"}
    compare = data["compare"]
    assert set(compare) == {"openspiel", "chess", "multiples", "missing", "paired"}
    assert compare["missing"] == []
    openspiel = compare["openspiel"]
    assert isinstance(openspiel["version"], str) and list(openspiel["games"]) == list(
        OPENSPIEL_YARDSTICKS
    )
    for figures in openspiel["games"].values():
        assert set(figures) == {"openspiel_style_per_s", "mean_game_length"}
        assert all(math.isfinite(value) and value > 0 for value in figures.values())
    chess = compare["chess"]
    assert isinstance(chess["version"], str)
    assert math.isfinite(chess["legal_per_s"]) and chess["legal_per_s"] > 0
    # Each multiple: the median over the game's rounds of its rate over the yardstick's rate
    # measured in turns with it, in the same round.
    samples = data["samples"]["tiki_topple"]
    paired = compare["paired"]["tiki_topple"]
    assert set(paired) == {*OPENSPIEL_YARDSTICKS, "chess"}
    assert all(len(rates) == data["rounds"] for rates in paired.values())
    multiples = compare["multiples"]["tiki_topple"]
    assert set(multiples) == {*OPENSPIEL_YARDSTICKS, "chess"}

    def median_ratio(key: str, yardstick: str) -> float:
        return float(
            statistics.median(a / b for a, b in zip(samples[key], paired[yardstick], strict=True))
        )

    for name in openspiel["games"]:
        for key in ("openspiel_style_per_s", "library_style_per_s"):
            assert multiples[name][key] == pytest.approx(median_ratio(key, name))
    assert multiples["chess"]["legal_per_s"] == pytest.approx(median_ratio("legal_per_s", "chess"))
    # A yardstick's figure is its median over every round of the run.
    assert openspiel["games"]["maedn"]["openspiel_style_per_s"] == pytest.approx(
        statistics.median(paired["maedn"])
    )
    for name in (*OPENSPIEL_YARDSTICKS, "python-chess", "as multiples"):
        assert name in err


def test_compare_without_a_game_measures_the_yardsticks_alone() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("chess")
    lines: list[str] = []
    run_ = bench([], seconds=0.01, rounds=2, compare=True, progress=lines.append)
    assert run_.games == [] and run_.comparison is not None
    assert run_.comparison.openspiel is not None and run_.comparison.chess is not None
    for reference in run_.comparison.openspiel:
        assert len(reference.samples["openspiel_style_per_s"]) == 2
        assert reference.figures["openspiel_style_per_s"] > 0
    assert run_.comparison.chess.figures["legal_per_s"] > 0
    assert any(line.startswith("python_tic_tac_toe (Python)") for line in lines)
    assert not any(line.startswith("as multiples") for line in lines)  # no game to divide


def test_compare_as_text_gives_each_game_as_multiples() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("chess")
    status, out, _ = run("tiki_topple", *TINY, "--compare")
    assert status == 0
    lines = out.splitlines()
    assert "tikigames.compiled" in lines[0]
    assert lines[2].split()[0] == "game" and lines[3].split()[0] == "tiki_topple"
    # The yardsticks, measured with the game's rounds, follow the games.
    assert lines[4] == "" and lines[5].split() == ["yardstick", "playout/s", "legal/s"]
    assert lines[6].startswith("python_tic_tac_toe (Python)")
    table = lines[lines.index("", 5) + 2 :]
    assert table[0].split() == ["game", *OPENSPIEL_YARDSTICKS, "python-chess"]
    row = table[1].split()
    assert row[0] == "tiki_topple" and len(row) == 1 + 3 * 3 + 1  # "a / b" per OpenSpiel game
    assert all(cell.endswith("x") for cell in row[1:] if cell != "/")


def test_compare_says_what_to_install_when_a_package_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    monkeypatch.setitem(sys.modules, "chess", None)
    status, out, err = run("tiki_topple", *TINY, "--compare", "--json")
    assert status == 0
    for package in ("open_spiel", "chess"):
        assert f"{package} is not installed, so --compare leaves it out" in err
        assert f"pip install {package}" in err
    compare = json.loads(out)["compare"]
    assert compare["openspiel"] is None and compare["chess"] is None
    assert compare["missing"] == ["open_spiel", "chess"]
    assert compare["multiples"] == {"tiki_topple": {}}


def test_the_docs_define_every_figure() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "performance.rst").read_text()
    for key in FIGURES:
        assert f"``{key}``" in page, key
