"""The shell's toolbar in any width: what matters during a game is never cut (issue 25,
item 11; the real terminal at 80 and 120 columns: test_shell_tmux_session.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from client.errors import RefusedError
from client.profiles import Profile, ProfileStore
from client.shell.live import GameWatch
from client.shell.toolbar import toolbar_text
from client.state import AppState

pytestmark = pytest.mark.backend_neutral  # no database: the toolbar's layout

URL = "http://a-rather-long-host-name.example.com:3000"


@pytest.fixture
def state(config_dir: Path) -> AppState:
    store = ProfileStore(config_dir)
    store.save(Profile(name="default", server_url=URL, username="alice", token="t"))
    state = AppState(store=store)
    state.current_game = 12
    return state


def watch(state: AppState, problem: Any = None) -> GameWatch:
    found = GameWatch(state)
    found.game = {"id": 12, "status": "started", "revision": 5, "turn_username": "alice"}
    found.problem = problem
    return found


@pytest.mark.parametrize("width", [0, 160, 120, 100, 80, 60, 40, 30, 24])
def test_the_toolbar_fits_and_keeps_the_game_and_the_turn(state: AppState, width: int) -> None:
    line = toolbar_text(state, watch(state), width)
    assert width == 0 or len(line) <= width
    assert line.rstrip().endswith("YOUR TURN") or line.endswith("[F5 board, F1 help]")
    assert "game 12" in line and "YOUR TURN" in line
    if width in (0, 160):
        assert line == (f" alice @ {URL} | profile default | game 12 started r5 | YOUR TURN"
                        "  [F5 board, F1 help]")


def test_a_long_refusal_is_cut_before_the_game_and_the_turn(state: AppState) -> None:
    refusal = RefusedError("you may not see this game: it is private and you are not invited "
                           "to it, ask its game admin for the invitation code")
    line = toolbar_text(state, watch(state, refusal), 80)
    assert len(line) <= 80
    assert line.startswith(" you may not see this game") and "…" in line
    assert line.endswith(" | game 12 | YOUR TURN")
