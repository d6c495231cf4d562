"""cq and scores against the real server: the finished game's scores, `user show
--highscores` and `game leaderboard` with the manual's options and defaults."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tests.client.conftest import runner_in
from tests.client.play_helpers import created_id, play_to_the_end

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["sam", "sue"]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


@pytest.fixture(scope="module")
def finished(players_config: Path) -> dict[str, Any]:
    """A 5x5 two-player game of sam and sue, played to the end through cq."""
    with runner_in(players_config) as cq:
        result = cq("game", "new", "-b", "5", profile="sam")
        assert result.exit_code == 0, result.output
        game_id = created_id(result)
        joined = cq("game", "join", "-g", str(game_id), profile="sue")
        assert joined.exit_code == 0, joined.output
        return play_to_the_end(cq, game_id, PLAYERS, walls_each=1)


def test_a_finished_game_shows_every_players_score(cq: Cq, finished: dict[str, Any]) -> None:
    shown = cq("game", "show", "-g", str(finished["id"]), profile="sue")
    assert shown.exit_code == 0, shown.output
    winner = finished["winner"]
    loser = next(p for p in PLAYERS if p != winner)
    scores = finished["scores"]
    assert scores[winner] > scores[loser]
    assert f"Scores: {winner} {scores[winner]}, {loser} {scores[loser]}" in shown.output


def test_user_show_highscores_lists_the_best_score_per_variant_with_its_game(
    cq: Cq, finished: dict[str, Any]
) -> None:
    for args, name in ((("user", "show", "-s"), "sam"), (("user", "show", "sue",
                                                            "--highscores"), "sue")):
        result = cq(*args, profile="sam")
        assert result.exit_code == 0, result.output
        assert f"Highscores of {name}:" in result.output
        row = next(line for line in result.output.splitlines() if line.startswith("5X5"))
        assert row.split() == ["5X5", "2", "No", "No", str(finished["scores"][name]),
                               str(finished["id"])]
    plain = cq("user", "show", "sue", profile="sam")
    assert "Highscores" not in plain.output


def test_the_leaderboard_of_a_variant_ranks_the_users(cq: Cq, finished: dict[str, Any]) -> None:
    result = cq("game", "leaderboard", "-b", "5", "-n", "2", profile="sue")
    assert result.exit_code == 0, result.output
    assert "Leaderboard: 5x5, 2 players" in result.output
    rows = [line.split() for line in result.output.splitlines() if re.match(r"^\d+\s", line)]
    winner = finished["winner"]
    assert rows[0] == ["1", winner, str(finished["scores"][winner]), str(finished["id"])]
    assert [row[1] for row in rows] == [winner, next(p for p in PLAYERS if p != winner)]


def test_the_leaderboard_defaults_to_9x9_for_2_players_without_modes(cq: Cq) -> None:
    default = cq("game", "leaderboard", profile="sam")
    assert default.exit_code == 0, default.output
    assert "Leaderboard: 9x9, 2 players\nNo finished games" in default.output
    for letter in ("-x", "-i"):  # -x as in game new; -i, the former letter, still works
        modes = cq("game", "leaderboard", "-b", "5", "-m", letter, profile="sam")
        assert "5x5, 2 players, masked and invisible walls" in modes.output
        assert "No finished games" in modes.output
    assert "invisible" not in cq("game", "leaderboard", "-b", "5", "-m", profile="sam").output
    shown = cq("game", "leaderboard", "--help", profile="sam").output
    assert "-x, --invisible-walls" in shown and "-i" not in shown.split()


def test_an_invalid_variant_is_a_usage_error(cq: Cq) -> None:
    for args in (("-b", "6"), ("-n", "3"), ("--board-size", "x")):
        result = cq("game", "leaderboard", *args, profile="sam")
        assert result.exit_code == 2, result.output
