"""cq game against the real server: whole games played to the end, and every error path."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.client.play_helpers import (
    best_step,
    created_id,
    game_json,
    play_to_the_end,
)

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def new_game(cq: Cq, *args: str, profile: str = "ann") -> int:
    result = cq("game", "new", *args, profile=profile)
    assert result.exit_code == 0, result.output
    return created_id(result)


def started_game(cq: Cq, size: int = 5) -> int:
    game_id = new_game(cq, "-b", str(size))
    joined = cq("game", "join", "-g", str(game_id), profile="ben")
    assert joined.exit_code == 0, joined.output
    return game_id


def test_two_player_game_played_to_the_end(cq: Cq) -> None:
    game_id = new_game(cq, "-n", "2", "-b", "5")
    waiting = cq("game", "show", "-g", str(game_id), profile="ann")
    assert "Waiting for players: 1 of 2 joined (ann)" in waiting.output
    joined = cq("game", "join", "--game-id", str(game_id), profile="ben")
    assert joined.exit_code == 0, joined.output
    assert f"Joined game {game_id}; it has started." in joined.output
    final = play_to_the_end(cq, game_id, ["ann", "ben"], walls_each=2)
    assert final["status"] == "finished"
    winner = final["winner"]
    shown = cq("game", "show", "-g", str(game_id), profile="ann")
    assert f"Game {game_id} · Finished" in shown.output
    assert f"Winner: {winner}" in shown.output
    assert "placed wall" in shown.output or "moved to" in shown.output
    won = cq("game", "list", "-u", "me", "-g", "won", profile=winner)
    assert re.search(rf"^{game_id}\s+Finished\s+2\s+5X5", won.output, re.M), won.output
    assert cq("game", "move", "-g", str(game_id), "north", profile="ann").exit_code == 4


def test_four_player_game_played_to_the_end(cq: Cq) -> None:
    game_id = new_game(cq, "-n", "4", "-b", "7")
    assert cq("game", "join", "-g", str(game_id), profile="ben").exit_code == 0
    third = cq("game", "join", "-g", str(game_id), profile="cat")
    assert f"Joined game {game_id}; 3 of 4 players are here" in third.output
    assert cq("game", "join", "-g", str(game_id), profile="cat").exit_code == 4
    assert cq("game", "join", "-g", str(game_id), profile="dan").exit_code == 0
    game = game_json(cq, game_id, "dan")
    assert game["status"] == "started" and len(game["seats"]) == 4
    final = play_to_the_end(cq, game_id, PLAYERS, walls_each=1)
    assert final["status"] == "finished"
    assert final["winner"] in PLAYERS
    listed = cq("game", "list", "-s", "finished", profile="dan")
    assert re.search(rf"^{game_id}\s+Finished\s+4\s+7X7", listed.output, re.M), listed.output


def test_play_errors_carry_the_servers_reason(cq: Cq) -> None:
    game_id = started_game(cq)
    game = game_json(cq, game_id, "ann")
    mover = game["turn_username"]
    other = "ben" if mover == "ann" else "ann"
    not_turn = cq("game", "move", "-g", str(game_id), "north", profile=other)
    assert not_turn.exit_code == 4
    assert not_turn.stderr.startswith("Error: ") and len(not_turn.stderr.splitlines()) == 1
    bad_notation = cq("game", "move", "-g", str(game_id), "sideways", profile=mover)
    assert bad_notation.exit_code == 4
    assert "sideways" in bad_notation.stderr
    placed = cq("game", "place", "-g", str(game_id), "b2h", profile=mover)
    assert placed.exit_code == 0, placed.output
    assert "placed wall b2h" in placed.output
    overlap = cq("game", "place", "-g", str(game_id), "b2h", profile=other)
    assert overlap.exit_code == 4
    assert "b2h" in overlap.stderr
    unchanged = game_json(cq, game_id, "ann")
    assert unchanged["revision"] == game["revision"] + 1
    missing = cq("game", "show", "-g", "9999", profile="ann")
    assert missing.exit_code == 4
    assert missing.stderr.startswith("Error: ")


def test_move_output_and_jump_notation(cq: Cq) -> None:
    game_id = started_game(cq)
    game = game_json(cq, game_id, "ann")
    kind, to = best_step(game)
    result = cq("game", kind, "-g", str(game_id), to, profile=game["turn_username"])
    assert result.exit_code == 0, result.output
    assert re.match(r"#1 \w+ \((north|south)\) moved to [a-e][1-5]\n", result.output)
    assert "Turn: " in result.output and "+---" in result.output


def test_change_join_with_invitation_and_cancel(cq: Cq) -> None:
    game_id = new_game(cq, "-p", "-b", "7")
    private = game_json(cq, game_id, "ann")
    code = private["invitation_code"]
    assert private["private"] is True and code
    assert cq("game", "show", "-g", str(game_id), profile="ben").exit_code == 4
    not_admin = cq("game", "change", "-g", str(game_id), "-b", "9", profile="ben")
    assert not_admin.exit_code == 4
    changed = cq("game", "change", "-g", str(game_id), "-b", "9", "-m", "-n", "4",
                 profile="ann")
    assert changed.exit_code == 0, changed.output
    assert "Variant: 9x9, 4 players, masked walls: Yes" in changed.output
    nothing = cq("game", "change", "-g", str(game_id), profile="ann")
    assert nothing.exit_code == 2
    refused = cq("game", "join", "-g", str(game_id), "-i", "wrong-code", profile="ben")
    assert refused.exit_code == 4
    joined = cq("game", "join", "-g", str(game_id), "-i", code, profile="ben")
    assert joined.exit_code == 0, joined.output
    assert "2 of 4 players are here" in joined.output
    left = cq("game", "cancel", "-g", str(game_id), profile="ben")
    assert left.output == f"You left game {game_id}; it waits for another player.\n"
    cancelled = cq("game", "cancel", "-g", str(game_id), profile="ann")
    assert cancelled.output == f"Game {game_id} is cancelled.\n"
    again = cq("game", "cancel", "-g", str(game_id), profile="ann")
    assert again.exit_code == 4
    # `game show` says why (issue 25, item 13), as the server gives it
    reason = game_json(cq, game_id, "ann")["cancel_reason"]
    assert reason and "ann" in reason
    shown = cq("game", "show", "-g", str(game_id), profile="ann")
    assert re.search(rf"^Cancelled \(\d{{4}}-\d\d-\d\d \d\d:\d\d UTC\): {re.escape(reason)}$",
                     shown.output, re.M), shown.output
    # the help spells "cancelled" as the output does; the manual's "canceled" still works
    assert "cancelled]" in cq("game", "list", "--help").output
    assert "canceled" not in cq("game", "list", "--help").output
    for spelling in ("cancelled", "canceled"):
        listed = cq("game", "list", "-s", spelling, profile="ann")
        assert re.search(rf"^{game_id}\s+Cancelled\s", listed.output, re.M), listed.output


def test_new_game_with_invites_and_list_filters(cq: Cq) -> None:
    game_id = new_game(cq, "--invite", "cat", "--invite", "dan", "-x", profile="ben")
    created = game_json(cq, game_id, "ben")
    assert created["invitation_code"] and created["invisible"] is True
    bad_invitee = cq("game", "new", "--invite", "nobody", profile="ben")
    assert bad_invitee.exit_code == 4
    waiting = cq("game", "list", "-s", "waiting", profile="cat")
    assert re.search(rf"^{game_id}\s+Waiting\s+2\s+9X9", waiting.output, re.M), waiting.output
    mine = cq("game", "list", "-u", "me", "-g", "admin", profile="ben")
    assert re.search(rf"^{game_id}\s", mine.output, re.M)
    assert cq("game", "list", "-u", "me", "-g", "admin", profile="dan").output.startswith(
        "No games found.")


def test_completion_of_game_ids_from_the_server(cq: Cq, players_config: Path) -> None:
    game_id = new_game(cq, "-b", "5", profile="cat")
    result = cq(env={"_CQ_COMPLETE": "bash_complete", "COMP_WORDS": "cq game show -g ",
                     "COMP_CWORD": "4", "CQ_PROFILE": "cat"})
    assert result.exit_code == 0
    assert f"plain,{game_id}" in result.output.splitlines()


def test_show_uses_the_users_theme_in_colour_and_letters_without(cq: Cq) -> None:
    from client.render.themes import THEMES

    game_id = started_game(cq)
    assert cq("user", "theme", "light", profile="ben").exit_code == 0
    coloured = cq("game", "show", "-g", str(game_id), profile="ben",
                  env={"NO_COLOR": "", "CQ_FORCE_COLOR": "1"})
    assert coloured.exit_code == 0, coloured.output
    light_north = f"\x1b[38;5;{THEMES['light'].seats['north']}m"
    assert light_north in coloured.output and "▼" in coloured.output
    plain = cq("game", "show", "-g", str(game_id), profile="ben")
    assert "\x1b" not in plain.output and "▼" not in plain.output
    assert " N " in plain.output and " S " in plain.output
    assert cq("user", "theme", "dark", profile="ben").exit_code == 0
