"""Ratings across kill -9 (SPEC §14): the server is killed while many finishing moves are
in flight; after the restart every finished game is rated exactly once, no game that is
still going is rated, the finishing moves that were lost can be played again and rate
their games then, and rerate agrees with the result. SQLite; PostgreSQL too when
CQ_TEST_DATABASE_URL is set."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.cli import main
from corridorquest.store.models import Game, GameRating, User, UserRating
from tests.support.finishing_games import TWO_PLAYER_SCRIPT
from tests.support.games import play
from tests.support.rated_games import in_store, seeded_game
from tests.support.server import free_port, fresh_database, server_env, start_process, stop
from tests.support.server import wait_until_up as wait_up
from tests.support.users import insert_user

GAMES = 12


def stored(url: str) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        rated: dict[int, int] = {}
        for row in GameRating.select():
            rated[row.game_id] = rated.get(row.game_id, 0) + 1
        return {
            "finished": {g.id for g in Game.select().where(Game.status == "finished")},
            "rated": rated,
            "games": {r.user_id: r.games for r in UserRating.select()},
            "rows": sorted((r.user_id, r.rating, r.deviation, r.volatility, r.games)
                           for r in UserRating.select()),
        }

    found: dict[str, Any] = in_store(url, read)
    return found


@pytest.mark.slow
def test_a_kill_during_finishing_moves_rates_each_finished_game_once(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as url:
        port = free_port()
        process, log_path = start_process(tmp_path, server_env(tmp_path, url, port))
        base = f"http://127.0.0.1:{port}"
        try:
            wait_up(base, process, log_path)
            names = [f"kr{i}" for i in range(GAMES + 1)]
            tokens = {name: insert_user(url, name) for name in names}
            almost: list[dict[str, Any]] = []
            with httpx.Client(base_url=base + "/api/v1", timeout=10.0) as client:
                for i in range(GAMES):  # kr{i+1} (South) one move from beating kr{i}
                    loser, winner = names[i], names[i + 1]
                    game = seeded_game(client, url, tokens, [loser, winner], 5)
                    for seat, kind, to in TWO_PLAYER_SCRIPT[:-1]:
                        token = tokens[winner if seat == "south" else loser]
                        answer = play(client, token, game["id"], kind, to)
                        assert answer.status_code == 201, answer.text
                    almost.append({"id": game["id"], "winner": winner})
            answered: dict[int, int] = {}

            def finish(game: dict[str, Any], delay: float) -> None:
                time.sleep(delay)
                _, kind, to = TWO_PLAYER_SCRIPT[-1]
                try:
                    with httpx.Client(base_url=base + "/api/v1", timeout=10.0) as http:
                        answer = play(http, tokens[game["winner"]], game["id"], kind, to)
                    answered[game["id"]] = answer.status_code
                except httpx.HTTPError:
                    pass  # killed: this move may or may not have been stored

            threads = [threading.Thread(target=finish, args=(g, 0.015 * i), daemon=True)
                       for i, g in enumerate(almost)]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 5
            while len(answered) < GAMES // 3 and time.monotonic() < deadline:
                time.sleep(0.001)
            process.kill()  # SIGKILL, with finishing moves in flight
            process.wait(10)
            for thread in threads:
                thread.join(20)
        finally:
            stop(process)

        after = stored(url)
        acknowledged = {g for g, status in answered.items() if status == 201}
        assert acknowledged and acknowledged <= after["finished"]  # none lost
        assert set(after["rated"]) == after["finished"]  # finished <=> rated
        assert all(count == 2 for count in after["rated"].values())  # once each

        again = tmp_path / "again"
        again.mkdir()
        port = free_port()
        process, log_path = start_process(again, server_env(tmp_path, url, port))
        base = f"http://127.0.0.1:{port}"
        try:
            wait_up(base, process, log_path)
            with httpx.Client(base_url=base + "/api/v1", timeout=10.0) as client:
                for game in almost:
                    _, kind, to = TWO_PLAYER_SCRIPT[-1]
                    answer = play(client, tokens[game["winner"]], game["id"], kind, to)
                    expected = 409 if game["id"] in after["finished"] else 201
                    assert answer.status_code == expected, answer.text
        finally:
            stop(process)
        final = stored(url)
        assert set(final["rated"]) == final["finished"] == {g["id"] for g in almost}
        assert all(count == 2 for count in final["rated"].values())
        ends = {name: 0 for name in names}
        for i in range(GAMES):
            ends[names[i]] += 1
            ends[names[i + 1]] += 1
        by_id = in_store(url, lambda: {n: User.get(User.username == n).id for n in names})
        assert final["games"] == {by_id[n]: count for n, count in ends.items()}
        result = CliRunner().invoke(main, ["rerate"], env={"DATABASE_URL": url})
        assert result.exit_code == 0, result.output
        assert stored(url)["rows"] == final["rows"]
