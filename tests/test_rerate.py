"""`corridorquest rerate` (SPEC §14): recomputing every rating from the stored games ends
exactly where the game-by-game updates ended; the real server, real SQLite, the real CLI."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.cli import main
from corridorquest.store.models import Game, GameRating, UserRating, utcnow
from tests.support.games import play
from tests.support.rated_games import duel, four_player, in_store, seeded_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

NAMES = ["ra", "rb", "rc", "rd", "re"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("rerate")) as running:
        yield running


def snapshot(database_url: str) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return {
            "users": sorted(
                (r.user_id, r.pool, r.rating, r.deviation, r.volatility, r.games,
                 r.last_played_at)
                for r in UserRating.select()
            ),
            "games": [
                (r.game_id, r.user_id, r.pool, r.rating_before, r.deviation_before,
                 r.volatility_before, r.rating_after, r.deviation_after, r.volatility_after)
                for r in GameRating.select().order_by(GameRating.id)
            ],
        }

    result: dict[str, Any] = in_store(database_url, read)
    return result


def age(database_url: str, game_id: int, days: int) -> None:
    """As if `game_id` had finished `days` ago: its finish, its ratings' time and its
    players' last game moved back together (the deviation then grows before the next)."""

    def write() -> None:
        then = utcnow() - timedelta(days=days)
        Game.update(finished_at=then).where(Game.id == game_id).execute()
        GameRating.update(at=then).where(GameRating.game == game_id).execute()
        users = [r.user_id for r in GameRating.select().where(GameRating.game == game_id)]
        UserRating.update(last_played_at=then).where(UserRating.user.in_(users)).execute()

    in_store(database_url, write)


def test_rerate_ends_where_the_incremental_updates_ended(
    server: RunningServer, tmp_path: Path
) -> None:
    url = server.database_url
    tokens = {name: insert_user(url, name) for name in NAMES}
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        first = duel(client, url, tokens, loser="ra", winner="rb")
        age(url, first["id"], 40)
        duel(client, url, tokens, loser="rb", winner="rc")
        four_player(client, url, tokens, ["ra", "rb", "rc", "rd"])
        duel(client, url, tokens, loser="rc", winner="ra", private=True)
        duel(client, url, tokens, loser="rd", winner="re")
        four_player(client, url, tokens, ["re", "rd", "rb", "ra"])
        cancelled = seeded_game(client, url, tokens, ["ra", "re"], 5)
        assert play(client, tokens["re"], cancelled["id"], "move", "c2").status_code == 201
        gone = client.delete(f"/games/{cancelled['id']}", headers=auth(tokens["ra"]))
        assert gone.status_code == 200, gone.text
    incremental = snapshot(url)
    assert len(incremental["games"]) == 4 * 2 + 2 * 4
    rb = [row for row in incremental["games"] if row[1] == incremental["games"][1][1]]
    assert rb[1][4] > rb[0][7]  # 40 days idle: rb's deviation grew before its 2nd game

    def scramble() -> None:  # wrong ratings, as a bug might have left them
        UserRating.update(rating=UserRating.rating + 77, games=99).execute()

    in_store(url, scramble)
    result = CliRunner().invoke(main, ["rerate"], env={"DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "rerated 6 finished games"
    assert snapshot(url) == incremental
