"""An Idempotency-Key reused with another body is refused, as docs/api.md says (issue 25,
item 22).

Same key, same request: the first answer again, nothing changes (a retry). Same key,
another body (another move, another message): 422 `idempotency_key_reused`, and nothing
changes. Before, the second request got the first answer replayed, so a client that
reused keys by mistake believed a move was played that never was.
"""

from __future__ import annotations

import httpx

from tests.support.games import get_game, history, started_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user


def _messages(client: httpx.Client, token: str, game_id: int) -> list[str]:
    listed = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert listed.status_code == 200, listed.text
    return [m["text"] for m in listed.json()["messages"] if m.get("kind") != "system"]


def test_a_key_replays_its_request_and_refuses_another_body(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("ida", "ivo")}
    game = started_game(client, tokens)
    mover = tokens[game["turn_username"]]
    key = {**auth(mover), "Idempotency-Key": "move-1"}
    url = f"/games/{game['id']}/actions"

    first = client.post(url, json={"type": "wall", "to": "d3h"}, headers=key)
    assert first.status_code == 201, first.text
    # A retry of the same request, its fields in another order: the same answer, once.
    again = client.post(url, content=b'{"to": "d3h", "type": "wall"}',
                        headers={**key, "Content-Type": "application/json"})
    assert again.status_code == 201 and again.json() == first.json()

    other = client.post(url, json={"type": "wall", "to": "f6v"}, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["reason"] == "idempotency_key_reused"
    after = get_game(client, mover, game["id"])
    assert after["revision"] == first.json()["revision"]
    assert [a["notation"] for a in history(client, mover, game["id"])] == ["d3h"]

    # The same for a message: one "hello", never a "bye".
    said = {**auth(tokens["ida"]), "Idempotency-Key": "say-1"}
    hello = client.post(f"/games/{game['id']}/messages", json={"text": "hello"}, headers=said)
    assert hello.status_code == 201, hello.text
    replay = client.post(f"/games/{game['id']}/messages", json={"text": "hello"}, headers=said)
    assert replay.status_code == 201 and replay.json() == hello.json()
    bye = client.post(f"/games/{game['id']}/messages", json={"text": "bye"}, headers=said)
    assert bye.status_code == 422 and bye.json()["reason"] == "idempotency_key_reused"
    assert _messages(client, tokens["ivo"], game["id"]) == ["hello"]
