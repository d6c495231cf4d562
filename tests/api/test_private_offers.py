"""A private offer leaves no trace for the others (issue 12, item 4): not in the revision.

Its two players see it at once: in the answers to their next writes (services/last_commit
forgets what it remembered of the game) and on their live streams.
"""

from __future__ import annotations

import httpx

from tests.api.mode_helpers import best_step, start
from tests.support.games import get_game, play
from tests.support.server import RunningServer
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user


def test_a_private_offer_and_its_withdrawal_leave_the_others_revision_as_it_was(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("pa", "pb", "pc", "pd")}
    watcher = insert_user(server.database_url, "pwatch")
    match = start(client, tokens, players=4)
    gid = match.id
    mover_seat = match.mirror.turn
    assert mover_seat is not None
    mover = match.names[mover_seat.value]
    # the offer goes from somebody who is not to move to the player to move
    offerer = next(name for name in tokens if name != mover)
    third = next(name for name in tokens if name not in (mover, offerer))
    before = {who: get_game(client, tok, gid)["revision"] for who, tok in tokens.items()}
    before_watcher = get_game(client, watcher, gid)["revision"]

    with EventReader(f"{server.api}/games/{gid}/events", tokens[mover]) as partner_stream:
        partner_stream.next("game")
        offered = client.post(
            f"/games/{gid}/offers",
            json={"mode": "selling", "partner": mover},
            headers=auth(tokens[offerer]),
        )
        assert offered.status_code == 201, offered.text
        # the partner's stream shows the offer (same revision: the game again)
        shown = partner_stream.next("game")["data"]
        assert [o["username"] for o in shown["offers"]] == [offerer]

    assert get_game(client, tokens[third], gid)["revision"] == before[third]
    assert get_game(client, watcher, gid)["revision"] == before_watcher
    assert get_game(client, tokens[third], gid)["offers"] == []
    listed = client.get("/games", params={"status": "started"}, headers=auth(tokens[third]))
    assert [g["revision"] for g in listed.json()["games"] if g["id"] == gid] == [before[third]]

    # the partner's next move answers with the offer still open (nothing stale remembered)
    step = best_step(match.mirror)
    moved = play(client, tokens[mover], gid, "jump" if step.jump else "move", str(step.to))
    assert moved.status_code == 201, moved.text
    assert [o["username"] for o in moved.json()["offers"]] == [offerer]
    assert moved.json()["revision"] == before[mover] + 1

    after_move = get_game(client, tokens[third], gid)["revision"]
    withdrawn = client.delete(f"/games/{gid}/offers/me", headers=auth(tokens[offerer]))
    assert withdrawn.status_code == 200, withdrawn.text
    assert get_game(client, tokens[third], gid)["revision"] == after_move
    assert get_game(client, tokens[mover], gid)["offers"] == []
    # a base_revision the third player read before is still current: no stale_revision
    message = client.post(
        f"/games/{gid}/offers",
        json={"mode": "buying", "base_revision": after_move},
        headers=auth(tokens[third]),
    )
    assert message.status_code == 201, message.text
