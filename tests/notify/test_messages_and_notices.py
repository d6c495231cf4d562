"""Messages and notices on ntfy (SPEC §8, §9): a DM only on its receiver's secret DM topic,
a player's broadcast on the game topic, an administrators' broadcast on every waiting and
started game's topic, and a username change on the old username's topic."""

from __future__ import annotations

import base64
import re

import httpx

from tests.notify.conftest import TOKEN, Api, Mailbox, Serve
from tests.notify.helpers import by_topic, expect, got, start_game
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.users import auth, insert_user


def send(api: Api, token: str, game_id: int, text: str, to: str | None = None) -> None:
    answer = api.http.post(
        f"/games/{game_id}/messages", json={"text": text, "to": to}, headers=auth(token)
    )
    assert answer.status_code == 201, answer.text


def test_a_dm_reaches_only_the_receivers_dm_topic_and_a_broadcast_the_game_topic(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("ann", "bob")
    api.patch_me(tokens["ann"], ntfy_dm_topic="ann-dm-x7Kq2")
    game = start_game(api.http, tokens, size=5)
    gid = game["id"]
    api.drained()
    before = len(ntfy.requests)
    mails_before = len(smtp.mails)

    send(api, tokens["bob"], gid, "meet me at c3, ann", to="ann")
    send(api, tokens["ann"], gid, "bob has no DM topic", to="bob")  # nothing to publish
    send(api, tokens["ann"], gid, "good luck to all")
    api.drained()  # (a mute also holds back a DM sent before it but not yet published)
    muted = api.http.post(f"/games/{gid}/mutes", json={"username": "bob"},
                          headers=auth(tokens["ann"]))
    assert muted.status_code == 200, muted.text
    send(api, tokens["bob"], gid, "muted words", to="ann")  # ann muted bob: no publish
    api.drained()

    # one message per topic: their order across topics is not kept (only within a topic)
    published = sorted(got(ntfy.requests[before:]), key=lambda e: e.topic)
    assert published == [
        expect("ann-dm-x7Kq2", {"dm"}, f"Game {gid}: DM from bob", "meet me at c3, ann"),
        expect(f"game_{gid}", {"message"}, f"Game {gid}: ann", "good luck to all"),
    ]
    assert published[1].priority == "low"
    assert len(smtp.mails) == mails_before  # messages are not mailed
    secret_texts = ("meet me at c3", "bob has no DM topic", "muted words")
    for publish in ntfy.requests:
        if publish.topic != "ann-dm-x7Kq2":
            assert not any(text in publish.title + publish.body for text in secret_texts)
    assert "ann-dm-x7Kq2" not in {p.topic for p in ntfy.requests[:before]}  # DMs only


def test_an_admin_broadcast_goes_to_every_waiting_and_started_games_topic(
    api: Api, ntfy: NtfyRecorder
) -> None:
    admin = api.users("root", admin=True)["root"]
    tokens = api.users("cy", "di", "ed", "flo")
    waiting = api.http.post("/games", json={}, headers=auth(tokens["cy"])).json()
    private = api.http.post("/games", json={"private": True}, headers=auth(tokens["di"])).json()
    started = start_game(api.http, {"ed": tokens["ed"], "flo": tokens["flo"]}, size=5)
    cancelled = api.http.post("/games", json={}, headers=auth(tokens["cy"])).json()
    gone = api.http.delete(f"/games/{cancelled['id']}", headers=auth(tokens["cy"]))
    assert gone.status_code == 200, gone.text

    answer = api.http.post("/admin/broadcasts", json={"text": "Maintenance at noon"},
                           headers=auth(admin))
    assert answer.status_code == 201, answer.text
    assert answer.json()["games"] == [waiting["id"], private["id"], started["id"]]
    api.drained()

    title = "Message from the administrators"
    broadcasts = [p for p in got(ntfy.published) if "Maintenance at noon" in p.body]
    assert sorted(broadcasts) == sorted([
        expect(f"game_{waiting['id']}", {"broadcast"}, title, "Maintenance at noon"),
        expect(f"game_{private['invitation_code']}", {"broadcast"}, title, "Maintenance at noon"),
        expect(f"game_{started['id']}", {"broadcast"}, title, "Maintenance at noon"),
    ])
    assert all(p.priority == "high" for p in broadcasts)


def test_a_username_change_notifies_the_old_topic_with_basic_auth(
    serve: Serve, ntfy: NtfyRecorder
) -> None:
    server = serve(NTFY_USER="publisher")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        mia = insert_user(server.database_url, "mia")
        nat = insert_user(server.database_url, "nat")
        api.patch_me(mia, username="mila")
        api.drained()
        assert got(ntfy.published) == [
            expect("mia", {"user"}, "mia is now mila",
                   "The player mia is now called mila: subscribe to the topic mila to keep "
                   "following their games."),
        ]
        game = start_game(http, {"mila": mia, "nat": nat}, size=5)
        api.drained()

    topics = by_topic(got(ntfy.published))
    assert set(topics) == {"mia", "mila", "nat", f"game_{game['id']}"}  # the new name's topic
    assert len(topics["mia"]) == 1  # nothing more on the old one
    basic = "Basic " + base64.b64encode(f"publisher:{TOKEN}".encode()).decode()
    assert {p.authorization for p in ntfy.requests} == {basic}


def test_an_invitation_to_a_public_game_is_announced_on_the_invitees_topic_without_its_code(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("gus", "hex")
    game = api.http.post("/games", json={"size": 5, "invite": True, "invitees": ["hex"]},
                         headers=auth(tokens["gus"])).json()
    code = game["invitation_code"]
    api.drained()
    assert got(ntfy.published) == [
        expect("hex", {"invitation"}, f"Game {game['id']}: invitation from gus",
               f"gus invites you to game {game['id']} (2 players, 5x5); the invitation code "
               "is in your e-mail."),
    ]
    (mail,) = smtp.mails
    assert mail.to == "hex@example.test"
    assert mail.subject == f"Corridor Quest: gus invites you to game {game['id']}"
    assert f"cq game join --game-id {game['id']} --invitation-code {code}" in mail.body


def test_a_signup_code_goes_by_mail_only(api: Api, ntfy: NtfyRecorder, smtp: Mailbox) -> None:
    answer = api.http.post("/users", json={"username": "ivy", "email": "ivy@example.test",
                                           "password": "correct horse battery"})
    assert answer.status_code == 201, answer.text
    (mail,) = smtp.wait_for(lambda mails: len(mails) == 1)
    assert mail.to == "ivy@example.test"
    assert "verification code" in mail.subject
    code = re.search(r"verification code is: (\d{6})", mail.body)
    assert code is not None, mail.body
    verified = api.http.post("/verifications", json={
        "verification_token": answer.json()["verification_token"], "code": code.group(1)})
    assert verified.status_code == 200, verified.text
    api.drained()
    assert ntfy.requests == []
    assert len(smtp.mails) == 1


def test_a_user_cannot_take_a_name_whose_topic_is_a_games_topic(
    api: Api, ntfy: NtfyRecorder
) -> None:
    tokens = api.users("jay", "kit", "lee", "max")
    first = start_game(api.http, {"jay": tokens["jay"], "kit": tokens["kit"]}, size=5)
    renamed = api.http.patch("/users/me", json={"username": f"game_{first['id']}"},
                             headers=auth(tokens["lee"]))
    if renamed.status_code == 200:  # then lee's games are told on game 1's topic
        start_game(api.http, {"lee": tokens["lee"], "max": tokens["max"]}, size=5)
        api.drained()
    foreign = [p for p in ntfy.to(f"game_{first['id']}") if f"Game {first['id']}" not in p.title]
    assert foreign == []
    assert renamed.status_code == 422, renamed.text
