"""The look process (corridorquest/live/looker.py): it works out the streams' updates for
the server, with the players' presence as the server knows it, lives and dies with the
server, and when it is lost or stalls the server works the updates out itself: the
streams go on without a gap."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx

from tests.support.games import play, started_game
from tests.support.processes import children, gone
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import insert_user


def _square(game: dict[str, object], ply: int) -> str:
    """A legal pawn step for the player to move at `ply` (0, 1, 2...) of a fresh game."""
    south_first = game["turn"] == "south"
    steps = ["e2", "e8", "e3", "e7"] if south_first else ["e8", "e2", "e7", "e3"]
    return steps[ply]


def _mover(game: dict[str, object], tokens: dict[str, str], ply: int) -> str:
    names = list(tokens)
    first = str(game["turn_username"])
    other = names[1] if names[0] == first else names[0]
    return tokens[first if ply % 2 == 0 else other]


def test_the_look_process_works_out_spectators_updates_with_presence(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_LOOKER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("lee", "mo")}
        watcher = insert_user(server.database_url, "nan")
        game = started_game(client, tokens)
        gid = game["id"]
        (helper,) = children(server.process.pid, "cq-stream-look")
        url = f"{server.api}/games/{gid}/events"
        with EventReader(url, tokens["lee"]) as lee, EventReader(url, watcher) as nan:
            lee.next("game")
            nan.next("game")
            answer = play(client, _mover(game, tokens, 0), gid, "move", _square(game, 0))
            assert answer.status_code == 201
            assert nan.next("action")["data"]["notation"] == _square(game, 0)
            seen = nan.next("game")["data"]
            assert seen["revision"] == answer.json()["revision"]
            assert seen["online"] == ["lee"]  # the server's presence, in the helper's view
            assert lee.next("action")["data"]["n"] == 1
        assert "look process gone" not in server.log_text()
        os.kill(server.process.pid, signal.SIGKILL)  # no clean stop: the helper notices
        assert gone(helper, 5), "the look process outlived a killed server"


def test_without_the_look_process_the_server_works_the_updates_out(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_LOOKER="inline"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        assert children(server.process.pid, "cq-stream-look") == []
        tokens = {name: insert_user(server.database_url, name) for name in ("oz", "pim")}
        game = started_game(client, tokens)
        with EventReader(f"{server.api}/games/{game['id']}/events", tokens["oz"]) as oz:
            oz.next("game")
            mover = _mover(game, tokens, 0)
            assert play(client, mover, game["id"], "move", _square(game, 0)).status_code == 201
            assert oz.next("action")["data"]["notation"] == _square(game, 0)


def test_a_lost_look_process_costs_no_update(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_LOOKER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("qi", "ros")}
        watcher = insert_user(server.database_url, "sol")
        game = started_game(client, tokens)
        gid = game["id"]
        (helper,) = children(server.process.pid, "cq-stream-look")
        with EventReader(f"{server.api}/games/{gid}/events", watcher) as held:
            held.next("game")
            answer = play(client, _mover(game, tokens, 0), gid, "move", _square(game, 0))
            assert answer.status_code == 201
            assert held.next("action")["data"]["n"] == 1
            os.kill(helper, signal.SIGKILL)
            assert gone(helper, 5)
            for ply in (1, 2):
                answer = play(client, _mover(game, tokens, ply), gid, "move", _square(game, ply))
                assert answer.status_code == 201
                assert held.next("action")["data"]["n"] == ply + 1
                assert held.next("game")["data"]["revision"] == answer.json()["revision"]
            assert not held.ended.is_set()
        assert "look process gone" in server.log_text()


def test_a_stalled_look_process_is_replaced_within_seconds(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAM_KEEPALIVE="1", STREAM_LOOKER="process"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("tam", "uma")}
        watcher = insert_user(server.database_url, "vic")
        game = started_game(client, tokens)
        gid = game["id"]
        (helper,) = children(server.process.pid, "cq-stream-look")
        with EventReader(f"{server.api}/games/{gid}/events", watcher) as held:
            held.next("game")
            os.kill(helper, signal.SIGSTOP)
            try:
                began = time.monotonic()
                answer = play(client, _mover(game, tokens, 0), gid, "move", _square(game, 0))
                assert answer.status_code == 201  # moves do not wait for the looks
                assert time.monotonic() - began < 5
                # the server gives up on the helper (ANSWER_WAIT, 10 s) and looks itself
                assert held.next("action", timeout=20)["data"]["n"] == 1
                assert held.next("game")["data"]["revision"] == answer.json()["revision"]
                answer = play(client, _mover(game, tokens, 1), gid, "move", _square(game, 1))
                assert held.next("action", timeout=3)["data"]["n"] == 2
            finally:
                os.kill(helper, signal.SIGCONT)
            assert gone(helper, 5), "the stalled look process was not stopped"
        assert "look process gone" in server.log_text()
