"""cq with the server's bots (SPEC §13): a person plays a 4-player game against three bots
to the end and asks for a rematch, seats a bot in a waiting game, and bad seating is
refused with the server's reason. Small boards and levels 1-3: each bot move takes milliseconds."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import Result

from tests.client.play_helpers import best_step, created_id, game_json

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben"]
INSERT_PLAYERS = True
SERVER_SETTINGS = {"bot_workers": 1}


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def wait_for_turn(cq: Cq, game_id: int, name: str, timeout: float = 20.0) -> dict[str, Any]:
    """The game once it is `name`'s turn or over (the bots move meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        game = game_json(cq, game_id, name)
        if game["status"] != "started" or game["turn_username"] == name:
            return game
        assert time.monotonic() < deadline, f"the bots did not move: {game}"
        time.sleep(0.05)


def test_a_person_plays_a_four_player_game_with_three_bots_to_the_end(cq: Cq) -> None:
    made = cq("game", "new", "-n", "4", "-b", "5", "--bot", "1", "--bot", "2", "--bot", "3",
              profile="ann")
    assert made.exit_code == 0, made.output
    assert "bot-1 (level 1), bot-2 (level 2), bot-3 (level 3); it has started." in made.output
    game_id = created_id(made)
    mine = 0
    for _ in range(200):
        game = wait_for_turn(cq, game_id, "ann")
        if game["status"] != "started":
            break
        kind, to = best_step(game)
        moved = cq("game", kind, "-g", str(game_id), to, profile="ann")
        assert moved.exit_code == 0, moved.output
        mine += 1
    assert game["status"] == "finished", game
    assert mine >= 1
    assert game["winner"] in ("ann", "bot-1", "bot-2", "bot-3")
    assert set(game["scores"]) == {"ann", "bot-1", "bot-2", "bot-3"}
    shown = cq("game", "show", "-g", str(game_id), profile="ann")
    assert "bot, level 2" in shown.output
    history = cq("game", "show", "-g", str(game_id), "--json", profile="ann")
    assert history.exit_code == 0
    listed = cq("game", "list", "-u", "me", profile="ann")
    assert "bot-3 (bot 3)" in listed.output, listed.output
    # the same game again: the three bots take their seats and it starts at once
    again = cq("game", "rematch", "-g", str(game_id), profile="ann")
    assert again.exit_code == 0, again.output
    assert f"Rematch of game {game_id}: game " in again.output
    assert "bot-1 (level 1), bot-2 (level 2), bot-3 (level 3); it has started." in again.output
    match = re.search(r"Rematch of game \d+: game (\d+)", again.output)
    assert match, again.output
    rematch = game_json(cq, int(match.group(1)), "ann")
    assert (rematch["status"], rematch["players"], rematch["size"]) == ("started", 4, 5)
    refused = cq("game", "rematch", "-g", str(rematch["id"]), profile="ann")
    assert refused.exit_code != 0 and "a rematch follows a finished game" in refused.output


def test_cq_game_bot_seats_a_bot_and_the_bot_plays(cq: Cq) -> None:
    made = cq("game", "new", "-n", "2", "-b", "5", profile="ben")
    game_id = created_id(made)
    refused = cq("game", "bot", "-g", str(game_id), "2", profile="ann")
    assert refused.exit_code != 0
    assert f"only the creator of game {game_id} may seat a bot in it" in refused.output
    bad = cq("game", "bot", "-g", str(game_id), "7", profile="ben")
    assert bad.exit_code == 2 and "7" in bad.output
    seated = cq("game", "bot", "-g", str(game_id), "2", profile="ben")
    assert seated.exit_code == 0, seated.output
    assert f"Seated the bot of level 2 in game {game_id}; it has started" in seated.output
    game = wait_for_turn(cq, game_id, "ben")
    assert game["status"] == "started" and game["turn_username"] == "ben"
    if game["last_actions"]:  # the bot moved first: its move is in the game
        assert game["last_actions"][-1]["username"] == "bot-2"
    again = cq("game", "bot", "-g", str(game_id), "3", profile="ben")
    assert again.exit_code != 0
    assert f"game {game_id} has already started" in again.output


def test_three_bots_of_one_level_each_play_their_own_seat(cq: Cq) -> None:
    made = cq("game", "new", "-n", "4", "-b", "5", "--bot", "1", "--bot", "1", "--bot", "1",
              profile="ben")
    assert made.exit_code == 0, made.output
    for name in ("bot-1 (level 1)", "bot-1b (level 1)", "bot-1c (level 1)"):
        assert name in made.output, made.output
    assert "it has started." in made.output
    game_id = created_id(made)
    for _ in range(200):
        game = wait_for_turn(cq, game_id, "ben")
        if game["status"] != "started":
            break
        kind, to = best_step(game)
        moved = cq("game", kind, "-g", str(game_id), to, profile="ben")
        assert moved.exit_code == 0, moved.output
    assert game["status"] == "finished", game
    assert set(game["scores"]) == {"ben", "bot-1", "bot-1b", "bot-1c"}
    assert game["bots"] == {name: {"level": 1} for name in ("bot-1", "bot-1b", "bot-1c")}
    listed = cq("game", "list", "-u", "me", "-s", "finished", profile="ben")
    assert "bot-1b (bot 1)" in listed.output, listed.output
    # a waiting game seats the level again, one bot at a time: the same bots
    waiting = created_id(cq("game", "new", "-n", "4", "-b", "5", profile="ann"))
    for expected in ("bot-1", "bot-1b"):
        seated = cq("game", "bot", "-g", str(waiting), "1", profile="ann")
        assert seated.exit_code == 0, seated.output
        assert expected in game_json(cq, waiting, "ann")["bots"]


def test_move_with_wait_prints_the_board_once_the_bots_have_answered(cq: Cq) -> None:
    """`cq game move ... --wait` (issue 51 item 5): after the move the board where the bots
    are to play, then, without asking again, the board where it is the mover's turn."""
    made = cq("game", "new", "-n", "4", "-b", "5", "--bot", "1", "--bot", "1", "--bot", "1",
              profile="ann")
    assert made.exit_code == 0, made.output
    game_id = created_id(made)
    game = wait_for_turn(cq, game_id, "ann")
    for _ in range(3):
        if game["status"] != "started":
            break
        kind, to = best_step(game)
        moved = cq("game", kind, "-g", str(game_id), to, "--wait", "30", profile="ann")
        assert moved.exit_code == 0, moved.output
        shown = re.findall(rf"Game {game_id} · (\w+) ·", moved.output)
        # the move's board, then the one it waited for; only one if the move won
        assert shown == ["Finished"] or (len(shown) == 2 and shown[0] == "Active"), (
            moved.output
        )
        after = game_json(cq, game_id, "ann")
        assert after["revision"] > game["revision"]
        assert after["status"] != "started" or after["turn_username"] == "ann"
        game = after


def test_wait_gives_up_after_its_time_and_says_whose_turn_it_is(cq: Cq) -> None:
    made = cq("game", "new", "-n", "2", "-b", "5", profile="ann")
    game_id = created_id(made)
    joined = cq("game", "join", "-g", str(game_id), profile="ben")
    assert joined.exit_code == 0, joined.output
    game = game_json(cq, game_id, "ann")
    mover = game["turn_username"]
    other = "ben" if mover == "ann" else "ann"
    kind, to = best_step(game)
    started = time.monotonic()
    moved = cq("game", kind, "-g", str(game_id), to, "--wait", "1", profile=mover)
    assert moved.exit_code == 0, moved.output
    assert f"Still {other}'s turn after waiting 1 s." in moved.output
    assert time.monotonic() - started < 15
    refused = cq("game", kind, "-g", str(game_id), to, "--wait", "0", profile=mover)
    assert refused.exit_code != 0 and "--wait" in refused.output
