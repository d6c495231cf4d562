"""The bots' fair queue (issue 48 item 14): one user's games of bots only do not make the
bot of a person's game wait past the time cap, nor play it fallback moves.

One worker process, a time cap of 2 s, and twelve unpaced games of bots only at levels 4
and 5 on 9x9 (each move tens of milliseconds of CPU, more on a busy machine where the
workers get only the idle time: together seconds of work queued at any time). Before, the
cap counted the time a move spent queued: a person's level-1 bot queued behind them was
given up after 2 s and played a fallback move, and each time-out replaced the pool,
cancelling the queued searches (the person's game among them: on the busy development
machine its bot then did not answer within 30 s, or only after many seconds). Now a person's game
goes before the games of bots only, the cap counts a search's own time, and every game of
bots only keeps moving (none is starved). (A level-5 search of a game of bots only may
itself pass 2 s on a machine that leaves its workers no idle time: those fallbacks are
the cap doing its work, not the queue's, and are not what this test asserts.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from client.legal import state_from_game
from corridorquest.engine import format_action
from tests.support.games import get_game, new_game, play
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

BOTS_ONLY_GAMES = 12
MOVES = 5  # the person's moves
ANSWER_WITHIN = 8.0  # seconds (a level-5 search on a busy machine, and the bot's own)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("queue"), bot_workers=1, bot_time_cap=2,
                        bots_only_pace=0, max_bots_only_games=BOTS_ONLY_GAMES) as running:
        yield running


def step_toward_goal(game: dict[str, Any]) -> tuple[str, str]:
    state = state_from_game(game)
    assert state is not None and state.turn is not None
    seat = state.turn
    best = min(state.legal_steps(), key=lambda step: _after(state, step, seat))
    return "jump" if best.jump else "move", format_action(best)


def _after(state: Any, step: Any, seat: Any) -> int:
    after = state.copy()
    after.play(step)
    return 0 if after.winner == seat else int(after.distance(seat))


def wait_for_turn(client: httpx.Client, token: str, game_id: int, name: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        game = get_game(client, token, game_id)
        if game["status"] != "started" or game["turn_username"] == name:
            return game
        assert time.monotonic() < deadline, f"the bot did not answer: {game}"
        time.sleep(0.05)


def test_a_persons_bot_answers_beside_a_users_many_games_of_bots_only(
    server: RunningServer,
) -> None:
    watcher = insert_user(server.database_url, "qwatcher")
    pat = insert_user(server.database_url, "qpat")
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        crowd = [
            new_game(client, watcher, players=2, size=9, bots=[4, 5], join=False)
            for _ in range(BOTS_ONLY_GAMES)
        ]
        started = {game["id"]: int(game["revision"]) for game in crowd}
        game = new_game(client, pat, players=2, size=5, bots=[1])
        waits = []  # seconds from the person's move to the bot's answer
        for _ in range(MOVES):
            game = wait_for_turn(client, pat, game["id"], "qpat")
            if game["status"] != "started":
                break
            kind, to = step_toward_goal(game)
            assert play(client, pat, game["id"], kind, to).status_code == 201
            moved = time.monotonic()
            game = wait_for_turn(client, pat, game["id"], "qpat")
            waits.append(time.monotonic() - moved)
        # the person's bot waits for the one search in progress at most, not for the queue
        assert waits and max(waits) < ANSWER_WITHIN, waits
        # every game of bots only moved on meanwhile (none starved)
        deadline = time.monotonic() + 30
        for game_id, revision in started.items():
            while int(get_game(client, watcher, game_id)["revision"]) < revision + 2:
                assert time.monotonic() < deadline, f"game {game_id} of bots only is starved"
                time.sleep(0.05)
        for game_id in started:
            client.delete(f"/games/{game_id}", headers=auth(watcher))
    fallbacks = [line for line in server.log_text().splitlines()
                 if f"in game {game['id']}:" in line
                 and ("the worker failed" in line or "search failed" in line)]
    assert not fallbacks, fallbacks
