"""The bot's input is built from its seat's API view (bot_play/seat_views.py): in a masked
game it works out what a player does (who moved first, its own walls left, which the view
hides) and knows nothing the view hides (no owners, no other counts). Checked against the
engine's own `seat_view` of the whole game, through the real server (BOT_WORKERS=0: the
test plays the bot's moves itself, with a session written for it into the database)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest

from client.legal import state_from_game
from corridorquest.bot_play.seat_views import seat_view_from_api
from corridorquest.bots import seat_view
from corridorquest.engine import GameState, format_action
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.store import Store
from corridorquest.store.models import Session, User, utcnow
from tests.support.games import get_game, history, new_game, play
from tests.support.server import RunningServer, running_server
from tests.support.users import insert_user


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), bot_workers=0) as running:
        yield running


def bot_session(database_url: str, username: str) -> str:
    """A session for a bot, written into the database (a bot never logs in)."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    token = new_token()
    try:
        def create() -> None:
            now = utcnow()
            Session.create(token_hash=hash_token(token), user=User.find_by_name(username),
                           created_at=now, last_seen_at=now, expires_at=now + timedelta(days=1))
        store.run(create)
    finally:
        store.close()
    return token


@pytest.mark.parametrize("masked", [True, False])
def test_the_seat_view_from_the_api_is_what_the_seat_may_know(
    server: RunningServer, masked: bool
) -> None:
    person = f"pam{int(masked)}"
    tokens = {person: insert_user(server.database_url, person)}
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        game = new_game(client, tokens[person], size=5, masked=masked, bots=[1])
        tokens["bot-1"] = bot_session(server.database_url, "bot-1")
        # walls first from both sides (the first action a wall: masked, it names no seat),
        # then steps
        trail: list[str] = []  # the bot's squares since the last wall, as it stood
        for ply in range(8):
            mover = game["turn_username"]
            state = state_from_game(game)
            assert state is not None
            if ply == 5:
                bot_seat = next(s["seat"] for s in game["seats"] if s["username"] == "bot-1")
                trail.append(game["pawns"][bot_seat])
            if ply >= 5 and mover == "bot-1":
                trail.append(format_action(state.legal_steps()[0]))
            if ply < 5:
                walls = [format_action(w) for w in state.legal_walls()]
                answer = play(client, tokens[mover], game["id"], "wall", walls[len(walls) // 3])
            else:
                step = state.legal_steps()[0]
                answer = play(client, tokens[mover], game["id"],
                              "jump" if step.jump else "move", format_action(step))
            assert answer.status_code == 201, answer.text
            game = answer.json()
        assert game["turn_username"] in (person, "bot-1")
        bot_view = get_game(client, tokens["bot-1"], game["id"])
        bot_history = history(client, tokens["bot-1"], game["id"])
    built = seat_view_from_api(bot_view, bot_history, "bot-1")
    me = built.seat
    # what the engine says that seat may know of the whole game
    store_state = _state_of(server.database_url, game["id"])
    truth = seat_view(store_state, me, masked=masked)
    assert built.pawns == truth.pawns
    assert sorted(built.walls) == sorted(truth.walls)
    assert built.own_walls_left == truth.own_walls_left
    assert (built.first, built.ply, built.turn) == (truth.first, truth.ply, truth.turn)
    # the trail it never steps back onto to wait (issue 51): its squares since the last wall
    assert list(built.trail) == trail and trail[-1] == built.pawns[me]
    if masked:
        assert built.walls_left is None and built.own_walls == ()
    else:
        assert built.walls_left == truth.walls_left
        assert sorted(built.own_walls) == sorted(truth.own_walls)


def _state_of(database_url: str, game_id: int) -> GameState:
    """The stored position (only to check the test's expectation against)."""
    from corridorquest.services.last_commit.positions import parse
    from corridorquest.store.models import Game

    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return parse(store.run(lambda: Game.get_by_id(game_id).state))
    finally:
        store.close()
