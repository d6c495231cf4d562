"""`benchmarks/bots.py --results FILE`: a later run plays only the games the file lacks for
the code they depend on, so re-tuning one level replays that level's games and no others."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs benchmarks/bots.py with level 2's budget optionally changed (as a re-tuning would).
RUNNER = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
from corridorquest.bots.levels import LEVELS
if sys.argv[1] == "retuned":
    LEVELS[2] = LEVELS[2]._replace(noise=LEVELS[2].noise + 0.5)
sys.argv = ["bots.py", *sys.argv[2:]]
import bots
bots.main()
"""


def run_benchmark(tmp_path: Path, levels: str, results: Path) -> str:
    script = tmp_path / "run_bots.py"
    script.write_text(RUNNER.format(root=str(ROOT), bench=str(ROOT / "benchmarks")))
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            levels,
            "--games",
            "2",
            "--tables",
            "rr",
            "--pairs",
            "L1-random,L2-random",
            "--procs",
            "1",
            "--seed",
            "5",
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_a_rerun_plays_only_the_games_of_a_retuned_level(tmp_path: Path) -> None:
    results = tmp_path / "games.jsonl"
    first = run_benchmark(tmp_path, "as-is", results)
    assert "games=4 " in first and "games_from_results_file=0" in first
    assert len(results.read_text().splitlines()) == 4

    again = run_benchmark(tmp_path, "as-is", results)
    assert "games_from_results_file=4" in again  # nothing played twice
    assert again.split("\n", 1)[1] == first.split("\n", 1)[1]  # the same table

    retuned = run_benchmark(tmp_path, "retuned", results)
    assert "games_from_results_file=2" in retuned  # level 1's games kept, level 2's replayed
    assert len(results.read_text().splitlines()) == 6

    back = run_benchmark(tmp_path, "as-is", results)
    assert "games_from_results_file=4" in back  # the file keeps each version's games
