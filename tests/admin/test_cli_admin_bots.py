"""cq-admin renames a bot (SPEC §13): the bot keeps its level and plays on under its new
name; a person cannot be renamed that way, and a player cannot rename anybody."""

from __future__ import annotations

import json

import httpx

from tests.admin.admin_support import PLAYER, Admin
from tests.support.users import auth


def test_an_admin_renames_a_bot_which_keeps_its_level(
    cq_admin: Admin, client: httpx.Client, tokens: dict[str, str]
) -> None:
    renamed = cq_admin("user", "rename", "bot-4", "Marvin")
    assert renamed.exit_code == 0, renamed.output
    assert "Renamed the bot bot-4 (level 4) to Marvin." in renamed.output
    shown = client.get("/users/Marvin", headers=auth(tokens[PLAYER])).json()
    assert shown["bot"] == {"level": 4}
    assert client.get("/users/bot-4", headers=auth(tokens[PLAYER])).status_code == 404
    game = client.post("/games", json={"size": 5, "bots": [4]}, headers=auth(tokens[PLAYER]))
    assert game.status_code == 201, game.text
    assert game.json()["bots"] == {"Marvin": {"level": 4}}
    audit = cq_admin("audit", "--json")
    assert audit.exit_code == 0
    assert any(entry["action"] == "bot.rename" for entry in json.loads(audit.output))


def test_only_bots_are_renamed_and_only_by_an_admin(cq_admin: Admin) -> None:
    person = cq_admin("user", "rename", PLAYER, "someone")
    assert person.exit_code != 0 and "is not a bot" in person.output
    taken = cq_admin("user", "rename", "bot-5", PLAYER)
    assert taken.exit_code != 0 and "is taken" in taken.output
    refused = cq_admin("user", "rename", "bot-5", "Hal", profile=PLAYER)
    assert refused.exit_code != 0
    assert "bot-5" in cq_admin("user", "show", "bot-5").output


def test_a_bot_is_never_deleted_and_keeps_its_level(
    cq_admin: Admin, client: httpx.Client, tokens: dict[str, str]
) -> None:
    refused = cq_admin("user", "delete", "bot-3", "--yes")
    assert refused.exit_code != 0
    assert "bot-3 is the server's bot of level 3: bots cannot be deleted" in refused.output
    assert "rename it instead" in refused.output
    as_api = client.delete("/admin/users/bot-3", headers=auth(tokens["root"]))
    assert (as_api.status_code, as_api.json()["reason"]) == (409, "bot_account")
    shown = client.get("/users/bot-3", headers=auth(tokens[PLAYER])).json()
    assert shown["bot"] == {"level": 3}
    game = client.post("/games", json={"size": 5, "bots": [3]}, headers=auth(tokens[PLAYER]))
    assert game.status_code == 201, game.text
    assert game.json()["bots"] == {"bot-3": {"level": 3}}
    audit = json.loads(cq_admin("audit", "--json").output)
    assert not any(entry["action"] == "user.delete" for entry in audit)
