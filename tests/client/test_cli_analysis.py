"""cq game analyse against the real server (issue 31 item 3): a finished 5x5 game's table,
one row per ply, mistakes marked as the server stored them; a game in play is refused."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from click.testing import Result

from tests.client.play_helpers import created_id, game_json, play_to_the_end

Cq = Callable[..., Result]
PLAYERS = ["anlyann", "anlyben", "anlycat"]
INSERT_PLAYERS = True


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def new_started(cq: Cq) -> int:
    created = cq("game", "new", "-b", "5", profile="anlyann")
    assert created.exit_code == 0, created.output
    game = created_id(created)
    code = game_json(cq, game, "anlyann")["invitation_code"]
    joined = cq("game", "join", "-g", str(game), "-i", code, profile="anlyben")
    assert joined.exit_code == 0, joined.output
    return game


def test_analyse_a_finished_game_prints_one_row_per_ply(cq: Cq) -> None:
    game = new_started(cq)
    play_to_the_end(cq, game, ["anlyann", "anlyben"])
    result = cq("game", "analyse", "-g", str(game), profile="anlycat")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["Ply", "Player", "Action", "Eval", "Change", "Best", "Mistake"]
    as_json = cq("game", "analyse", "-g", str(game), "--json", profile="anlyann")
    assert as_json.exit_code == 0, as_json.output
    plies = json.loads(as_json.output)["plies"]
    record = cq("game", "export", "-g", str(game), "--json", profile="anlyann")
    assert record.exit_code == 0, record.output
    actions = json.loads(record.output)["actions"]  # (turned: the first mover on e1)
    rows = [line for line in lines[1:] if re.match(r"^\d+\s+\S+ \(", line)]
    assert len(rows) == len(plies) == len(actions)
    for line, ply in zip(rows, plies, strict=True):
        assert line.split()[0] == str(ply["ply"])
        assert ply["player"] in line and ply["action"] in line
        assert line.endswith("?? mistake") == ply["mistake"]
    assert rows[-1].split()[4] == "won"
    assert re.search(r"^\d+ mistakes?\. ", result.output, re.M)


def test_analyse_a_game_in_play_is_refused(cq: Cq) -> None:
    game = new_started(cq)
    result = cq("game", "analyse", "-g", str(game), profile="anlyann")
    assert result.exit_code == 4, result.output
    assert "in play" in result.output
