"""cq and ratings against the real server: two players play a game to the end through cq
and see their ratings move in `user show`, the change in `game show`, and the
leaderboard by rating (`game leaderboard --rating`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from corridorquest.store.models import User, UserRating, utcnow
from tests.client.conftest import runner_in
from tests.client.play_helpers import created_id, play_to_the_end
from tests.support.rated_games import in_store
from tests.support.server import RunningServer

pytestmark = pytest.mark.backend_neutral  # cq's output; ratings on both: tests/api

Cq = Callable[..., Result]
PLAYERS = ["rina", "rolf"]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def rating_lines(cq: Cq, *args: str) -> list[str]:
    result = cq("user", "show", *args, profile="rina")
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if line.startswith("Rating,")]


@pytest.fixture(scope="module")
def finished(players_config: Path) -> dict[str, Any]:
    with runner_in(players_config) as cq:
        before = rating_lines(cq)
        assert before == ["Rating, 2 players: 1500? (deviation 350, 0 games)",
                          "Rating, 4 players: 1500? (deviation 350, 0 games)"]
        result = cq("game", "new", "-b", "5", profile="rina")
        assert result.exit_code == 0, result.output
        game_id = created_id(result)
        joined = cq("game", "join", "-g", str(game_id), profile="rolf")
        assert joined.exit_code == 0, joined.output
        return play_to_the_end(cq, game_id, PLAYERS, walls_each=1)


def test_user_show_has_both_pools_and_the_move_of_the_game(
    cq: Cq, finished: dict[str, Any]
) -> None:
    winner = finished["winner"]
    loser = next(p for p in PLAYERS if p != winner)
    won = rating_lines(cq, winner)[0]
    lost = rating_lines(cq, loser)[0]
    assert won.startswith("Rating, 2 players: 1662? (deviation 290, 1 game, last game +162)")
    assert lost.startswith("Rating, 2 players: 1338? (deviation 290, 1 game, last game -162)")
    assert rating_lines(cq, winner)[1] == "Rating, 4 players: 1500? (deviation 350, 0 games)"
    assert rating_lines(cq)[0] in (won, lost)  # yourself too


def test_game_show_of_a_finished_game_shows_each_players_change(
    cq: Cq, finished: dict[str, Any]
) -> None:
    shown = cq("game", "show", "-g", str(finished["id"]), profile="rolf")
    assert shown.exit_code == 0, shown.output
    rows = {line.split()[0]: line.split() for line in shown.output.splitlines()[-2:]}
    assert "Ratings (2 players):" in shown.output
    assert rows[finished["winner"]][1:] == ["1500?", "1662?", "+162"]


def test_the_leaderboard_by_rating(
    cq: Cq, finished: dict[str, Any], server: RunningServer
) -> None:
    empty = cq("game", "leaderboard", "--rating", profile="rina")
    assert empty.exit_code == 0, empty.output
    assert "Nobody qualifies yet." in empty.output  # one game each: provisional

    def settle() -> None:
        user = User.get(User.username == "rolf")
        UserRating.update(rating=1720.4, deviation=70, games=20,
                          last_played_at=utcnow() - timedelta(days=3)).where(
            (UserRating.user == user.id) & (UserRating.pool == "2p")).execute()

    in_store(server.database_url, settle)
    board = cq("game", "leaderboard", "--rating", "--pool", "2p", profile="rina")
    assert board.exit_code == 0, board.output
    assert board.output.splitlines()[-1].split() == ["1", "rolf", "1720", "70", "20"]
    short = cq("leaderboard", "--rating", "--pool", "2p", profile="rina")  # as the issue says
    assert (short.exit_code, short.output) == (0, board.output)
    four = cq("game", "leaderboard", "-r", "--pool", "4p", profile="rina")
    assert "4 players" in four.output and "Nobody qualifies yet." in four.output
    for bad in (("--pool", "3p", "-r"), ("--pool", "4p")):
        refused = cq("game", "leaderboard", *bad, profile="rina")
        assert refused.exit_code == 2, refused.output
