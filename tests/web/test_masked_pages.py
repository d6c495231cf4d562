"""A started masked-walls game with a wall placed: its page renders for a spectator and
for each player, and nobody but the wall's owner learns from it whose wall it is."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.api.mode_helpers import act, pick_wall, start
from tests.support.server import RunningServer

ACTIONS = re.compile(r'<ul class="actions">(.*?)</ul>', re.S)
WALLS = re.compile(r"<g [^>]*data-wall=[^>]*>.*?</g>|<[^>]*data-wall=[^>]*>", re.S)


def _attributions(page: str) -> str:
    """What the page says of the walls: the last actions and the walls drawn."""
    actions = ACTIONS.search(page)
    assert actions is not None, page[:500]
    return actions[1] + "".join(WALLS.findall(page))


def test_a_masked_walls_game_page_renders_without_naming_the_walls_owner(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    names = ("mask_ann", "mask_ben", "mask_cid", "mask_dee")
    match = start(client, tokens(names), masked=True, players=4)
    owner_seat = match.mirror.turn
    assert owner_seat is not None
    owner = match.names[owner_seat.value]
    wall = pick_wall(match.mirror, frozenset())
    assert wall is not None
    act(client, match, "wall", wall)  # the first action: a wall of the player to move

    pages: dict[str, dict[str, str]] = {"a spectator": {}}
    for seat, token in match.by_seat.items():
        pages[match.names[seat]] = {"cq_session": token}
    for who, cookies in pages.items():
        for path in (f"/games/{match.id}", f"/web/games/{match.id}/live"):
            answer = httpx.get(server.base_url + path, cookies=cookies, timeout=10)
            assert answer.status_code == 200, (who, path, answer.text[:300])
            said = _attributions(answer.text)
            assert wall in said, (who, path)  # the wall is shown, as placed
            if who == owner:
                continue  # its own wall: it may know
            assert "data-owner" not in said, (who, path)
            for name in names:
                assert name not in said, (who, path, name)
            assert owner_seat.value not in said, (who, path)
