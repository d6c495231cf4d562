"""cq-shell follows its current game over the live stream: what the opponent does is
drawn at once (with polling far too slow to explain it), the game is not fetched again
and again, a command's own move is not redrawn as someone else's (a bot's reply to it
is, however fast), and the shell polls
when the server offers no stream. The terminal tests run the real shell in tmux; the
others run the shell's watch loops in this process against the real server."""

from __future__ import annotations

import asyncio
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from client.api import ApiClient
from client.errors import RefusedError
from client.profiles import ProfileStore
from client.shell.follow import StreamFollow, follow_loop
from client.shell.live import GameWatch, watch_loop
from client.shell.toolbar import KEYS
from client.state import AppState
from tests.client.play_helpers import add_inserted_players, best_step
from tests.client.terminal import TMUX, Terminal, shell_env
from tests.support.games import get_game, play, started_game
from tests.support.server import running_server, server_env, start_process, stop, wait_until_up
from tests.support.users import auth

pytestmark = pytest.mark.backend_neutral  # cq-shell's redraws; streams on PostgreSQL: tests/live

PLAYERS = ["sue", "tom"]
INSERT_PLAYERS = True
SERVER_SETTINGS = {"STREAM_KEEPALIVE": "1"}
SLOW_POLL = "60"  # polling this slow cannot explain a redraw within seconds
AT_ONCE = 3.0  # seconds: "within ~2 s", with a margin for a busy machine

needs_tmux = pytest.mark.skipif(not Path(TMUX).exists(), reason="tmux is not installed")


@pytest.fixture(scope="module")
def tokens(players_config: Path) -> dict[str, str]:
    store = ProfileStore(players_config)
    return {name: str(store.load(name).token) for name in PLAYERS}


@pytest.fixture
def api(server: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10) as client:
        yield client


def step(api: httpx.Client, tokens: dict[str, str], game: dict[str, Any]) -> dict[str, Any]:
    """The player to move takes its best step."""
    kind, to = best_step(game)
    response = play(api, tokens[game["turn_username"]], game["id"], kind, to)
    assert response.status_code == 201, response.text
    return dict(response.json())


def toolbar(screen: str) -> str:
    return screen.rstrip().splitlines()[-1].rstrip()


def shell_command(game_id: int) -> str:
    return (f"{shlex.quote(sys.executable)} -m client.shell.app -g {game_id} "
            f"--poll-interval {SLOW_POLL}")


def wait_online(api: httpx.Client, token: str, game_id: int, name: str) -> None:
    """Until the game view says `name` holds a stream of the game."""
    deadline = time.monotonic() + 10
    while name not in (get_game(api, token, game_id).get("online") or []):
        assert time.monotonic() < deadline, f"{name} holds no stream of game {game_id}"
        time.sleep(0.05)


@needs_tmux
def test_the_opponents_move_and_message_are_shown_at_once(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    game = started_game(api, {"sue": tokens["sue"], "tom": tokens["tom"]}, size=5)
    me = "tom" if game["turn_username"] == "sue" else "sue"  # the opponent moves first
    terminal = Terminal(shell_command(game["id"]), shell_env(players_config, me))
    try:
        terminal.wait_for(f"| game {game['id']} started r{game['revision']}")
        wait_online(api, tokens[me], game["id"], me)  # the shell holds the game's stream
        moved = step(api, tokens, game)
        screen = terminal.wait_for(
            f"-- game {game['id']} changed (revision {moved['revision']}) --", AT_ONCE
        )
        assert f"#1 {game['turn_username']} ({game['turn']})" in screen
        terminal.wait_for("YOUR TURN", AT_ONCE)
        sent = api.post(f"/games/{game['id']}/messages", json={"text": "good luck"},
                        headers=auth(tokens[game["turn_username"]]))
        assert sent.status_code == 201, sent.text
        terminal.wait_for(f"[{game['turn_username']}] good luck", AT_ONCE)
    finally:
        terminal.close()


@needs_tmux
def test_a_masked_games_wall_is_drawn_without_its_square_in_the_history(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    """Issue 48 item 5 (SPEC §4): in a masked game in play the shell's last actions say
    "a wall was placed", without the square (with two players the turn order would tell
    whose wall each square is); the board still draws the wall."""
    game = started_game(api, {"sue": tokens["sue"], "tom": tokens["tom"]}, size=5,
                        masked=True)
    me = "tom" if game["turn_username"] == "sue" else "sue"  # the opponent moves first
    terminal = Terminal(shell_command(game["id"]), shell_env(players_config, me))
    try:
        terminal.wait_for(f"| game {game['id']} started r{game['revision']}")
        wait_online(api, tokens[me], game["id"], me)
        placed = play(api, tokens[game["turn_username"]], game["id"], "wall", "b2h")
        assert placed.status_code == 201, placed.text
        screen = terminal.wait_for(
            f"-- game {game['id']} changed (revision {placed.json()['revision']}) --", AT_ONCE
        )
        screen = terminal.wait_for("#1 a wall was placed", AT_ONCE)
        assert "b2h" not in screen and f"#1 {game['turn_username']}" not in screen, screen
    finally:
        terminal.close()


@needs_tmux
def test_the_shell_reconnects_and_catches_up_when_the_server_returns(
    tmp_path: Path,
) -> None:
    settings = {"STREAM_KEEPALIVE": "1"}
    config = tmp_path / "config"
    with running_server(tmp_path / "server", **settings) as server:
        add_inserted_players(server, config, ["uma", "vic"])
        store = ProfileStore(config)
        own = {name: str(store.load(name).token) for name in ("uma", "vic")}
        with httpx.Client(base_url=server.api, timeout=10) as api:
            game = started_game(api, own, size=5)
        me = "vic" if game["turn_username"] == "uma" else "uma"
        port = int(server.base_url.rsplit(":", 1)[1])
        env = server_env(tmp_path / "server", server.database_url, port, **settings)
        terminal = Terminal(shell_command(game["id"]), shell_env(config, me))
        restarted = None
        try:
            terminal.wait_for(f"| game {game['id']} started r{game['revision']}")
            stop(server.process)
            screen = terminal.wait_for("CONNECTION LOST, reconnecting")
            assert f"last known: game {game['id']} started" in screen
            restarted, log_path = start_process(tmp_path / "server", env)
            wait_until_up(server.base_url, restarted, log_path)
            with httpx.Client(base_url=server.api, timeout=10) as api:
                moved = step(api, own, game)  # most likely before the shell is back
            terminal.wait_for(f"-- game {game['id']} changed (revision {moved['revision']}) --")
            terminal.wait_until(lambda text: toolbar(text).endswith("YOUR TURN" + KEYS)
                                and "CONNECTION LOST" not in toolbar(text),
                                "the toolbar without the lost connection")
        finally:
            terminal.close()
            if restarted is not None:
                stop(restarted)


def wait_turn(
    api: httpx.Client, token: str, game_id: int, name: str, after: int = -1
) -> dict[str, Any]:
    """The game past revision `after` once it is `name`'s turn (the bot has answered) or
    over."""
    deadline = time.monotonic() + 20
    while True:
        game = get_game(api, token, game_id)
        if game["revision"] > after and (
            game["status"] != "started" or game["turn_username"] == name
        ):
            return game
        assert time.monotonic() < deadline, f"the bot did not move: {game}"
        time.sleep(0.05)


@needs_tmux
def test_a_fast_bots_reply_to_each_move_is_drawn(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    """A level-1 bot answers within milliseconds, often before the shell looks at the game
    again after the move: its reply is drawn all the same, after every move."""
    terminal = Terminal(f"{shlex.quote(sys.executable)} -m client.shell.app "
                        f"--poll-interval {SLOW_POLL}", shell_env(players_config, "sue"))
    try:
        terminal.wait_for("cq>")
        terminal.type("new --bot 1 -b 7")
        terminal.send("Enter")
        screen = terminal.wait_for("it has started.")
        game_id = int(screen.split("Created game ", 1)[1].split(" ", 1)[0])
        terminal.type(f"use {game_id}")
        terminal.send("Enter")
        terminal.wait_for(f"Current game: {game_id}.")
        for _ in range(4):
            game = wait_turn(api, tokens["sue"], game_id, "sue")
            if game["status"] != "started":
                break
            kind, to = best_step(game)
            terminal.type(f"{kind} {to}")
            terminal.send("Enter")
            answered = wait_turn(api, tokens["sue"], game_id, "sue", game["revision"])
            screen = terminal.wait_for(
                f"-- game {game_id} changed (revision {answered['revision']}) --", AT_ONCE
            )
            board = screen.rsplit(f"changed (revision {answered['revision']}) --", 1)[1]
            if answered["status"] == "started":
                assert "Turn: sue" in board, board
            terminal.wait_until(lambda text: toolbar(text).endswith("YOUR TURN" + KEYS),
                                "YOUR TURN", AT_ONCE)
    finally:
        terminal.close()


class Follower:
    """The shell's watch loops (stream and poll) for one profile, run in this process;
    `gets` counts the GET /games/{id} of the watch."""

    def __init__(self, config: Path, profile: str, game_id: int) -> None:
        self.state = AppState(store=ProfileStore(config), profile_name=profile)
        self.state.current_game = game_id
        self.watch = GameWatch(self.state)
        self.notes: list[str] = []
        self.said: list[str] = []
        self.idle = asyncio.Event()
        self.idle.set()
        self.gets = 0
        self.follow: StreamFollow | None = None

    def draw(self, game: dict[str, Any], note: str) -> None:
        self.notes.append(note or f"drawn r{game['revision']}")
        self.watch.drew(game)

    def count(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def game(api: ApiClient, game_id: int, at: int | None = None) -> Any:
            self.gets += 1
            return original(api, game_id, at)

        return game

    async def run(self, scenario: Callable[[Follower], Any]) -> None:
        await asyncio.to_thread(self.watch.after_command)
        assert self.watch.game is not None
        self.draw(self.watch.game, "")
        self.follow = StreamFollow(self.state, asyncio.get_running_loop())
        self.follow.switch(self.state.current_game)
        follow = self.follow
        tasks = [
            asyncio.create_task(watch_loop(self.watch, self.draw, 0.2,
                                           should_poll=lambda: follow.polling)),
            asyncio.create_task(follow_loop(self.watch, follow, self.draw, self.said.append,
                                            self.idle)),
        ]
        try:
            await scenario(self)
        finally:
            follow.stop()
            for task in tasks:
                task.cancel()

    async def wait_note(self, text: str, timeout: float = AT_ONCE) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in note for note in self.notes):
            assert time.monotonic() < deadline, f"{text!r} not drawn: {self.notes}"
            await asyncio.sleep(0.05)


def changed(game: dict[str, Any]) -> str:
    return f"-- game {game['id']} changed (revision {game['revision']}) --"


def test_the_watch_follows_the_stream_without_polling(
    api: httpx.Client, tokens: dict[str, str], players_config: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = started_game(api, {"sue": tokens["sue"], "tom": tokens["tom"]}, size=5)
    me = "tom" if game["turn_username"] == "sue" else "sue"
    follower = Follower(players_config, me, game["id"])
    monkeypatch.setattr(ApiClient, "game", follower.count(ApiClient.game))

    async def scenario(f: Follower) -> None:
        await asyncio.to_thread(wait_online, api, tokens[me], game["id"], me)
        before = f.gets
        theirs = await asyncio.to_thread(step, api, tokens, game)
        await f.wait_note(changed(theirs))
        # my own move, as a command of the shell: not redrawn as someone else's
        f.idle.clear()
        mine = await asyncio.to_thread(step, api, tokens, theirs)
        await asyncio.sleep(0.5)  # pacing: its event is in, held back while the command runs
        await asyncio.to_thread(f.watch.after_command)
        after_command = f.gets
        f.idle.set()
        await asyncio.sleep(1.0)  # pacing: no redraw must come
        assert not any(changed(mine) in note for note in f.notes), f.notes
        assert f.watch.revision == mine["revision"]
        # 2.5 s of polling every 0.2 s would have fetched the game a dozen times
        assert f.gets - before == after_command - before == 1
        assert f.follow is not None and not f.follow.polling

    asyncio.run(follower.run(scenario))


def test_a_move_made_before_the_stream_opens_is_drawn(
    api: httpx.Client, tokens: dict[str, str], players_config: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board is drawn from the game fetched at start; the opponent moves before the
    shell's stream is open: the stream's first event brings the move, and it is drawn."""
    game = started_game(api, {"sue": tokens["sue"], "tom": tokens["tom"]}, size=5)
    me = "tom" if game["turn_username"] == "sue" else "sue"
    follower = Follower(players_config, me, game["id"])
    opened = ApiClient.game_events
    moved: list[dict[str, Any]] = []

    def move_first(self: ApiClient, *args: Any, **kwargs: Any) -> Any:
        if not moved:  # drawn already, the stream not open yet: the opponent moves
            moved.append(step(api, tokens, game))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(ApiClient, "game_events", move_first)

    async def scenario(f: Follower) -> None:
        assert f.notes == [f"drawn r{game['revision']}"]
        deadline = time.monotonic() + AT_ONCE
        while not moved:
            assert time.monotonic() < deadline, "the shell opened no stream"
            await asyncio.sleep(0.05)
        await f.wait_note(changed(moved[0]))

    asyncio.run(follower.run(scenario))


def test_the_watch_polls_when_the_server_has_no_stream(
    api: httpx.Client, tokens: dict[str, str], players_config: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = started_game(api, {"sue": tokens["sue"], "tom": tokens["tom"]}, size=5)
    me = "tom" if game["turn_username"] == "sue" else "sue"
    follower = Follower(players_config, me, game["id"])
    monkeypatch.setattr(ApiClient, "game", follower.count(ApiClient.game))

    def no_stream(*args: Any, **kwargs: Any) -> Any:  # an older server: no such route
        raise RefusedError("no such resource", reason="not_found")

    monkeypatch.setattr(ApiClient, "game_events", no_stream)

    async def scenario(f: Follower) -> None:
        deadline = time.monotonic() + AT_ONCE
        while f.follow is None or not f.follow.polling:
            assert time.monotonic() < deadline, "the shell did not fall back to polling"
            await asyncio.sleep(0.05)
        before = f.gets
        theirs = await asyncio.to_thread(step, api, tokens, game)
        await f.wait_note(changed(theirs))
        deadline = time.monotonic() + 10  # it goes on polling (a loaded machine: slower)
        while f.gets - before < 3:
            assert time.monotonic() < deadline, f"{f.gets - before} polls in 10 s"
            await asyncio.sleep(0.05)

    asyncio.run(follower.run(scenario))


def offline(api: httpx.Client, token: str, game_id: int, name: str) -> None:
    """Until the game view says `name` holds no stream of the game."""
    deadline = time.monotonic() + 10
    while name in (get_game(api, token, game_id).get("online") or []):
        assert time.monotonic() < deadline, f"{name} still holds a stream of game {game_id}"
        time.sleep(0.05)


def test_use_switches_the_stream_to_the_new_current_game(
    api: httpx.Client, tokens: dict[str, str], players_config: Path
) -> None:
    players = {"sue": tokens["sue"], "tom": tokens["tom"]}
    first, second = started_game(api, players, size=5), started_game(api, players, size=7)
    follower = Follower(players_config, "sue", first["id"])

    async def scenario(f: Follower) -> None:
        await asyncio.to_thread(wait_online, api, tokens["sue"], first["id"], "sue")
        f.idle.clear()  # 'use SECOND', as the shell runs it
        f.state.current_game = second["id"]
        await asyncio.to_thread(f.watch.after_command)
        assert f.watch.game is not None
        f.watch.drew(f.watch.game)  # as 'use' draws it
        assert f.follow is not None
        f.follow.switch(second["id"])
        f.idle.set()
        await asyncio.to_thread(wait_online, api, tokens["sue"], second["id"], "sue")
        await asyncio.to_thread(offline, api, tokens["sue"], first["id"], "sue")
        await asyncio.to_thread(step, api, tokens, first)  # no longer followed
        theirs = await asyncio.to_thread(step, api, tokens, second)
        await f.wait_note(changed(theirs))
        assert not any(f"game {first['id']} changed" in note for note in f.notes), f.notes

    asyncio.run(follower.run(scenario))
