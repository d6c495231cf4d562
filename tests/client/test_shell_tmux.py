"""cq-shell in a real terminal (tmux): completion, a move, and the live redraw."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from client.legal import legal_targets
from tests.client.conftest import make_runner
from tests.client.play_helpers import add_inserted_players, best_step, created_id, game_json
from tests.client.terminal import ROOT, TMUX, WAIT, Terminal, shell_env
from tests.support.server import running_server, stop

Cq = Callable[..., Result]
PLAYERS = ["sue", "tom"]

pytestmark = [
    pytest.mark.backend_neutral,  # a terminal's layout (tmux)
    pytest.mark.skipif(not Path(TMUX).exists(), reason="tmux is not installed"),
]


@pytest.fixture(scope="module")
def config_dir(players_config: Path) -> Path:
    return players_config


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def test_shell_completes_moves_plays_and_redraws_live(cq: Cq, config_dir: Path) -> None:
    created = cq("game", "new", "-b", "5", profile="sue")
    game_id = created_id(created)
    assert cq("game", "join", "-g", str(game_id), profile="tom").exit_code == 0
    game = game_json(cq, game_id, "sue")
    me = game["turn_username"]
    other = "tom" if me == "sue" else "sue"
    command = f"{shlex.quote(sys.executable)} -m client.shell.app --poll-interval 0.5"
    terminal = Terminal(command, shell_env(config_dir, me))
    try:
        terminal.wait_for("cq>")
        terminal.wait_for(f"{me} @ ")  # the toolbar names the user
        terminal.type(f"use {game_id}")
        terminal.send("Enter")
        terminal.wait_for(f"Current game: {game_id}.")
        terminal.wait_for("YOUR TURN")
        # completion of a command name, then of the legal moves of the current game
        terminal.type("mo")
        terminal.send("Tab")
        terminal.wait_for(f"cq[{game_id}]> move")
        terminal.type(" ")
        terminal.send("Tab")
        legal = legal_targets(game, "move")
        assert {"east", "west"} <= set(legal) and len(legal) == 6

        def menu_shows_every_legal_move(screen: str) -> bool:
            menu = screen.rsplit(f"cq[{game_id}]> move", 1)[-1].split()
            return all(target in menu for target in legal)

        terminal.wait_until(menu_shows_every_legal_move, f"the moves {legal}")
        terminal.send("C-u")
        # a move typed in the shell
        kind, to = best_step(game)
        terminal.type(f"{kind} {to}")
        terminal.send("Enter")
        terminal.wait_for(f"#1 {me} ({game['turn']}) moved to")
        terminal.wait_for(f"turn: {other}")
        # the other player moves elsewhere; the board redraws without typing
        moved = game_json(cq, game_id, other)
        kind, to = best_step(moved)
        assert cq("game", kind, "-g", str(game_id), to, profile=other).exit_code == 0
        screen = terminal.wait_for(f"-- game {game_id} changed (revision {moved['revision'] + 1})")
        assert f"#2 {other}" in screen
        terminal.wait_for("YOUR TURN")
        terminal.send("C-d")
        deadline = time.monotonic() + WAIT
        history = config_dir / "data" / "shell-history"
        while not history.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert f"use {game_id}" in history.read_text()
    finally:
        terminal.close()


def test_execute_runs_one_command_and_exits(cq: Cq, config_dir: Path) -> None:
    created_id(cq("game", "new", "-b", "7", profile="tom"))
    env = dict(os.environ, **shell_env(config_dir, "tom"))
    done = subprocess.run([sys.executable, "-m", "client.shell.app", "-e", "game list -s waiting"],
                          capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Waiting" in done.stdout and "7X7" in done.stdout
    failed = subprocess.run([sys.executable, "-m", "client.shell.app", "-e", "show -g 999"],
                            capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert failed.returncode == 4
    assert failed.stderr.startswith("Error: ")


def test_shell_started_on_a_game_draws_it_and_shows_a_lost_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("CQ_CONFIG_DIR", str(config))
    with running_server(tmp_path / "server") as server:  # this test stops its own server
        add_inserted_players(server, config, ["uma", "vic"])
        cq = make_runner(config)
        game_id = created_id(cq("game", "new", "-b", "5", profile="uma"))
        assert cq("game", "join", "-g", str(game_id), profile="vic").exit_code == 0
        command = (f"{shlex.quote(sys.executable)} -m client.shell.app -g {game_id} "
                   "--poll-interval 0.3")
        terminal = Terminal(command, shell_env(config, "uma"))
        try:
            # the board is drawn at start, without 'use' or F5
            screen = terminal.wait_for("Turn: ")
            assert "5x5, 2 players" in screen
            terminal.wait_for(f"| game {game_id} started r")
            terminal.type("message send hi all")  # a game command without 'game'
            terminal.send("Enter")
            terminal.wait_for(f"Broadcast sent to game {game_id}")
            stop(server.process)
            screen = terminal.wait_for("CONNECTION LOST, reconnecting")
            assert f"last known: game {game_id} started" in screen
        finally:
            terminal.close()
