"""The analyses' queue against the real server (issue 48 item 16): one user's series of
long analyses cannot hold back somebody else's short one, a user has at most
ANALYSIS_PER_USER waiting or computed (429 `too_many_analyses`), the process at most
ANALYSIS_QUEUE (503 `analysis_queue_full`); a refusal writes nothing, and asking again for
an analysis already under way is never refused.

The games are imported records: two long 17x17 games (the level-3 analysis takes seconds
each) and a short 5x5 one (a fraction of a second).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

NAMES = ("mal", "vic", "cat")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), ANALYSIS_PER_USER=2,
                        ANALYSIS_QUEUE=3) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def _numbered(actions: list[str]) -> str:
    return " ".join(
        f"{n // 2 + 1}. {' '.join(actions[n:n + 2])}" for n in range(0, len(actions), 2)
    )


def long_record(rounds: int) -> str:
    """A finished 17x17 game: both pawns step out and back `rounds` times, then south
    walks to its goal while north steps aside."""
    actions: list[str] = []
    for _ in range(rounds):
        actions += ["i2", "i16", "i1", "i17"]
    for row in range(2, 18):
        actions.append(f"i{row}")
        if row < 17:
            actions.append("h17" if row % 2 == 0 else "g17")
    return f'[Size "17"]\n[South "Sam"]\n[North "Nat"]\n{_numbered(actions)}\n'


def short_record() -> str:
    from tests.analysis.test_plies import GAME

    return f'[Size "5"]\n{_numbered(list(GAME))}\n'


def imported(client: httpx.Client, token: str, text: str) -> int:
    answer = client.post("/games/imported", json={"record": text}, headers=auth(token))
    assert answer.status_code == 201, answer.text
    [game_id] = answer.json()["games"]
    return int(game_id)


def ask(client: httpx.Client, token: str, game_id: int) -> httpx.Response:
    return client.post(f"/games/{game_id}/analysis", headers=auth(token))


def status(client: httpx.Client, token: str, game_id: int) -> str:
    answer = client.get(f"/games/{game_id}/analysis", headers=auth(token))
    assert answer.status_code in (200, 202), answer.text
    return str(answer.json()["status"])


def wait_done(client: httpx.Client, token: str, game_id: int,
              timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/games/{game_id}/analysis", headers=auth(token))
        if answer.status_code == 200:
            return dict(answer.json())
        assert answer.status_code == 202, answer.text
        assert time.monotonic() < deadline, f"the analysis of game {game_id} did not end"
        time.sleep(0.05)


def refused(answer: httpx.Response, status_code: int, reason: str) -> None:
    assert answer.status_code == status_code, answer.text
    assert answer.json()["reason"] == reason
    assert int(answer.headers["Retry-After"]) > 0


def not_requested(client: httpx.Client, token: str, game_id: int) -> None:
    answer = client.get(f"/games/{game_id}/analysis", headers=auth(token))
    assert (answer.status_code, answer.json()["reason"]) == (404, "analysis_not_requested")


def test_a_short_analysis_is_not_held_back_and_the_queue_is_bounded(
    server: RunningServer, tokens: dict[str, str]
) -> None:
    with httpx.Client(base_url=server.api, timeout=30.0) as client:
        mal, vic, cat = (tokens[name] for name in NAMES)
        first, second, third = (imported(client, mal, long_record(50)) for _ in range(3))
        short = imported(client, vic, short_record())
        other = imported(client, cat, short_record())
        assert ask(client, mal, first).status_code == 202
        assert ask(client, mal, second).status_code == 202
        # a third of mal's own: refused, nothing written
        refused(ask(client, mal, third), 429, "too_many_analyses")
        not_requested(client, mal, third)
        # asking again for one under way costs nothing: never refused
        again = ask(client, mal, first)
        assert again.status_code == 202 and again.json()["status"] == "pending"
        assert ask(client, vic, short).status_code == 202
        # three held (ANALYSIS_QUEUE): another user's is refused, nothing written
        refused(ask(client, cat, other), 503, "analysis_queue_full")
        not_requested(client, cat, other)
        # vic's short analysis goes before mal's second long one
        done = wait_done(client, vic, short)
        assert len(done["plies"]) > 0
        assert status(client, mal, second) == "pending"
        wait_done(client, mal, first)
        wait_done(client, mal, second)
        # the places are given back
        assert ask(client, mal, third).status_code == 202
        assert ask(client, cat, other).status_code == 202
        wait_done(client, cat, other)
        wait_done(client, mal, third)
