"""Invisible characters are refused in every text one user writes for others (issue 25,
item 24): player messages, administrators' broadcasts, descriptions and the MOTD.

Before, zero-width characters, the line and paragraph separators, the byte order mark
and the noncharacter U+FFFE passed: a broadcast of one U+200B reached every game as an
empty line. Each is now refused like the control characters were (422 with the field's
reason), and nothing changes. Joiners and selectors that shape the visible character
before them (emoji sequences, Persian words) still pass.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.support.games import started_game
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user

pytestmark = pytest.mark.backend_neutral  # text checks (security/policy.py), refused at once

# Refused wherever they stand.
INVISIBLE = [
    "\u200b",  # zero-width space
    "\u2028",  # line separator
    "\u2029",  # paragraph separator
    "\ufeff",  # byte order mark (zero-width no-break space)
    "\ufffe",  # a noncharacter
    "\uffff",  # a noncharacter
    "\u2060",  # word joiner
    "\u2062",  # invisible times
    "\u200e",  # left-to-right mark
    "\u061c",  # Arabic letter mark
    "\u202e",  # right-to-left override
    "\u2067",  # right-to-left isolate
    "\u00ad",  # soft hyphen
    "\u3164",  # Hangul filler
    "\U000e0001",  # language tag
]
# Refused where they join nothing: alone, first, or after a space.
LONE = ["\u200c", "\u200d", "\ufe0f", "\U000e0067"]


def _texts() -> list[str]:
    """Texts that must be refused: each invisible character alone and inside words, each
    joiner alone and after a space."""
    texts = [text for ch in INVISIBLE for text in (ch, f"see{ch}this", f"say {ch}hi")]
    return texts + [text for ch in LONE for text in (ch, f"hi {ch}", f"{ch}hi")]


# Typed by people: an emoji family (joiners), a red heart (a variation selector), the
# flag of Scotland (tags), a Persian word with a zero-width non-joiner.
ALLOWED = [
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\u2764\ufe0f",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
]


@pytest.fixture(scope="module")
def people(server: RunningServer, client: httpx.Client) -> dict[str, Any]:
    tokens = {name: insert_user(server.database_url, name) for name in ("zed", "zia")}
    tokens["root"] = insert_user(server.database_url, "zroot", is_admin=True)
    game = started_game(client, {"zed": tokens["zed"], "zia": tokens["zia"]})
    return {"tokens": tokens, "game": game}


def _send(
    client: httpx.Client, method: str, url: str, body: dict[str, Any], token: str
) -> httpx.Response:
    """JSON with \\u escapes (httpx writes UTF-8, which cannot carry a lone surrogate)."""
    headers = {**auth(token), "Content-Type": "application/json"}
    return client.request(method, url, content=json.dumps(body), headers=headers)


def _refused(answer: httpx.Response, reason: str, text: str) -> None:
    assert answer.status_code == 422, (ascii(text), answer.status_code, answer.text)
    assert answer.json()["reason"] == reason, (ascii(text), answer.text)


def _game_texts(client: httpx.Client, token: str, game_id: int) -> list[str]:
    listed = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert listed.status_code == 200, listed.text
    return [m["text"] for m in listed.json()["messages"]]


def test_messages_and_broadcasts_refuse_invisible_characters(
    client: httpx.Client, people: dict[str, Any]
) -> None:
    tokens, game_id = people["tokens"], people["game"]["id"]
    before = _game_texts(client, tokens["zia"], game_id)
    for text in _texts():
        sent = _send(client, "POST", f"/games/{game_id}/messages", {"text": text},
                     tokens["zed"])
        _refused(sent, "invalid_message", text)
        broadcast = _send(client, "POST", "/admin/broadcasts", {"text": text}, tokens["root"])
        _refused(broadcast, "invalid_message", text)
    assert _game_texts(client, tokens["zia"], game_id) == before  # nothing reached the game
    for text in ALLOWED:
        sent = client.post(f"/games/{game_id}/messages", json={"text": text},
                           headers=auth(tokens["zed"]))
        assert sent.status_code == 201, (ascii(text), sent.text)
        assert sent.json()["text"] == text


def test_descriptions_refuse_invisible_characters(
    server: RunningServer, client: httpx.Client, people: dict[str, Any]
) -> None:
    token = people["tokens"]["zed"]
    assert client.patch("/users/me", json={"description": "plain"},
                        headers=auth(token)).status_code == 200
    for text in _texts():
        _refused(_send(client, "PATCH", "/users/me", {"description": text}, token),
                 "invalid_description", text)
    assert client.get("/users/zed").json()["description"] == "plain"
    signup = client.post("/users", json={
        "username": "zoe", "email": "zoe@example.test", "password": DEFAULT_PASSWORD,
        "description": "\u200b",
    })
    _refused(signup, "invalid_description", "\u200b")
    assert client.get("/users/zoe").status_code == 404
    for text in ALLOWED:
        changed = client.patch("/users/me", json={"description": text}, headers=auth(token))
        assert changed.status_code == 200, (ascii(text), changed.text)


def test_the_motd_refuses_invisible_characters(
    client: httpx.Client, people: dict[str, Any]
) -> None:
    root = people["tokens"]["root"]
    assert _send(client, "PUT", "/admin/server/motd", {"text": "welcome"}, root).is_success
    for text in _texts():
        _refused(_send(client, "PUT", "/admin/server/motd", {"text": text}, root),
                 "invalid_motd", text)
    assert client.get("/server/info").json()["motd"] == "welcome"
