"""`cq` and an imported game's players (issue 48 item 1): `cq game import` of a record with
South "alice", North "Bob Smith" and Result "south"; `cq game show` names both and the
winner, says the game is imported and has no scores, and calls nobody "you" (not even
the user alice of this server, who is not the record's alice); `cq game list` shows the
winner and the names. The server's views: tests/api/test_imported_players.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.client.conftest import runner_in

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both

Cq = Callable[..., Result]
PLAYERS = ["alice", "impcq"]
INSERT_PLAYERS = True
RECORD = (
    '[Size "5"]\n[South "alice"]\n[North "Bob Smith"]\n[Result "south"]\n\n'
    "1. c2 b5 2. c3 b4 3. c4 b3 4. c5\n"
)


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


@pytest.fixture(scope="module")
def imported(players_config: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    target = tmp_path_factory.mktemp("records") / "game.cqr"
    target.write_text(RECORD, encoding="utf-8")
    with runner_in(players_config) as cq:
        result = cq("game", "import", str(target), profile="impcq")
        assert result.exit_code == 0, result.output
        [game_id] = [int(word.rstrip(".")) for word in result.output.split() if word[0].isdigit()]
        return game_id


def test_game_show_names_the_records_players_and_its_winner(cq: Cq, imported: int) -> None:
    for profile in ("impcq", "alice"):
        shown = cq("game", "show", "-g", str(imported), profile=profile)
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        [south] = [line for line in lines if " south " in line and "walls left" in line]
        [north] = [line for line in lines if " north " in line and "walls left" in line]
        assert " alice " in south and south.rstrip().endswith("<- winner")  # no "you"
        assert " Bob Smith " in north and "<-" not in north
        assert "Winner: alice" in lines
        assert "Imported from a record: its players are the record's names, not accounts" in lines
        assert "Scores: none (an imported game counts for no scores or ratings)" in lines
        history = [line.strip() for line in lines[lines.index("Last actions:") + 1:]]
        assert "#7 alice (south) moved to c5" in history
        assert "#6 Bob Smith (north) moved to b3" in history
        assert not any("impcq" in line for line in history)  # not the importer


def test_game_list_shows_the_winner_and_the_players(cq: Cq, imported: int) -> None:
    listed = cq("game", "list", "-s", "finished", profile="impcq")
    assert listed.exit_code == 0, listed.output
    [row] = [line for line in listed.output.splitlines() if line.startswith(f"{imported} ")]
    assert row.split()[-4:] == ["alice", "Bob", "Smith,", "alice"]  # Won By, Players
