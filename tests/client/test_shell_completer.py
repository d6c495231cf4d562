"""cq-shell completion from the command table and a known game position."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from client.shell.commands import BY_NAME, TABLE, run_line
from client.shell.completer import ShellCompleter
from client.shell.live import GameWatch
from client.state import AppState

pytestmark = pytest.mark.backend_neutral  # no database: completion

GAME = {
    "id": 5, "status": "started", "revision": 3, "size": 9, "players": 2,
    "masked": False, "invisible": False, "private": False, "admin": "alice",
    "seats": [{"seat": "north", "username": "alice", "walls_left": 10, "distance": 5},
              {"seat": "south", "username": "bob", "walls_left": 0, "distance": 4}],
    "turn": "south", "turn_username": "bob", "winner": None,
    "pawns": {"north": "e5", "south": "e4"},
    "walls": [{"wall": "d3v", "owner": "north"}],
    "last_actions": [],
}


def completions(text: str, game: dict[str, object] | None = GAME) -> list[str]:
    watch = GameWatch(AppState())
    watch.game = dict(game) if game else None
    completer = ShellCompleter(watch)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def test_first_word_completes_from_the_command_table(config_dir: Path) -> None:
    assert completions("") == [c.name for c in TABLE]
    assert completions("g") == ["game"]
    assert set(completions("p")) == {"place", "profile"}


def test_subcommands_and_options_complete(config_dir: Path) -> None:
    assert set(completions("game ")) == {
        "show", "new", "list", "join", "change", "cancel", "move", "jump", "place",
        "message", "offer", "trade", "mark", "unmark", "leaderboard", "watch", "export", "import",
        "analyse",
        "bot", "rematch"}
    assert completions("game li") == ["list"]
    assert completions("game list -") == ["-s", "--status", "-u", "--user", "-g", "--game",
                                          "--relation", "--help"]
    assert completions("game list --status ") == ["waiting", "active", "finished", "cancelled",
                                                  "started"]
    assert completions("user theme ") == ["dark", "light", "translucent"]


def test_move_completes_the_legal_squares_of_the_player_to_move(config_dir: Path) -> None:
    # South on e4 faces North on e5 (no step north) and d3v walls off d4 (no step west).
    assert completions("move ") == ["east", "south", "e3", "f4"]
    assert completions("game move -g 5 e") == ["east", "e3"]
    assert completions("jump ") == ["north", "e6"]


def test_place_completes_nothing_without_walls_in_hand(config_dir: Path) -> None:
    assert completions("place ") == []
    with_walls = dict(GAME, seats=[dict(s, walls_left=3) for s in GAME["seats"]])  # type: ignore[attr-defined]
    walls = completions("place ", with_walls)
    assert "e4h" in walls and "d3v" not in walls and "d3h" not in walls and "d4v" not in walls
    assert completions("place a1", with_walls) == ["a1h", "a1v"]


def test_no_current_game_means_no_targets(config_dir: Path) -> None:
    assert completions("move ", None) == []


def test_use_requires_a_number_and_unknown_words_are_refused(
    config_dir: Path, capsys: object
) -> None:
    state = AppState()
    assert run_line(state, "use") == 2
    assert run_line(state, "use abc") == 2
    assert run_line(state, "dance") == 2
    assert run_line(state, 'game show -g "1') == 2
    assert state.current_game is None
    assert "move" in BY_NAME and BY_NAME["move"].cq_path == ("game", "move")


def test_game_commands_work_and_complete_without_the_game_prefix(config_dir: Path) -> None:
    assert completions("mes") == ["message"]
    assert set(completions("message ")) == {"send", "list", "mute"}
    assert "--to" in completions("message send -")
    assert BY_NAME["message"].cq_path == ("game", "message")
    assert BY_NAME["offer"].help.endswith("(current game)")
    assert not BY_NAME["new"].help.endswith("(current game)")
    # the manual's spelling of ntfy-dm-topic completes its options too
    assert "--ntfy-dm-topic" in completions("user ntfy_dm_topic -")


def test_help_in_the_shell_gives_the_current_game_as_the_default(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = AppState()
    assert run_line(state, "help message send") == 0
    assert "[required]" in capsys.readouterr().out
    state.current_game = 8
    assert run_line(state, "help message send") == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: game message send [OPTIONS] <TEXT>...")
    assert "[default: the current game, 8]" in " ".join(out.split())


def test_watch_in_the_shell_points_to_use_instead_of_blocking_the_prompt(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = AppState()
    for line in ("watch", "watch -g 3", "game watch -g 3"):
        assert run_line(state, line) == 2
        assert "the shell follows its current game live already: 'use GAME_ID'" in (
            capsys.readouterr().err)
    assert run_line(state, "game watch --help") == 0
    assert "Watch a game live." in capsys.readouterr().out


def test_help_lists_each_command_once(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_line(AppState(), "help") == 0
    words = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert words.count("leaderboard") == 1  # `cq leaderboard` is `cq game leaderboard`
    assert len(words) == len(set(words)) and "move" in words and "profile" in words
    assert run_line(AppState(), "leaderboard --help") == 0
    assert "--rating" in capsys.readouterr().out
