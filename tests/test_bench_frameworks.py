"""``tikigames bench --frameworks`` and :mod:`tikigames.bench_frameworks`: a benchmark, so these
tests check that every figure is there, positive and finite, and how the run is reported (the
table, the JSON, what is left out) — never a speed. A tiny time budget keeps them fast."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import tikigames
from tikigames.bench_frameworks import (
    OPENSPIEL_PYTHON_GAMES,
    PETTINGZOO_GAMES,
    FrameworkRate,
    bench_frameworks,
)
from tikigames.cli import main

TINY: dict[str, Any] = {"seconds": 0.005, "rounds": 1}


def _positive(rate: FrameworkRate) -> None:
    assert math.isfinite(rate.steps_per_s) and rate.steps_per_s > 0, rate
    assert rate.samples and all(value > 0 for value in rate.samples), rate
    assert rate.mean_length is None or rate.mean_length >= 1, rate


def test_every_game_and_every_installed_framework_game_is_measured() -> None:
    lines: list[str] = []
    run = bench_frameworks(seed=3, progress=lines.append, **TINY)
    pettingzoo = {rate.name: rate for rate in run.rates if rate.framework == "pettingzoo"}
    assert [name for name, rate in pettingzoo.items() if rate.tikigames] == list(tikigames.GAMES)
    own = {name for name, rate in pettingzoo.items() if not rate.tikigames}
    left_out = {line.split()[0] for line in run.missing}
    assert own | (set(PETTINGZOO_GAMES) & left_out) == set(PETTINGZOO_GAMES)
    openspiel = {rate.name: rate for rate in run.rates if rate.framework == "openspiel"}
    if run.versions["open_spiel"] is not None:
        assert set(OPENSPIEL_PYTHON_GAMES) <= set(openspiel) | left_out
    for rate in run.rates:
        _positive(rate)
        assert any(line.startswith(rate.name) for line in lines), rate.name
    assert any("PettingZoo" in line for line in lines)
    for line in run.missing:
        assert f"left out: {line}" in lines


def test_the_json_holds_every_figure() -> None:
    run = bench_frameworks(["tiki_topple"], **TINY)
    data = json.loads(json.dumps(run.to_json()))
    assert {"environment", "seconds", "rounds", "versions", "missing"} <= set(data)
    assert data["pettingzoo"]["tiki_topple"]["tikigames"] is True
    assert data["pettingzoo"]["tiki_topple"]["steps_per_s"] > 0
    assert sum(len(data[part]) for part in ("pettingzoo", "openspiel")) == len(run.rates)


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="seconds"):
        bench_frameworks(seconds=0)
    with pytest.raises(ValueError, match="rounds"):
        bench_frameworks(rounds=0)


def test_the_command_prints_the_table_and_the_json() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["bench", "tiki_topple", "--frameworks", "--seconds", "0.005", "--rounds", "1"]
    assert main(argv, stdout=out, stderr=err) == 0
    table = out.getvalue()
    assert "steps/s" in table and "\ntiki_topple " in table
    out, err = io.StringIO(), io.StringIO()
    assert main([*argv, "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["pettingzoo"]["tiki_topple"]["steps_per_s"] > 0
    assert "steps/s" in err.getvalue()  # the progress went to stderr


def test_each_part_is_announced_as_an_event() -> None:
    parts: list[str | None] = []
    bench_frameworks(["tiki_topple"], measuring=parts.append, **TINY)
    assert parts == ["PettingZoo", "OpenSpiel", None]
