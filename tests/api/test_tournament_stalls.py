"""The stall settings apply to a tournament's games (issue 30): a player who does not
move within STALL_TIMEOUT is removed from the game (the scheduler), loses it by forfeit,
and the tournament goes on (here: its last round, so it finishes); a double round robin
plays every pairing twice, the first mover swapped."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.games import get_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("server"), BOT_WORKERS=0, STALL_TIMEOUT="2s",
        STALL_REMIND_AFTER="1d", SCHEDULER_INTERVAL="1s",
    ) as running:
        yield running


def post(client: httpx.Client, token: str, path: str, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body, headers=auth(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_a_stalled_player_forfeits_and_the_double_round_robin_goes_on(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("sla", "slb")}
    tid = post(client, tokens["sla"], "/tournaments", name="Blitz",
               kind="double_round_robin", size=5)["id"]
    for token in tokens.values():
        post(client, token, f"/tournaments/{tid}/join")
    view = post(client, tokens["sla"], f"/tournaments/{tid}/start")
    assert view["rounds"] == 2
    first = view["pairings"][0]["games"][0]
    deadline = time.monotonic() + 30
    while True:
        view = client.get(f"/tournaments/{tid}", headers=auth(tokens["sla"])).json()
        if view["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"the stalls did not end the games: {view}"
        time.sleep(0.05)
    tables = [r["games"][0] for r in view["pairings"]]
    assert [t["players"] for t in tables] == [first["players"], first["players"][::-1]], (
        "the second half swaps who moves first"
    )
    for table in tables:
        mover, waiter = table["players"]
        assert table["forfeited"] == [mover] and table["winner"] == waiter, table
        game = get_game(client, tokens["sla"], table["game_id"])
        assert game["status"] == "cancelled"
    points = {line["username"]: line["points"] for line in view["standings"]}
    assert points == {"sla": 1, "slb": 1}
    assert all(not line["withdrawn"] for line in view["standings"]), "a stall is no withdrawal"
