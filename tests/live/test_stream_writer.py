"""The stream writer process (corridorquest/live/writer.py): it writes the streams'
updates for the server, lives and dies with it, and its loss costs only the streams it
held (their clients resume; the server writes new ones itself)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.support.games import get_game, play, started_game
from tests.support.processes import children, gone
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: the writer process


def _first_move(game: dict[str, object]) -> str:
    return "e2" if game["turn"] == "south" else "e8"


def test_the_writer_process_runs_beside_the_server_and_dies_with_it(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_WRITER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("wen", "xia")}
        game = started_game(client, tokens)
        (helper,) = children(server.process.pid, "cq-stream-write")
        with EventReader(f"{server.api}/games/{game['id']}/events", tokens["wen"]) as events:
            events.next("game")
            mover = tokens[game["turn_username"]]
            assert play(client, mover, game["id"], "move", _first_move(game)).status_code == 201
            assert events.next("action")["data"]["n"] == 1
            os.kill(server.process.pid, signal.SIGKILL)  # no clean stop: the helper notices
            assert gone(helper, 5), "the writer process outlived a killed server"
            assert events.ended.wait(5)


def test_streams_of_a_lost_writer_end_and_new_streams_still_work(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_WRITER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("yul", "zed")}
        game = started_game(client, tokens)
        gid = game["id"]
        (helper,) = children(server.process.pid, "cq-stream-write")
        with EventReader(f"{server.api}/games/{gid}/events", tokens["yul"]) as held:
            held.next("game")
            os.kill(helper, signal.SIGKILL)
            assert held.ended.wait(5), "a stream the lost writer held stayed open"
        assert "stream writer process gone" in server.log_text()
        # the server writes the streams itself from now on
        with EventReader(f"{server.api}/games/{gid}/events", tokens["zed"]) as again:
            again.next("game")
            mover = tokens[game["turn_username"]]
            answer = play(client, mover, gid, "move", _first_move(game))
            assert answer.status_code == 201
            assert again.next("game")["data"]["revision"] == answer.json()["revision"]
        assert get_game(client, tokens["zed"], gid)["revision"] == answer.json()["revision"]


def test_a_stream_lives_past_sanics_response_timeout(tmp_path: Path) -> None:
    # Sanic ends a response it has not written to for RESPONSE_TIMEOUT; the writer
    # process writes the stream's keepalives, and the server tells Sanic so
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", SANIC_RESPONSE_TIMEOUT="2", STREAM_WRITER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("ari", "bo")}
        game = started_game(client, tokens)
        with EventReader(f"{server.api}/games/{game['id']}/events", tokens["ari"]) as events:
            events.next("game")
            time.sleep(4.5)
            assert not events.ended.is_set(), "the stream was cut at the response timeout"
            assert events.comments >= 2
            mover = tokens[game["turn_username"]]
            assert play(client, mover, game["id"], "move", _first_move(game)).status_code == 201
            assert events.next("action")["data"]["n"] == 1


def test_a_stalled_writer_holds_its_streams_updates_and_new_streams_go_inline(
    tmp_path: Path,
) -> None:
    # (the stream is owed megabytes when the writer comes back, more than STREAM_BUFFER
    # lets a reader be behind by default: this is about order, not about that bound)
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_WRITER="process", STREAM_BUFFER="16384"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("cy", "dee")}
        game = started_game(client, tokens, invisible=True)  # (markers are for those)
        gid = game["id"]
        (helper,) = children(server.process.pid, "cq-stream-write")
        with EventReader(f"{server.api}/games/{gid}/events", tokens["cy"]) as held:
            held.next("game")
            os.kill(helper, signal.SIGSTOP)
            try:
                # each marker change sends cy's stream its view again: far more than the
                # socket to the stopped writer takes, so the server keeps the rest in order
                for _ in range(600):
                    made = client.post(
                        f"/games/{gid}/markers", json={"marker": "d4h"}, headers=auth(tokens["cy"])
                    )
                    assert made.status_code in (200, 201), made.text
                    client.delete(f"/games/{gid}/markers/d4h", headers=auth(tokens["cy"]))
                # a stream opened meanwhile is not handed to the stalled writer
                with EventReader(f"{server.api}/games/{gid}/events", tokens["dee"]) as fresh:
                    fresh.next("game")
                    mover = tokens[game["turn_username"]]
                    answer = play(client, mover, gid, "move", _first_move(game))
                    assert answer.status_code == 201
                    assert fresh.next("action")["data"]["n"] == 1
            finally:
                os.kill(helper, signal.SIGCONT)
            # the held stream gets everything it was owed, in order, then the move
            assert held.next("action", timeout=20)["data"]["n"] == 1
        assert "stream writer process gone" not in server.log_text()
