"""PUBLIC_URL: every e-mail names the server; a mail about a public game links its page
(PUBLIC_URL/games/ID, the web page) and its ntfy messages open it (`Click`); only the
invitation mail links a private game's page, with its code (the join link). Without
PUBLIC_URL the mails name the server by the host and port it listens on, and link
nothing."""

from __future__ import annotations

import httpx

from tests.notify.conftest import Api, Mailbox, Serve
from tests.notify.helpers import act, play_out, start_game
from tests.notify.test_hidden_information import scripts
from tests.support.ntfy_recorder import NtfyRecorder, Publish
from tests.support.users import auth

URL = "https://cq.example.test"


def click(publish: Publish) -> str | None:
    found = {name.lower(): value for name, value in publish.headers.items()}
    return found.get("click")


def test_mails_and_pushes_about_a_public_game_link_its_page(
    serve: Serve, smtp: Mailbox, ntfy: NtfyRecorder
) -> None:
    server = serve(PUBLIC_URL=URL + "/")  # (the trailing slash is dropped)
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        tokens = api.users("ada", "ben", "cid")
        api.patch_me(tokens["cid"], username="cyd")  # a push about no game
        game = start_game(http, {"ada": tokens["ada"], "ben": tokens["ben"]}, size=5)
        gid = game["id"]
        act(http, tokens, game, "move", "c2" if game["turn"] == "south" else "c4")
        signed_up = http.post("/users", json={"username": "dee", "email": "dee@example.test",
                                              "password": "correct horse battery"})
        assert signed_up.status_code == 201, signed_up.text
        api.drained()

    page = f"{URL}/games/{gid}"
    signature = f"\n\n-- \nCorridor Quest server at {URL}\n"
    about_game = [m for m in smtp.mails if f"game {gid}" in m.subject]
    assert len(about_game) >= 3  # started (to both), a turn
    for mail in about_game:
        assert f"\n\nSee the game at {page}\nor in a terminal with: cq game show --game-id " \
            f"{gid}\n\n" in mail.body, mail.body
        assert mail.body.endswith(signature), mail.body
    (code_mail,) = smtp.to("dee@example.test")  # a mail about no game names the server too
    assert code_mail.body.endswith(signature) and "/games/" not in code_mail.body

    on_game = [p for p in ntfy.published if p.title.startswith(f"Game {gid}")]
    assert {p.topic for p in on_game} == {f"game_{gid}", "ada", "ben"}
    assert {click(p) for p in on_game} == {page}
    (renamed,) = [p for p in ntfy.published if p.topic == "cid"]
    assert click(renamed) is None


def test_only_the_invitation_mail_links_a_private_games_page_with_its_code(
    serve: Serve, smtp: Mailbox, ntfy: NtfyRecorder
) -> None:
    server = serve(PUBLIC_URL=URL)
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        tokens = api.users("eli", "fox")
        options = {"size": 5, "private": True, "invitees": ["fox"]}
        game = http.post("/games", json=options, headers=auth(tokens["eli"])).json()
        code = game["invitation_code"]
        # the join link opens the waiting game's page (the code is the key to it)
        page = f"{server.base_url}/games/{game['id']}"
        assert httpx.get(f"{page}?code={code}").status_code == 200
        assert httpx.get(page).status_code == 404
        joined = http.post(f"/games/{game['id']}/players", json={"invitation_code": code},
                           headers=auth(tokens["fox"]))
        assert joined.status_code == 201, joined.text
        play_out(http, tokens, {**joined.json(), "invitation_code": code}, scripts())
        api.drained()

    assert smtp.mails and ntfy.published
    (invitation,) = [m for m in smtp.mails if "invites you" in m.subject]
    assert invitation.to == "fox@example.test"
    link = f"{URL}/games/{game['id']}?code={code}"
    assert f"Join in a web browser: {link}\n" in invitation.body, invitation.body
    for mail in smtp.mails:
        if mail is invitation:
            continue
        assert "/games/" not in mail.body and "See the game at" not in mail.body, mail.body
        assert mail.body.endswith(f"\n\n-- \nCorridor Quest server at {URL}\n")
    assert any(f"See the game with: cq game show --game-id {game['id']}" in m.body
               for m in smtp.mails)
    assert [click(p) for p in ntfy.published] == [None] * len(ntfy.published)


def test_without_public_url_mails_name_the_host_and_port_and_link_nothing(
    api: Api, smtp: Mailbox, ntfy: NtfyRecorder
) -> None:
    tokens = api.users("gay", "hu")
    game = start_game(api.http, tokens, size=5)
    api.drained()
    where = api.server.base_url.removeprefix("http://")  # 127.0.0.1:<port>
    assert len(smtp.mails) == 2
    for mail in smtp.mails:
        assert mail.body.endswith(f"\n\n-- \nCorridor Quest server at {where}\n")
        assert f"See the game with: cq game show --game-id {game['id']}\n" in mail.body
        assert "http" not in mail.body
    assert [click(p) for p in ntfy.published] == [None] * len(ntfy.published)


def test_the_daily_digest_links_each_public_games_page(serve: Serve, smtp: Mailbox) -> None:
    server = serve(PUBLIC_URL=URL, SCHEDULER_INTERVAL="1s")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        tokens = api.users("ivo", "jo")
        for token in tokens.values():
            api.patch_me(token, notify={"digest": True})
        game = start_game(http, tokens, size=5)
        (digest,) = smtp.wait_for(lambda mails: len(mails) == 1)
    assert "waiting for your move" in digest.subject
    assert f"  game {game['id']} with " in digest.body
    assert f"\n    {URL}/games/{game['id']}\n" in digest.body
    assert (
        "You get this e-mail, at most one a day, because you chose the daily digest. To get "
        "one e-mail per event instead, turn the digest off with `cq user notify --digest`."
    ) in digest.body
    assert digest.body.endswith(f"\n\n-- \nCorridor Quest server at {URL}\n")
