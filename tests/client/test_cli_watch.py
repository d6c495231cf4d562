"""`cq game watch` against a real server: the real CLI in a subprocess, following a game's
live stream as a spectator and as a player, through a finish, a cancel, Ctrl-C and a
restart of the server; its refusals as every command gives them."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import Result

from client.legal import legal_targets
from client.profiles import ProfileStore
from tests.client.play_helpers import add_inserted_players, best_step
from tests.client.process_output import LiveProcess
from tests.client.terminal import TMUX, Terminal, shell_env
from tests.support.games import new_game, play, started_game
from tests.support.server import running_server, server_env, start_process, stop, wait_until_up
from tests.support.users import auth

pytestmark = pytest.mark.backend_neutral  # cq's output; streams on PostgreSQL: tests/live

Cq = Callable[..., Result]
PLAYERS = ["ann", "bob", "cy"]
INSERT_PLAYERS = True
SERVER_SETTINGS = {"STREAM_KEEPALIVE": "1"}
SEEN = 10.0  # seconds within which a change must be on the watcher's screen


@pytest.fixture(scope="module")
def tokens(players_config: Path) -> dict[str, str]:
    store = ProfileStore(players_config)
    return {name: str(store.load(name).token) for name in PLAYERS}


@pytest.fixture
def api(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10) as client:
        yield client


def watch_env(config_dir: Path, profile: str) -> dict[str, str]:
    return dict(os.environ, CQ_CONFIG_DIR=str(config_dir), CQ_PROFILE=profile, NO_COLOR="1",
                PYTHONUNBUFFERED="1")


def watching(config_dir: Path, profile: str, game_id: int, *extra: str) -> LiveProcess:
    """`cq game watch -g GAME_ID` of `profile`, running."""
    args = [sys.executable, "-m", "client", "game", "watch", "-g", str(game_id), *extra]
    return LiveProcess(args, watch_env(config_dir, profile))


def headline(game: dict[str, Any], status: str = "Active") -> str:
    return f"Game {game['id']} · {status} · revision {game['revision']}"


def step(api: httpx.Client, tokens: dict[str, str], game: dict[str, Any]) -> dict[str, Any]:
    """The player to move takes the step that brings it closest to its goal."""
    kind, to = best_step(game)
    response = play(api, tokens[game["turn_username"]], game["id"], kind, to)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_a_spectator_sees_every_move_and_the_finish(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    game = started_game(api, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=5)
    with watching(players_config, "cy", game["id"]) as cq:
        cq.wait_for(headline(game), SEEN)
        assert "5x5, 2 players" in cq.wait_for(f"Turn: {game['turn_username']}")
        moved = step(api, tokens, game)
        cq.wait_for(f"#1 {game['turn_username']} ({game['turn']}) moved to", SEEN)
        cq.wait_for(headline(moved), SEEN)  # the new board, drawn without asking
        finished = moved
        while finished["status"] == "started":
            finished = step(api, tokens, finished)
        assert cq.wait_exit() == 0
        cq.wait_for(headline(finished, "Finished"))
        after = cq.wait_for(f"Game {game['id']} is finished.")
        assert f"Winner: {finished['winner']}" in after
        assert cq.text("stderr") == ""


def test_a_masked_games_walls_are_told_without_their_squares(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    """Issue 48 item 5 (SPEC §4): with two players the turn order tells whose each action
    was, so the watch says "a wall was placed", without the square, of every wall of a
    masked game in play, to a spectator as to a player (the board still shows them)."""
    game = started_game(api, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=5,
                        masked=True)
    second = "bob" if game["turn_username"] == "ann" else "ann"
    with watching(players_config, "cy", game["id"]) as spectator, \
            watching(players_config, second, game["id"]) as player:
        for cq in (spectator, player):
            cq.wait_for(headline(game), SEEN)
        for n, (name, wall) in enumerate(((game["turn_username"], "b2h"), (second, "c4v")), 1):
            placed = play(api, tokens[name], game["id"], "wall", wall)
            assert placed.status_code == 201, placed.text
            for cq in (spectator, player):
                cq.wait_for(f"#{n} a wall was placed", SEEN)
                cq.wait_for(headline(placed.json()), SEEN)
        for cq in (spectator, player):
            shown = cq.text("stdout")
            assert "b2h" not in shown and "c4v" not in shown, shown
            assert "placed wall" not in shown, shown


def test_a_player_watches_until_the_game_admin_cancels(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    game = started_game(api, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=7)
    with watching(players_config, "bob", game["id"]) as cq:
        cq.wait_for(headline(game), SEEN)
        response = api.request("DELETE", f"/games/{game['id']}/players/me",
                               headers=auth(tokens["ann"]))
        assert response.status_code == 200, response.text
        cq.wait_for(f"Game {game['id']} is cancelled.", SEEN)
        assert cq.wait_exit() == 0
        assert "Cancelled" in cq.text()


def test_ctrl_c_ends_the_watch_quietly(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    game = started_game(api, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=5)
    with watching(players_config, "cy", game["id"]) as cq:
        cq.wait_for(headline(game), SEEN)
        cq.interrupt()
        assert cq.wait_exit() == 0
        assert "Traceback" not in cq.text("stderr") and "Aborted" not in cq.text("stderr")


def test_a_private_game_of_others_is_not_found_without_its_code(
    api: httpx.Client, tokens: dict[str, str], players_config: Path, players_cq: Cq
) -> None:
    game = new_game(api, tokens["ann"], players=2, size=5, private=True, invite=True)
    refused = players_cq("game", "watch", "-g", str(game["id"]), profile="cy")
    assert refused.exit_code == 4, refused.output
    assert refused.output == (f"Error: no game {game['id']} (or it is private: give its "
                              "invitation code)\n")
    missing = players_cq("game", "watch", "-g", "9999", profile="cy")
    assert missing.exit_code == 4 and "no game 9999" in missing.output
    with watching(players_config, "cy", game["id"], "-i", game["invitation_code"]) as cq:
        cq.wait_for(headline(game, "Waiting"), SEEN)
        cq.interrupt()
        assert cq.wait_exit() == 0


def test_logged_out_and_unreachable_exit_as_every_command(
    players_cq: Cq, players_config: Path, server: Any
) -> None:
    store = ProfileStore(players_config)
    profile = store.load("cy")
    store.save(profile.__class__(name="gone", server_url=profile.server_url, username="cy",
                                 token="not-a-session"))
    expired = players_cq("game", "watch", "-g", "1", profile="gone")
    assert expired.exit_code == 3, expired.output
    store.save(profile.__class__(name="nowhere", server_url="http://127.0.0.1:9",
                                 username="cy", token="x"))
    unreachable = players_cq("game", "watch", "-g", "1", profile="nowhere")
    assert unreachable.exit_code == 5, unreachable.output
    assert unreachable.output.startswith("Error: cannot reach the server at http://127.0.0.1:9")


def test_a_lost_connection_is_resumed_from_the_last_event(
    tmp_path: Path, players_config: Path, tokens: dict[str, str]
) -> None:
    """The server stops and a new one starts on the same port and database: the watcher
    says the connection was lost, reconnects, and prints the move made meanwhile."""
    settings = {"STREAM_KEEPALIVE": "1"}
    config = tmp_path / "config"
    with running_server(tmp_path / "server", **settings) as server:
        add_inserted_players(server, config, ["dee", "eve", "fay"])
        store = ProfileStore(config)
        own = {name: str(store.load(name).token) for name in ("dee", "eve")}
        with httpx.Client(base_url=server.api, timeout=10) as api:
            game = started_game(api, own, size=5)
        port = int(server.base_url.rsplit(":", 1)[1])
        env = server_env(tmp_path / "server", server.database_url, port, **settings)
        restarted = None
        try:
            with watching(config, "fay", game["id"]) as cq:
                cq.wait_for(headline(game), SEEN)
                stop(server.process)
                cq.wait_for("connection lost, reconnecting", SEEN, stream="stderr")
                restarted, log_path = start_process(tmp_path / "server", env)
                wait_until_up(server.base_url, restarted, log_path)
                with httpx.Client(base_url=server.api, timeout=10) as api:
                    to = legal_targets(game, "move")[0]
                    response = play(api, own[game["turn_username"]], game["id"], "move", to)
                    assert response.status_code == 201, response.text
                    cq.wait_for(f"#1 {game['turn_username']} ({game['turn']}) moved to", SEEN)
                    cq.wait_for(headline(response.json()), SEEN)
                    cq.wait_for("connection back", SEEN, stream="stderr")
                    cancelled = api.request("DELETE", f"/games/{game['id']}/players/me",
                                            headers=auth(own[game["admin"]]))
                    assert cancelled.status_code == 200, cancelled.text
                assert cq.wait_exit() == 0
                assert cq.text("stderr").count("connection lost, reconnecting") == 1
                assert "Traceback" not in cq.text("stderr")
        finally:
            if restarted is not None:
                stop(restarted)


@pytest.mark.skipif(not Path(TMUX).exists(), reason="tmux is not installed")
def test_on_a_terminal_the_board_is_drawn_again_in_place_with_the_latest_messages(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    game = started_game(api, {"ann": tokens["ann"], "bob": tokens["bob"]}, size=5)
    command = f"{shlex.quote(sys.executable)} -m client game watch -g {game['id']}"
    terminal = Terminal(command, shell_env(players_config, "cy"))
    try:
        terminal.wait_for(headline(game), SEEN)
        said = api.post(f"/games/{game['id']}/messages", json={"text": "good luck, bob"},
                        headers=auth(tokens["ann"]))
        assert said.status_code == 201, said.text
        terminal.wait_for("good luck, bob", SEEN)
        moved = game
        for _ in range(3):
            moved = step(api, tokens, moved)
        screen = terminal.wait_until(
            lambda shown: headline(moved) in shown, headline(moved), SEEN, visible=True
        )
        assert screen.count(f"Game {game['id']} · ") == 1  # one board: drawn over the last
        assert "good luck, bob" in screen  # the latest messages stay under it
        assert screen.index(headline(moved)) < screen.index("good luck, bob")
        assert "Traceback" not in terminal.screen()
    finally:
        terminal.close()
