"""A stream's `game` event is the game exactly as `GET /games/{id}` shows it to its reader.

The live look builds a spectator's view from what this process remembers of the move
(the board its answer worked out, the game as it left it: services/game_views.Board,
last_commit.read) rather than from scratch. These tests play whole games in every mode,
walls included, and compare after every action what each stream got (a spectator and
both players) with what GET answers the same reader at that revision: a board kept for
the wrong reader (an invisible wall, a masked owner) or a stale one would differ.
"""

from __future__ import annotations

import httpx
import pytest

from tests.api.mode_helpers import act, best_step, pick_wall, start
from tests.support.games import get_game
from tests.support.server import RunningServer
from tests.support.sse import EventReader, game_at, without_presence
from tests.support.users import insert_user

MODES = {
    "open": {},
    "masked": {"masked": True},
    "invisible": {"invisible": True},
    "masked_invisible": {"masked": True, "invisible": True},
}


@pytest.mark.parametrize("mode", list(MODES))
def test_every_readers_stream_shows_the_game_as_get_shows_it_after_each_action(
    server: RunningServer, client: httpx.Client, mode: str
) -> None:
    short = "".join(part[0] for part in mode.split("_"))  # o, m, i, mi
    names = (f"views{short}a", f"views{short}b")
    tokens = {name: insert_user(server.database_url, name) for name in names}
    tokens[f"views{short}w"] = insert_user(server.database_url, f"views{short}w")
    match = start(client, {name: tokens[name] for name in names}, **MODES[mode])
    readers = {
        name: EventReader(f"{server.api}/games/{match.id}/events", token).start()
        for name, token in tokens.items()
    }
    try:
        for reader in readers.values():
            reader.next("game")
        walls = 0
        while not match.mirror.is_finished:
            wall = pick_wall(match.mirror, frozenset()) if walls < 4 else None
            if wall is not None:
                walls += 1
                act(client, match, "wall", wall)
            else:
                step = best_step(match.mirror)
                act(client, match, "jump" if step.jump else "move", str(step.to))
            revision = match.game["revision"]
            for name, reader in readers.items():
                streamed = game_at(reader, revision)
                shown = get_game(client, tokens[name], match.id)
                assert shown["revision"] == revision
                assert without_presence(streamed) == without_presence(shown), (name, revision)
        assert match.game["status"] == "finished"
    finally:
        for reader in readers.values():
            reader.close()


def test_a_masked_games_streams_say_a_wall_was_placed_without_its_square(
    server: RunningServer, client: httpx.Client
) -> None:
    """Issue 48 item 5 (SPEC §4): with two players the turn order tells whose each action
    was, so a masked game's `action` events of walls carry no square (nor player) for any
    reader, its owner included; the `game` events show every
    wall, in the board's order rather than the order they were placed."""
    names = ("streammska", "streammskb")
    tokens = {name: insert_user(server.database_url, name) for name in names}
    tokens["streammskw"] = insert_user(server.database_url, "streammskw")
    match = start(client, {name: tokens[name] for name in names}, masked=True, size=7)
    readers = {
        name: EventReader(f"{server.api}/games/{match.id}/events", token).start()
        for name, token in tokens.items()
    }
    try:
        for reader in readers.values():
            reader.next("game")
        placed = []
        for _ in range(3):
            wall = pick_wall(match.mirror, frozenset())
            assert wall is not None
            placed.append(wall)
            act(client, match, "wall", wall)
        step = best_step(match.mirror)
        act(client, match, "jump" if step.jump else "move", str(step.to))
        assert placed != sorted(placed), placed
        for name, reader in readers.items():
            actions = [reader.next("action")["data"] for _ in range(4)]
            assert [(a["n"], a["type"]) for a in actions[:3]] == [
                (1, "wall"), (2, "wall"), (3, "wall")], (name, actions)
            for action in actions[:3]:
                assert action["notation"] is None and action["seat"] is None, (name, action)
                assert action["username"] is None, (name, action)
            assert actions[3]["notation"] == str(step.to)  # pawn moves stay told
            shown = game_at(reader, match.game["revision"])
            assert [w["wall"] for w in shown["walls"]] == sorted(placed), (name, shown)
    finally:
        for reader in readers.values():
            reader.close()
