"""Rematch through the real API (as lichess's "rematch"): after a finished game one of
its players starts the same game again, its other people invited (by e-mail here), its
bots seated; refusals change nothing. BOT_WORKERS=0: the bots' games stay as made."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from corridorquest.store.models import Game, GamePlayer, User
from tests.support.games import get_game, join, new_game
from tests.support.rated_games import duel, in_store
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, mail_text, wait_for_mail

NAMES = ["ann", "bob", "cid"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), BOT_WORKERS=0) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def games_count(server: RunningServer) -> int:
    return int(in_store(server.database_url, lambda: Game.select().count()))


def test_the_loser_asks_for_a_rematch_and_the_winner_is_invited_to_it(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    done = duel(client, server.database_url, tokens, "ann", "bob", masked=True)
    again = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["ann"]))
    assert again.status_code == 201, again.text
    game = again.json()
    assert game["id"] != done["id"] and game["status"] == "waiting"
    assert (game["size"], game["players"], game["masked"], game["invisible"]) == (5, 2, True, False)
    assert game["admin"] == "ann" and game["waiting_players"] == ["ann"]
    mail = wait_for_mail(server.mail_dir, "bob@example.test",
                         subject=f"ann invites you to game {game['id']}")
    assert game["invitation_code"] in mail_text(mail)
    joined = join(client, tokens["bob"], game["id"], invitation_code=game["invitation_code"])
    assert joined.status_code == 201 and joined.json()["status"] == "started", joined.text


def test_a_rematch_against_a_bot_seats_the_bot_and_starts_at_once(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    done = duel(client, server.database_url, tokens, "cid", "bob")

    def bob_was_bot_3() -> None:  # (what a game against bot-3 leaves; its revision moves)
        bot = User.get(User.username == "bot-3")
        bob = User.get(User.username == "bob")
        GamePlayer.update(user=bot.id).where(
            (GamePlayer.game == done["id"]) & (GamePlayer.user == bob.id)
        ).execute()
        Game.update(revision=Game.revision + 1).where(Game.id == done["id"]).execute()

    in_store(server.database_url, bob_was_bot_3)
    again = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["cid"]))
    assert again.status_code == 201, again.text
    game = again.json()
    assert game["status"] == "started" and game["bots"] == {"bot-3": {"level": 3}}
    assert sorted(s["username"] for s in game["seats"]) == ["bot-3", "cid"]
    assert game["invitation_code"] is None  # nobody to invite


@pytest.mark.parametrize(
    ("case", "status", "reason"),
    [
        ("started", 409, "game_not_finished"),
        ("stranger", 403, "not_a_player"),
        ("missing", 404, "game_not_found"),
        ("private", 404, "game_not_found"),  # a private game a stranger may not see
    ],
)
def test_a_rematch_is_refused_with_a_reason_and_makes_nothing(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str], case: str,
    status: int, reason: str,
) -> None:
    if case == "started":
        game = new_game(client, tokens["ann"], size=5)
        assert join(client, tokens["bob"], game["id"]).status_code == 201
        asker, game_id = "ann", game["id"]
    elif case == "stranger":
        asker, game_id = "cid", duel(client, server.database_url, tokens, "ann", "bob")["id"]
    elif case == "private":
        done = duel(client, server.database_url, tokens, "ann", "bob", private=True)
        asker, game_id = "cid", done["id"]
    else:
        asker, game_id = "ann", 999_999
    before = games_count(server)
    refused = client.post(f"/games/{game_id}/rematch", headers=auth(tokens[asker]))
    assert (refused.status_code, refused.json()["reason"]) == (status, reason), refused.text
    assert games_count(server) == before
    if case == "started":
        assert get_game(client, tokens["ann"], game_id)["status"] == "started"


def test_two_players_who_both_ask_for_the_rematch_meet_in_one_game(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    done = duel(client, server.database_url, tokens, "ann", "bob")
    assert get_game(client, tokens["bob"], done["id"])["rematch"] is None
    before = games_count(server)
    asked = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["ann"]))
    assert asked.status_code == 201, asked.text
    rematch = asked.json()["id"]
    shown = get_game(client, tokens["bob"], done["id"])["rematch"]
    assert shown == {"id": rematch, "status": "waiting", "admin": "ann", "players": ["ann"]}
    # ann asks again (a second click): the same game, nothing made
    again = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["ann"]))
    assert (again.status_code, again.json()["id"]) == (200, rematch), again.text
    # bob asks too: he joins ann's rematch, which starts
    accepted = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["bob"]))
    assert accepted.status_code == 201, accepted.text
    assert (accepted.json()["id"], accepted.json()["status"]) == (rematch, "started")
    assert games_count(server) == before + 1
    shown = get_game(client, tokens["ann"], done["id"])["rematch"]
    assert shown == {
        "id": rematch, "status": "started", "admin": "ann", "players": ["ann", "bob"]
    }
    once_more = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["bob"]))
    assert (once_more.status_code, once_more.json()["id"]) == (200, rematch)
    assert games_count(server) == before + 1


def test_a_rematch_left_before_it_started_makes_room_for_a_new_one(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    done = duel(client, server.database_url, tokens, "ann", "bob")
    first = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["ann"])).json()
    left = client.delete(f"/games/{first['id']}/players/me", headers=auth(tokens["ann"]))
    assert left.status_code == 200 and left.json()["status"] == "cancelled", left.text
    assert get_game(client, tokens["bob"], done["id"])["rematch"] is None
    second = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["bob"]))
    assert second.status_code == 201, second.text
    assert second.json()["id"] != first["id"] and second.json()["admin"] == "bob"
    assert second.json()["status"] == "waiting"


def test_a_rematch_a_stranger_joined_makes_room_for_a_new_one(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    done = duel(client, server.database_url, tokens, "ann", "bob")
    first = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["ann"])).json()
    taken = join(client, tokens["cid"], first["id"], invitation_code=first["invitation_code"])
    assert taken.status_code == 201 and taken.json()["status"] == "started", taken.text
    second = client.post(f"/games/{done['id']}/rematch", headers=auth(tokens["bob"]))
    assert second.status_code == 201, second.text
    assert second.json()["id"] != first["id"] and second.json()["admin"] == "bob"
    shown = get_game(client, tokens["ann"], done["id"])["rematch"]
    assert (shown["id"], shown["status"], shown["players"]) == (second.json()["id"], "waiting",
                                                                ["bob"])


def test_an_imported_game_has_no_rematch_with_its_own_reason(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    # Its players are the record's names (one of them a user here): nobody to seat again.
    record = ('[Size "5"]\n[South "bob"]\n[North "Carla"]\n[Result "south"]\n\n'
              "1. c2 b5 2. c3 b4 3. c4 b3 4. c5\n")
    answer = client.post("/games/imported", json={"record": record}, headers=auth(tokens["ann"]))
    assert answer.status_code == 201, answer.text
    [game_id] = answer.json()["games"]
    before = games_count(server)
    for asker in ("ann", "bob", "cid"):  # its importer, a same-named user, anybody
        refused = client.post(f"/games/{game_id}/rematch", headers=auth(tokens[asker]))
        assert (refused.status_code, refused.json()["reason"]) == (
            409, "imported_game_has_no_rematch"
        ), refused.text
    assert games_count(server) == before
    assert get_game(client, tokens["ann"], game_id)["rematch"] is None
