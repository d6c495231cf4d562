"""`corridorquest engine perft` prints the reference's numbers and refuses bad input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from corridorquest.cli import main

from .test_perft import MIDGAME, START

ROOT = Path(__file__).resolve().parents[2]
DIVIDE_LINE = re.compile(r"^([a-q](?:[1-9]|1[0-7])[hv]?) (\d+)$")


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "corridorquest", "engine", "perft", *args],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["engine", "perft", *args])
    return result.exit_code, result.stdout, result.stderr


def options(entry: dict[str, object]) -> list[str]:
    return ["--size", str(entry["size"]), "--players", str(entry["players"]),
            "--first", str(entry["first"]), "--moves", str(entry["moves"]),
            "--depth", str(entry["depth"])]


def test_module_prints_the_start_count_of_a_nine_by_nine_game() -> None:
    result = run_module("--size", "9", "--players", "2", "--first", "north", "--depth", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "16677"


def test_module_divide_prints_sorted_action_count_lines() -> None:
    entry = next(e for e in MIDGAME if e["name"] == "2p depth 2 with jump")
    result = run_module(*options(entry), "--divide")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    parsed = [DIVIDE_LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed, strict=True) if not m]
    actions = [m.group(1) for m in parsed if m]
    assert actions == sorted(actions)
    assert {m.group(1): int(m.group(2)) for m in parsed if m} == entry["divide"]


SAMPLE = [e for e in START if e["size"] <= 7 or e["depth"] == 3] + [
    e for e in MIDGAME if e["players"] == 4 or e["name"].startswith("2p")]


@pytest.mark.parametrize("entry", SAMPLE, ids=lambda e: f"{e['name']} d{e['depth']}")
def test_cli_count_matches_the_reference(entry: dict[str, object]) -> None:
    code, out, err = invoke(*options(entry))
    assert code == 0, err
    assert out.strip() == str(entry["count"])


@pytest.mark.parametrize("entry", SAMPLE[:8] + MIDGAME[:6],
                         ids=lambda e: f"{e['name']} d{e['depth']}")
def test_cli_divide_matches_the_reference(entry: dict[str, object]) -> None:
    code, out, err = invoke(*options(entry), "--divide")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert [line.split()[0] for line in lines] == sorted(line.split()[0] for line in lines)
    assert {a: int(n) for a, n in (line.split() for line in lines)} == entry["divide"]


def test_cli_depth_zero_counts_the_position_itself() -> None:
    code, out, _ = invoke("--size", "5", "--depth", "0")
    assert (code, out.strip()) == (0, "1")


def test_cli_finished_game_has_no_legal_actions() -> None:
    entry = next(e for e in MIDGAME if e["name"].startswith("2p winning jumps"))
    code, out, _ = invoke(*options({**entry, "depth": 1}), "--moves",
                          f"{entry['moves']} b5")
    assert (code, out.strip()) == (0, "0")
    code, out, _ = invoke(*options({**entry, "depth": 1}), "--moves",
                          f"{entry['moves']} b5", "--divide")
    assert (code, out.strip()) == (0, "")


def test_cli_moves_take_every_notation_and_commas() -> None:
    results = {invoke("--size", "9", "--moves", moves, "--depth", "2", "--divide")
               for moves in ["e8 e2 e8h", "south north e8h", "down up e8h", "e8,e2,e8h"]}
    assert len(results) == 1
    code, out, _ = results.pop()
    assert code == 0 and len(out.splitlines()) > 100


BAD_INPUT = [
    (["--size", "8"], "8"),
    (["--size", "19"], "19"),
    (["--players", "3"], "3"),
    (["--first", "up"], "up"),
    (["--players", "2", "--first", "east"], "east"),
    (["--moves", "e8 e2 e5"], "e5"),
    (["--moves", "e8 z9"], "z9"),
    (["--moves", "e8 c3x"], "c3x"),
    (["--moves", "a1h a1h"], "a1h"),
    (["--size", "5", "--moves", "c4 c2 c3 a1h c2"], "c2"),
    (["--depth", "-1"], "-1"),
]


@pytest.mark.parametrize(("args", "named"), BAD_INPUT, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else v)
def test_bad_input_is_a_one_line_error_with_exit_code_2(args: list[str], named: str) -> None:
    result = run_module(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert named in lines[0]


def test_a_size_that_is_not_a_number_is_a_one_line_error_too() -> None:
    code, out, err = invoke("--size", "nine")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
