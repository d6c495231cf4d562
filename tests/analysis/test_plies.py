"""The pure analysis: one row per ply, deterministic, mistakes where the evaluation dropped."""

from __future__ import annotations

import pytest

from corridorquest.analysis import MISTAKE_DROP, analyse
from corridorquest.engine import IllegalActionError, NotationError, ReplayError
from tests.support.import_graph import imported_modules

# a 5x5 game the level-2 bots played (south first); north's a5 (ply 26) walks away from
# its goal when c4 was there: the mistake of the game
GAME = ["c2", "d5", "d3h", "c5", "c3", "b5", "a1h", "c5", "b2h", "b5", "b3", "a5", "a2v",
        "a3h", "c3", "a4", "c1h", "b4", "c4", "c4h", "d4", "d4v", "c4", "a4", "b4", "a5", "b5"]
RECORD = {"size": 5, "players": 2, "first": "south", "actions": GAME}


def test_one_row_per_ply_for_the_player_who_moved() -> None:
    rows = analyse(RECORD, level=2)
    assert [row.ply for row in rows] == list(range(1, len(GAME) + 1))
    assert [row.action for row in rows] == GAME
    assert [row.seat for row in rows[:4]] == ["south", "north", "south", "north"]
    assert rows[-1].after == 1000.0  # south's winning step
    assert rows[0].best == "c2"


def test_mistakes_are_where_the_evaluation_dropped() -> None:
    rows = analyse(RECORD, level=2)
    marked = [row.ply for row in rows if row.mistake]
    # a step sideways (b5), a wall behind one's own pawn (c1h: spent for nothing), a step
    # back (a5); the level's search without its noise finds c1h's better (noisy, it did not)
    assert marked == [10, 17, 26]
    for row in rows:
        if row.mistake:
            assert row.after <= row.before - MISTAKE_DROP
            assert row.best_after >= row.after + MISTAKE_DROP
    # a plain step along the path keeps the evaluation
    assert abs(rows[0].after - rows[0].before) < 0.1


def test_deterministic() -> None:
    assert analyse(RECORD, level=2) == analyse(dict(RECORD), level=2)


def test_bad_records_raise_engine_errors() -> None:
    with pytest.raises((IllegalActionError, NotationError, ReplayError)):
        analyse({**RECORD, "actions": ["c2", "c2"]}, level=2)
    with pytest.raises(ValueError):
        analyse({**RECORD, "actions": ["c2"]}, level=9)


def test_analysis_imports_only_the_engine_and_the_bots() -> None:
    import sys

    modules = imported_modules("corridorquest.analysis")
    assert modules
    for module, names in modules.items():
        for name in names:
            top = name.split(".")[0]
            assert name.startswith(("corridorquest.engine", "corridorquest.bots",
                                    "corridorquest.analysis")) or (
                top in sys.stdlib_module_names and top != "corridorquest"
            ), f"{module} imports {name}"


def test_a_missed_one_move_win_is_a_mistake_with_the_win_as_best() -> None:
    # south walks up the c file; on ply 7 it could step onto c5 and win, and steps aside
    actions = ["c2", "b5", "c3", "a5", "c4", "a4", "b4"]
    rows = analyse({"size": 5, "players": 2, "first": "south", "actions": actions}, level=2)
    assert rows[6].best == "c5"
    assert rows[6].best_after == 1000.0
    assert rows[6].mistake
    assert [row.ply for row in rows if row.mistake] == [7]
