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


WALL_ORDER = re.compile(r'data-wall="([a-z]\d{1,2}[hv])"')


def test_a_masked_two_player_game_lists_no_wall_square_in_play_order(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    """Issue 48 item 5 (SPEC §4): with two players the turn order tells whose each action
    was, so the page's last actions say "a wall was placed" without the square, and the
    board (game page, its live fragment, /tv and its fragment) lists the walls in its own
    order, not the order they were placed; the board still shows every wall, and outlines
    the latest one."""
    names = ("mask2_ann", "mask2_ben")
    match = start(client, tokens(names), masked=True, players=2, size=7)
    placed = ["f2h", "a2h", "d4h", "b5v"]  # by turns, in an order that is not the board's
    for wall in placed:
        act(client, match, "wall", wall)
    viewers: dict[str, dict[str, str]] = {"a spectator": {}}
    for seat, token in match.by_seat.items():
        viewers[match.names[seat]] = {"cq_session": token}
    paths = (f"/games/{match.id}", f"/web/games/{match.id}/live",
             f"/games/{match.id}?at=1", "/tv", f"/web/tv/games/{match.id}")
    for who, cookies in viewers.items():
        for path in paths:
            answer = httpx.get(server.base_url + path, cookies=cookies, timeout=10)
            assert answer.status_code == 200, (who, path, answer.text[:300])
            text = answer.text
            if path == "/tv":  # this game's figure among the room's boards
                figure = re.search(rf'<figure class="tv-board" data-game="{match.id}".*?</figure>',
                                   text, re.S)
                assert figure is not None, (who, text[:300])
                text = figure[0]
            drawn = WALL_ORDER.findall(text)
            # the outlined latest wall is drawn last (on top), the others in board order
            assert drawn == [*sorted(placed[:-1]), placed[-1]], (who, path, drawn)
            # the latest action is outlined on the board (SPEC §4 lets it: what changed
            # in one turn can be seen), the earlier ones are not
            assert re.findall(r'data-last="([^"]+)"', text) == [placed[-1]], (who, path)
            actions = ACTIONS.search(text)
            if path.startswith("/tv") or path.startswith("/web/tv"):
                assert actions is None
                continue
            assert actions is not None, (who, path)
            lines = [re.sub(r"\s+", " ", line).strip()
                     for line in re.findall(r"<li>(.*?)</li>", actions[1], re.S)]
            assert lines == [f"{n}. a wall was placed" for n in (4, 3, 2, 1)], (who, path, lines)
