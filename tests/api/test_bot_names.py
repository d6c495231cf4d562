"""The bots' names and accounts (issue 48 items 20 and 21), through the real API.

Names that look like a bot's (`bot`, `bot-N`, `bot_fan`, `b0t-3`, `BOT7`, ...) are kept
for the server's bots: a signup, a rename and a guest asking for one get 422
`reserved_for_bots`, even after the bot of that name was renamed, and nothing is created;
nobody but the server marks an account as a bot. An administrator may give a bot such a
name only if it announces the bot's own level. A bot deleted by an older version (it
played on as `deleted-user-N` and no bot of its level was made again) is a bot again, with
its name, after the next start.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from corridorquest.store import Store
from corridorquest.store.models import User
from tests.support.server import RunningServer, running_server, stop
from tests.support.users import auth, insert_user

LOOKALIKES = ("bot-1", "BOT-7", "bot7", "bot_2", "b0t-3", "bot", "bot-1b", "Bot-12x")
ALLOWED = ("robot-1", "bots", "botany")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("names"), GUESTS="on",
                        bot_workers=0) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {
        "ann": insert_user(server.database_url, "ann"),
        "root": insert_user(server.database_url, "root", is_admin=True),
    }


def _refused_everywhere(client: httpx.Client, token: str, name: str) -> None:
    """A signup, a guest and a rename to `name`: each 422 reserved_for_bots."""
    attempts = (
        client.post("/users", json={"username": name, "email": f"x{len(name)}@example.test",
                                    "password": "a long enough password"}),
        client.post("/guests", json={"username": name}),
        client.patch("/users/me", json={"username": name}, headers=auth(token)),
    )
    for answer in attempts:
        assert answer.status_code == 422, (name, answer.text)
        assert answer.json()["reason"] == "reserved_for_bots", answer.text
        assert "kept for the server's bots" in answer.json()["message"]


def test_people_and_guests_cannot_take_a_bots_name(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    for name in LOOKALIKES:
        _refused_everywhere(client, tokens["ann"], name)
        shown = client.get(f"/users/{name}")  # nobody, or the server's bot of the name
        assert shown.status_code == 404 or shown.json()["bot"] is not None, shown.text
    assert client.get("/users/me", headers=auth(tokens["ann"])).json()["username"] == "ann"
    assert client.get("/users/bot-1").json()["bot"] == {"level": 1}
    for name in ALLOWED:  # a name that only begins like a bot's is a name
        made = client.post("/guests", json={"username": name})
        assert made.status_code == 201, made.text
        assert client.get(f"/users/{name}").json()["bot"] is None


def test_a_renamed_bots_old_name_stays_kept_for_bots(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    renamed = client.post("/admin/users/bot-6/rename", json={"username": "Deep"},
                          headers=auth(tokens["root"]))
    assert renamed.status_code == 200, renamed.text
    assert client.get("/users/bot-6").status_code == 404
    _refused_everywhere(client, tokens["ann"], "bot-6")
    assert client.get("/users/bot-6").status_code == 404
    assert client.get("/users/Deep").json()["bot"] == {"level": 6}


def test_nobody_but_the_server_marks_an_account_as_a_bot(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    for body in ({"bot": {"level": 1}}, {"bot_level": 1}):
        refused = client.patch("/users/me", json=body, headers=auth(tokens["ann"]))
        assert 400 <= refused.status_code < 500, refused.text
    assert client.get("/users/ann").json()["bot"] is None


def test_a_bot_may_take_a_bots_name_of_its_own_level_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    admin = auth(tokens["root"])
    wrong = client.post("/admin/users/bot-2/rename", json={"username": "bot-5x"},
                        headers=admin)
    assert (wrong.status_code, wrong.json()["reason"]) == (422, "bot_name_level"), wrong.text
    assert client.get("/users/bot-5x").status_code == 404
    for name in ("bot-2x", "bot_pal", "bot-2"):
        renamed = client.post(f"/admin/users/{renamed_from(client)}/rename",
                              json={"username": name}, headers=admin)
        assert renamed.status_code == 200, renamed.text
        assert client.get(f"/users/{name}").json()["bot"] == {"level": 2}


def renamed_from(client: httpx.Client) -> str:
    """The current name of the level-2 bot (the test renames it several times)."""
    for name in ("bot-2", "bot-2x", "bot_pal"):
        shown = client.get(f"/users/{name}")
        if shown.status_code == 200:
            return name
    raise AssertionError("the level-2 bot has none of its names")


def _delete_as_before(database_url: str, name: str) -> str:
    """What an administrator's deletion of bot `name` left before bots were kept: the
    account anonymised, its bot mark still on it. Its new name."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        def anonymise() -> str:
            bot = User.find_by_name(name)
            assert bot is not None and bot.bot_level is not None
            bot.username = f"deleted-user-{bot.id}"
            bot.email = f"{bot.username}@deleted.invalid"
            bot.password_hash = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
            bot.description = ""
            bot.locked = True
            bot.save()
            return str(bot.username)

        return store.run(anonymise)
    finally:
        store.close()


def test_a_bot_deleted_by_an_older_version_is_a_bot_again_after_a_start(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path / "before", bot_workers=0) as before:
        token = insert_user(before.database_url, "cid")
        stop(before.process)
        gone = _delete_as_before(before.database_url, "bot-4")
        with running_server(tmp_path / "after", bot_workers=0,
                            DATABASE_URL=before.database_url) as after:
            api = after.api
            assert httpx.get(f"{api}/users/{gone}", timeout=10).status_code == 404
            bot = httpx.get(f"{api}/users/bot-4", timeout=10)
            assert bot.status_code == 200, bot.text
            assert bot.json()["bot"] == {"level": 4}
            assert bot.json()["description"] == "computer opponent, level 4 of 6"
            game = httpx.post(f"{api}/games", json={"size": 5, "bots": [4]},
                              headers=auth(token), timeout=10)
            assert game.status_code == 201, game.text
            assert game.json()["bots"] == {"bot-4": {"level": 4}}
            assert "deleted bot users restored" in after.log_text()
