"""Password hashing has a bounded share of the server (issue 13, item 2).

With one hashing thread and a queue of one, a burst of logins or signups does not queue
up behind argon2: what does not fit is refused at once with 503 `password_hashing_busy`
and a Retry-After header, such a refused attempt is not counted against the rate limits,
and the server goes on accepting moves meanwhile. Before, every request waited its turn
in an unbounded queue (all 401 or 201 after seconds; moves slowed tenfold).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.parallel import post_at_once, statuses
from tests.support.server import REAL_PASSWORD_HASHING, RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, make_user

USER_LIMIT = 12
_addresses = (f"10.3.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def new_address() -> dict[str, str]:
    """A client address of its own (the server trusts one proxy: PROXIES_COUNT=1)."""
    return {"X-Forwarded-For": next(_addresses)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("password_pool"),
        PROXIES_COUNT=1,
        PASSWORD_HASH_THREADS=1,
        PASSWORD_HASH_QUEUE=1,
        LOGIN_RATE_LIMIT_USER=USER_LIMIT,
        LOGIN_RATE_LIMIT_ADDRESS=1000,
        LOGIN_RATE_WINDOW="1h",
        **REAL_PASSWORD_HASHING,  # the subject: argon2's real cost fills the pool
    ) as running:
        yield running


def assert_busy_answers_say_when(answers: list[httpx.Response]) -> None:
    for answer in answers:
        if answer.status_code == 503:
            body = answer.json()
            assert body["reason"] == "password_hashing_busy", body
            assert body["retry_after"] >= 1
            assert answer.headers["Retry-After"] == str(body["retry_after"])


class Mover(threading.Thread):
    """Plays moves in a started game (two pawns stepping sideways) until stopped."""

    def __init__(self, server: RunningServer) -> None:
        super().__init__(daemon=True)
        tokens = {name: insert_user(server.database_url, name) for name in ("mover1", "mover2")}
        self.client = httpx.Client(base_url=server.api, timeout=30.0)
        game = started_game(self.client, tokens)
        self.game_id = game["id"]
        self.turn = game["turn"]
        self.by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
        self.pawns = dict(game["pawns"])
        self.stop = threading.Event()
        self.answers: list[int] = []

    def run(self) -> None:
        while not self.stop.is_set():
            seat = self.turn
            square = self.pawns[seat]
            to = ("d" if square[0] == "e" else "e") + square[1:]
            answer = play(self.client, self.by_seat[seat], self.game_id, "move", to)
            self.answers.append(answer.status_code)
            if answer.status_code != 201:
                return
            state = answer.json()
            self.turn, self.pawns = state["turn"], dict(state["pawns"])

    def finish(self) -> list[int]:
        self.stop.set()
        self.join(30)
        self.client.close()
        return self.answers


def test_a_burst_of_logins_is_refused_at_once_beyond_the_queue_and_moves_go_on(
    server: RunningServer, client: httpx.Client
) -> None:
    mover = Mover(server)
    mover.start()
    try:
        burst = [
            ({"username": f"nobody{n}", "password": "wrong guess"}, new_address())
            for n in range(30)
        ]
        answers = post_at_once(server.api + "/sessions", burst)
    finally:
        moves = mover.finish()
    counted = statuses(answers)
    assert set(counted) <= {401, 503}, counted
    assert counted[503] >= 1 and counted[401] >= 1, counted
    assert_busy_answers_say_when(answers)
    # The game went on during the burst, every move accepted.
    assert moves and set(moves) == {201}, moves


def test_logins_refused_as_busy_are_not_counted_against_the_user(
    server: RunningServer, client: httpx.Client
) -> None:
    name = "busyuser"
    token = make_user(server.base_url, server.mail_dir, name)
    assert client.delete("/sessions/current", headers=auth(token)).status_code == 204
    burst = [
        ({"username": name, "password": f"guess {n}"}, new_address()) for n in range(USER_LIMIT)
    ]
    answers = post_at_once(server.api + "/sessions", burst)
    counted = statuses(answers)
    assert set(counted) <= {401, 503} and counted[503] >= 1, counted
    assert_busy_answers_say_when(answers)
    # Only the checked (401) attempts count: the rest of the limit is still there.
    for _ in range(USER_LIMIT - counted[401]):
        answer = client.post(
            "/sessions", json={"username": name, "password": "wrong"}, headers=new_address()
        )
        assert answer.status_code == 401, answer.text
    last = client.post(
        "/sessions", json={"username": name, "password": DEFAULT_PASSWORD}, headers=new_address()
    )
    assert last.status_code == 429, last.text


def test_a_burst_of_signups_is_refused_at_once_beyond_the_queue(
    server: RunningServer,
) -> None:
    burst = [
        (
            {"username": f"new{n}", "email": f"new{n}@example.test", "password": "long password"},
            new_address(),
        )
        for n in range(20)
    ]
    answers = post_at_once(server.api + "/users", burst)
    counted = statuses(answers)
    assert set(counted) <= {201, 503} and counted[503] >= 1 and counted[201] >= 1, counted
    assert_busy_answers_say_when(answers)


def test_the_busy_answer_is_in_the_openapi_document(server: RunningServer) -> None:
    document = httpx.get(server.base_url + "/api-docs/openapi.json").json()
    assert "503" in document["paths"]["/api/v1/sessions"]["post"]["responses"]
