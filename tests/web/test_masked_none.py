"""A masked-walls game leaves fields empty for whoever may not know them (a wall's owner,
its seat): no page shows the text "None" for them, to a spectator or to any player, while
the game is played, in the lobby and on /tv, and at every step of its replay."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.mode_helpers import act, pick_wall, play_out, start
from tests.support.games import history, new_game
from tests.support.server import RunningServer


def _pages_without_none(server: RunningServer, paths: list[str], cookies: dict[str, str]) -> None:
    for path in paths:
        answer = httpx.get(server.base_url + path, cookies=cookies, timeout=10)
        assert answer.status_code == 200, (path, answer.text[:300])
        at = answer.text.find("None")
        assert at == -1, (path, answer.text[max(0, at - 200) : at + 200])


def test_no_page_of_a_masked_game_shows_none_for_what_is_hidden(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    names = ("nn_ann", "nn_ben", "nn_cid", "nn_dee")
    played = start(client, tokens(names), masked=True, players=4)
    for _ in range(4):  # each seat places a wall: owners unknown to the others
        wall = pick_wall(played.mirror, frozenset())
        assert wall is not None
        act(client, played, "wall", wall)
    two = tokens(("nn_eve", "nn_fay"))
    finished = start(client, two, masked=True)
    play_out(client, finished, walls_each=2)
    waiting = new_game(client, tokens(("nn_gil",))["nn_gil"], masked=True, players=2)
    assert waiting["status"] == "waiting"

    steps = range(len(history(client, two["nn_eve"], finished.id)) + 1)
    paths = ["/", "/web/lobby", "/tv", "/web/tv/boards"]
    for game_id in (played.id, waiting["id"]):
        paths += [f"/games/{game_id}", f"/web/games/{game_id}/live", f"/web/tv/games/{game_id}"]
    paths += [f"/games/{finished.id}", f"/web/games/{finished.id}/live"]
    paths += [f"/games/{finished.id}?at={n}" for n in steps]
    paths += [f"/web/games/{finished.id}/live?at={n}" for n in steps]

    viewers: dict[str, dict[str, str]] = {"a spectator": {}}
    for match in (played, finished):
        for seat, token in match.by_seat.items():
            viewers[match.names[seat]] = {"cq_session": token}
    for cookies in viewers.values():
        _pages_without_none(server, paths, cookies)
