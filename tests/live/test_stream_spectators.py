"""Spectators that come, go and join a game while it is played, each stream followed live.

The hub shares one update among a game's plain spectators at one cursor and works out a
player's own (corridorquest/live/hub.py): a spectator that joins the game must get its
own view from then on, one that leaves must not disturb the others, and one that comes
mid-game starts from the game as it is. Between moves the test changes the spectators in
each of those ways and checks that every stream shows, after each move, the game exactly
as GET shows it to its reader, each revision once and in order.
"""

from __future__ import annotations

import httpx

from corridorquest.engine import GameState, Seat
from tests.api.mode_helpers import Match, act, best_step
from tests.support.games import get_game, join, new_game
from tests.support.server import RunningServer
from tests.support.sse import EventReader, game_at, without_presence
from tests.support.users import insert_user


def _step(client: httpx.Client, match: Match) -> int:
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    return int(match.game["revision"])


def test_spectators_that_come_go_and_join_each_get_the_game_as_get_shows_it(
    server: RunningServer, client: httpx.Client
) -> None:
    names = ["specadm", "specjoin", "spec1", "spec2", "spec3", "spec4"]
    tokens = {name: insert_user(server.database_url, name) for name in names}
    waiting = new_game(client, tokens["specadm"], players=2)
    url = f"{server.api}/games/{waiting['id']}/events"
    readers = {
        name: EventReader(url, tokens[name]).start()
        for name in ("specadm", "specjoin", "spec1", "spec2", "spec3")
    }
    try:
        for reader in readers.values():
            reader.next("game")
        # a spectator joins: from then on its stream shows the game as a player's
        joined = join(client, tokens["specjoin"], waiting["id"])
        assert joined.status_code == 201, joined.text
        game = joined.json()
        assert game["status"] == "started"
        match = Match(
            game,
            {s["seat"]: tokens[s["username"]] for s in game["seats"]},
            {s["seat"]: s["username"] for s in game["seats"]},
            GameState.new(size=game["size"], players=2, first=Seat(game["turn"])),
            {s["seat"]: [] for s in game["seats"]},
        )

        def check(revision: int) -> None:
            for name, reader in readers.items():
                streamed = game_at(reader, revision)
                shown = get_game(client, tokens[name], match.id)
                assert without_presence(streamed) == without_presence(shown), (name, revision)

        check(game["revision"])
        for _ in range(3):  # a few moves
            check(_step(client, match))
        # one spectator leaves: the others go on
        readers.pop("spec1").close()
        for _ in range(3):
            check(_step(client, match))
        # one more comes: it starts from the game as it is and follows
        readers["spec4"] = EventReader(url, tokens["spec4"]).start()
        assert readers["spec4"].next("game")["data"]["revision"] == match.game["revision"]
        for _ in range(3):
            check(_step(client, match))
        assert get_game(client, tokens["specjoin"], match.id)["trade_balance"] == 0
        assert get_game(client, tokens["spec2"], match.id)["trade_balance"] is None
    finally:
        for reader in readers.values():
            reader.close()
