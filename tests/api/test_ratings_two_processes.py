"""Ratings with two server processes on one PostgreSQL database (SPEC §14): one player's
games finishing at the same moment through both processes are each rated once, one
after the other (no update lost), and rerate agrees with what they left.

PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.cli import main
from corridorquest.store.models import GameRating, User, UserRating
from tests.support.finishing_games import TWO_PLAYER_SCRIPT
from tests.support.games import play
from tests.support.rated_games import in_store, seeded_game
from tests.support.scale_out import ON_POSTGRESQL, second_api
from tests.support.server import (
    RunningServer,
)
from tests.support.users import insert_user

pytestmark = [
    ON_POSTGRESQL,
    pytest.mark.slow,
]
GAMES = 8


@pytest.fixture(scope="module")
def second(server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The /api/v1 URL of a second server process on the first one's database."""
    with second_api(server.database_url, tmp_path_factory.mktemp("second")) as api:
        yield api


def rows(url: str) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return {
            "users": sorted((r.user_id, r.pool, r.rating, r.deviation, r.volatility, r.games)
                            for r in UserRating.select()),
            "games": [(r.game_id, r.user_id, r.rating_before, r.rating_after, r.deviation_after)
                      for r in GameRating.select().order_by(GameRating.id)],
        }

    found: dict[str, Any] = in_store(url, read)
    return found


def test_one_players_games_finishing_at_once_on_two_processes_are_each_rated_once(
    server: RunningServer, client: httpx.Client, second: str
) -> None:
    url = server.database_url
    opponents = [f"tp{i}" for i in range(GAMES)]
    tokens = {name: insert_user(url, name) for name in ["tpstar", *opponents]}
    almost: list[tuple[dict[str, Any], str]] = []
    for name in opponents:  # tpstar (South) one move from winning each game
        game = seeded_game(client, url, tokens, [name, "tpstar"], 5)
        for seat, kind, to in TWO_PLAYER_SCRIPT[:-1]:
            token = tokens["tpstar"] if seat == "south" else tokens[name]
            response = play(client, token, game["id"], kind, to)
            assert response.status_code == 201, response.text
        almost.append((game, name))
    start = threading.Barrier(GAMES)
    answers: list[int] = []

    def finish_one(index: int) -> None:
        game, _ = almost[index]
        base = server.api if index % 2 == 0 else second
        with httpx.Client(base_url=base, timeout=30.0) as http:
            start.wait()
            _, kind, to = TWO_PLAYER_SCRIPT[-1]
            answers.append(play(http, tokens["tpstar"], game["id"], kind, to).status_code)

    threads = [threading.Thread(target=finish_one, args=(i,)) for i in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == [201] * GAMES
    incremental = rows(url)
    star = in_store(url, lambda: User.get(User.username == "tpstar").id)
    mine = [row for row in incremental["games"] if row[1] == star]
    assert len(mine) == GAMES and len(incremental["games"]) == 2 * GAMES
    # one after the other: each game starts from the rating the previous one left
    for earlier, later in zip(mine, mine[1:], strict=False):
        assert later[2] == earlier[3]
    assert [u for u in incremental["users"] if u[0] == star][0][5] == GAMES
    result = CliRunner().invoke(main, ["rerate"], env={"DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    assert rows(url) == incremental
