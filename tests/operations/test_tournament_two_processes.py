"""Tournament rounds with two server processes on one PostgreSQL database (issue 30): the
last two games of a round end at the same moment, one through each process; both
processes' nudges (and the leader's sweep) try to make the next round: it is made
exactly once, with its games, and nothing else.

PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from corridorquest.store.models import Game, TournamentGame, TournamentRound
from tests.support.rated_games import in_store
from tests.support.scale_out import ON_POSTGRESQL, second_api
from tests.support.server import (
    RunningServer,
)
from tests.support.users import auth, insert_user

pytestmark = [
    ON_POSTGRESQL,
    pytest.mark.slow,
]
TRIALS = 4


@pytest.fixture(scope="module")
def second(server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The /api/v1 URL of a second server process on the first one's database."""
    with second_api(server.database_url, tmp_path_factory.mktemp("second")) as api:
        yield api


def post(client: httpx.Client, token: str, path: str, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body, headers=auth(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


def leave_at_once(calls: list[tuple[str, str]]) -> list[int]:
    """DELETE /players/me of each (games URL, token) at the same moment."""
    barrier = threading.Barrier(len(calls))

    def send(call: tuple[str, str]) -> int:
        url, token = call
        with httpx.Client(timeout=30) as http:
            http.get(url.split("/api/v1", 1)[0] + "/api/v1/server/info")
            barrier.wait(30)
            return http.delete(url, headers=auth(token)).status_code

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(send, calls))


def test_the_next_round_is_made_once_when_two_processes_race(
    server: RunningServer, client: httpx.Client, second: str
) -> None:
    url = server.database_url
    for trial in range(TRIALS):
        names = [f"tw{trial}x{i}" for i in range(4)]
        tokens = {name: insert_user(url, name) for name in names}
        tid = post(client, tokens[names[0]], "/tournaments", name=f"race {trial}",
                   kind="swiss", rounds=2, size=5)["id"]
        for name in names:
            post(client, tokens[name], f"/tournaments/{tid}/join")
        view = post(client, tokens[names[0]], f"/tournaments/{tid}/start")
        tables = view["pairings"][0]["games"]
        assert len(tables) == 2
        # the first player of each game leaves it, one through each process, at once
        calls = [
            (f"{base}/games/{table['game_id']}/players/me", tokens[table["players"][0]])
            for base, table in zip((server.api, second), tables, strict=True)
        ]
        assert leave_at_once(calls) == [200, 200]

        def counts(tid: int = tid) -> tuple[list[int], int, int]:
            rounds = [r.number for r in TournamentRound.select()
                      .where(TournamentRound.tournament == tid)]
            tables = TournamentGame.select().where(TournamentGame.tournament == tid).count()
            game_ids = [t.game_id for t in TournamentGame.select()
                        .where(TournamentGame.tournament == tid)]
            games = Game.select().where(Game.id.in_(game_ids)).count()
            return sorted(rounds), tables, games

        deadline = time.monotonic() + 20
        while (found := in_store(url, counts))[0] != [1, 2]:
            assert time.monotonic() < deadline, f"round 2 not made: {found}"
            time.sleep(0.05)
        time.sleep(1.0)  # pacing: a second maker, if any, has had its chance (must not happen)
        assert in_store(url, counts) == ([1, 2], 4, 4), "one round 2, two games, no stray"
        shown = client.get(f"/tournaments/{tid}", headers=auth(tokens[names[1]])).json()
        assert [r["round"] for r in shown["pairings"]] == [1, 2]
        points = {line["username"]: line["points"] for line in shown["standings"]}
        assert sorted(points.values()) == [0, 0, 1, 1], "each forfeit: the opponent won"
