"""`corridorquest rerate` (SPEC §14): recomputing every rating from the stored games ends
exactly where the game-by-game updates ended; the real server, real SQLite, the real CLI.
A guest's games stay unrated after the guest becomes an account (each game says whether
its finish rated it: `game.rated`, migration step 26 filling it for older games)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.cli import main
from corridorquest.store.models import Game, GameRating, SchemaVersion, UserRating, utcnow
from tests.support.games import play
from tests.support.rated_games import duel, four_player, in_store, seeded_game
from tests.support.server import (
    RunningServer,
    free_port,
    fresh_database,
    running_server,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
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


RATED_STEP = 26


@contextmanager
def guests_serving(tmp_path: Path, database_url: str) -> Iterator[httpx.Client]:
    """The real server with GUESTS=on on `database_url` (migrating it on start)."""
    tmp_path.mkdir()
    port = free_port()
    env = server_env(tmp_path, database_url, port, GUESTS="on")
    process, log_path = start_process(tmp_path, env)
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_until_up(base_url, process, log_path)
        with httpx.Client(base_url=base_url + "/api/v1", timeout=10.0) as client:
            yield client
    finally:
        stop(process)


def rerate(url: str) -> str:
    result = CliRunner().invoke(main, ["rerate"], env={"DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    return result.output.strip()


def test_a_guest_made_an_account_keeps_its_old_games_unrated_through_rerate(
    tmp_path: Path,
) -> None:
    with fresh_database(tmp_path) as url:
        with guests_serving(tmp_path / "first", url) as client:
            tokens = {name: insert_user(url, name) for name in ("gra", "grb")}
            admin = insert_user(url, "gradmin", is_admin=True)
            guest = client.post("/guests", json={"username": "grgwen"})
            assert guest.status_code == 201, guest.text
            tokens["grgwen"] = guest.json()["token"]
            duel(client, url, tokens, loser="grb", winner="gra")  # rated
            with_guest = duel(client, url, tokens, loser="grgwen", winner="gra")  # unrated
            ratings = client.get(f"/games/{with_guest['id']}/ratings",
                                 headers=auth(tokens["gra"])).json()
            assert ratings["rated"] is False
            before = snapshot(url)
            converted = client.post("/admin/users/grgwen/convert",
                                    json={"email": "gwen@example.test"}, headers=auth(admin))
            assert converted.status_code == 200, converted.text
            assert rerate(url) == "rerated 1 finished game"
            assert snapshot(url) == before  # gra's rating as it was, gwen still unrated
            ratings = client.get(f"/games/{with_guest['id']}/ratings",
                                 headers=auth(tokens["gra"])).json()
            assert ratings["rated"] is False
        # A database from before step 26: its games do not say; the step fills it in
        # from the ratings tables (the game with gwen has no game_rating rows).
        in_store(url, lambda: Game.update(rated=None).execute())
        in_store(url, lambda: SchemaVersion.delete().where(
            SchemaVersion.version == RATED_STEP).execute())
        with guests_serving(tmp_path / "second", url):
            rated = in_store(url, lambda: dict(Game.select(Game.id, Game.rated).tuples()))
            assert {game_id: bool(value) for game_id, value in rated.items()} == {
                game_id: game_id != with_guest["id"] for game_id in rated
            }
            assert rerate(url) == "rerated 1 finished game"
            assert snapshot(url) == before
