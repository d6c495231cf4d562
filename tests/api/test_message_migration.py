"""Migration step 8 on a database written before it: the system messages and cancel
reasons stored then with the usernames of the moment follow their users' renames after
the upgrade, and whoever takes a freed name appears in none of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from corridorquest.store import Store
from corridorquest.store.models import Game, GameMessage, GamePlayer, SchemaVersion, User, utcnow
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import auth, insert_user, make_user

STEP = 8
# (kind, sender, recipient, text, detail) as the server wrote them before step 8
FINISHED = [
    ("system", None, None, "dave created the game (5x5, 2 players, invisible walls)", None),
    ("system", None, None, "gone joined the game", None),
    ("system", None, None, "gone left the game", None),
    ("system", None, None, "olga joined the game", None),
    ("system", None, None, "erin joined the game", None),
    (
        "system",
        None,
        None,
        "The game started: dave plays North, erin plays South. erin moves first.",
        None,
    ),
    ("system", "erin", None, "erin (South) placed a wall", "erin (South) placed wall d1v"),
    ("system", None, None, "dave (North) moved to b5", None),
    ("system", "dave", "erin", "dave privately offers erin to buy a wall (wall cost 8)", None),
    ("system", "dave", "erin", "erin sold a wall to dave on dave's offer (wall cost 8)", None),
    ("system", None, None, "Message from the administrators: back in {5} minutes", None),
    ("player", "dave", None, "dave here, gg {all}", None),
    ("system", None, None, "dave won the game. Scores: dave 57, erin 40", None),
]
# what erin reads of them (an invisible wall is revealed once the game is finished)
READ = [detail or text for _, _, _, text, detail in FINISHED]


@contextmanager
def server_on(tmp_path: Path, database_url: str) -> Iterator[tuple[httpx.Client, str, Path]]:
    """The real server on an existing database (its start-up runs the pending steps)."""
    port = free_port()
    env = server_env(tmp_path, database_url, port)
    process, log_path = start_process(tmp_path, env)
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_until_up(base_url, process, log_path)
        with httpx.Client(base_url=base_url + "/api/v1", timeout=10.0) as client:
            yield client, base_url, Path(env["MAIL_DIR"])
    finally:
        stop(process)


def write_legacy_games(database_url: str) -> dict[str, int]:
    """A finished, a withdrawn and a cancelled game as the server stored them before step 8;
    the database then looks as if step 8 had never run."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    written = utcnow() - timedelta(days=1)

    def write() -> dict[str, int]:
        users = {user.username: user.id for user in User.select()}
        User.update(created_at=written - timedelta(days=1)).execute()
        # "olga" was taken after those games by somebody who never played them
        User.update(created_at=utcnow()).where(User.username == "olga").execute()

        def game(status: str, **values: Any) -> int:
            row = Game.create(
                status=status, size=5, players=2, admin=users["dave"], seed=7, **values
            )
            for order, name in enumerate(("dave", "erin")):
                GamePlayer.create(game=row.id, user=users[name], join_order=order)
            return int(row.id)

        finished = game("finished", invisible=True, winner=users["dave"], finished_at=written)
        for kind, sender, recipient, text, detail in FINISHED:
            GameMessage.create(
                game=finished,
                kind=kind,
                sender=users.get(sender or ""),
                recipient=users.get(recipient or ""),
                text=text,
                detail=detail,
                at=written,
            )
        ids = {"finished": finished}
        for key, reason in (("withdrawn", "dave withdrew"), ("cancelled", "cancelled by root")):
            ids[key] = game("cancelled", cancel_reason=reason, cancelled_at=written)
            GameMessage.create(
                game=ids[key],
                kind="system",
                text=f"The game was cancelled: {reason}",
                at=written,
            )
        SchemaVersion.delete().where(SchemaVersion.version >= STEP).execute()
        return ids

    try:
        return store.run(write)
    finally:
        store.close()


def texts(client: httpx.Client, token: str, game_id: int) -> list[str]:
    answer = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


def rename(client: httpx.Client, token: str, new: str) -> None:
    answer = client.patch("/users/me", json={"username": new}, headers=auth(token))
    assert answer.status_code == 200, answer.text


def test_stored_texts_from_before_the_upgrade_follow_renames(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as url:
        Store.open(url).close()  # the schema (every step), then users and old games
        tokens = {name: insert_user(url, name) for name in ("dave", "erin", "root", "olga")}
        games = write_legacy_games(url)
        with server_on(tmp_path, url) as (client, base_url, mail_dir):
            erin = tokens["erin"]
            # the upgrade itself changes nothing anybody reads
            assert texts(client, erin, games["finished"]) == READ
            rename(client, tokens["dave"], "davey")
            rename(client, tokens["root"], "rooty")
            rename(client, tokens["olga"], "olgb")
            impostor = make_user(base_url, mail_dir, "dave", email="other-dave@example.test")

            expected = [
                text if kind == "player" else re.sub(r"\bdave\b", "davey", text)
                for (kind, *_), text in zip(FINISHED, READ, strict=True)
            ]
            assert texts(client, erin, games["finished"]) == expected
            public = [text for row, text in zip(FINISHED, expected, strict=True) if not row[2]]
            assert texts(client, impostor, games["finished"]) == public
            # a name that was somebody else's when the text was written is left as it was,
            # and a player's own words are untouched
            assert {"olga joined the game", "dave here, gg {all}"} <= set(public)
            reasons = {"withdrawn": "davey withdrew", "cancelled": "cancelled by rooty"}
            for key, reason in reasons.items():
                view = client.get(f"/games/{games[key]}", headers=auth(impostor)).json()
                assert view["cancel_reason"] == reason
                said = texts(client, impostor, games[key])
                assert said == [f"The game was cancelled: {reason}"]
