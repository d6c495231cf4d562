"""What the notifications of private, masked and invisible games may not tell (SPEC §4, §9):
a private game publishes only on its secret topic; a masked wall is told to nobody (the
turn it passes on is); an opponent's invisible wall is "placed a wall", never where."""

from __future__ import annotations

import re

import pytest

from corridorquest.events import ActionPlayed, to_record
from corridorquest.store import Store, outbox
from corridorquest.store.models import User
from tests.notify.conftest import Api, Mailbox
from tests.notify.helpers import (
    NORTH_WALLS,
    WALL_SCRIPTS,
    action_line,
    by_topic,
    expect,
    got,
    play_out,
    seat_names,
    start_game,
)
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.users import auth


def scripts() -> dict[str, list[tuple[str, str]]]:
    return {seat: list(actions) for seat, actions in WALL_SCRIPTS.items()}


def everything_told(ntfy: NtfyRecorder, smtp: Mailbox) -> list[str]:
    """Every text a subscriber or mail reader got: titles, bodies, subjects."""
    texts = [f"{p.topic} {p.title} {p.body}" for p in ntfy.requests]
    return texts + [f"{m.subject} {m.body}" for m in smtp.mails]


def test_a_private_game_publishes_only_on_its_invitation_code_topic(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("gil", "hal")
    options = {"size": 5, "private": True, "invitees": ["hal"]}
    game = api.http.post("/games", json=options, headers=auth(tokens["gil"])).json()
    code = game["invitation_code"]
    invitation = smtp.wait_for(lambda mails: any(m.to == "hal@example.test" for m in mails))[0]
    assert code in invitation.body  # the code reaches the invitee by e-mail only
    joined = api.http.post(
        f"/games/{game['id']}/players", json={"invitation_code": code}, headers=auth(tokens["hal"])
    )
    assert joined.status_code == 201, joined.text
    game = {**joined.json(), "invitation_code": code}
    sent = api.http.post(
        f"/games/{game['id']}/messages", json={"text": "good luck"}, headers=auth(tokens["gil"])
    )
    assert sent.status_code == 201, sent.text
    actions = play_out(api.http, tokens, game, scripts())
    api.drained()

    secret = f"game_{code}"
    assert {p.topic for p in ntfy.requests} == {secret}  # no user topic, no game_<id>
    on_topic = got(ntfy.published)
    # started, the broadcast, every action (a wall with its square: no hidden walls), finished
    assert len(on_topic) == 1 + 1 + len(actions) + 1
    assert expect(secret, {"message"}, f"Game {game['id']}: gil", "good luck") in on_topic
    assert on_topic[-1].tags == {"game"}
    for message in on_topic:
        assert code not in message.title + message.body
    # e-mail goes on as for a public game: the invitation, then the game's own mails
    assert [m.subject for m in smtp.to("hal@example.test")][:2] == [
        f"Corridor Quest: gil invites you to game {game['id']}",
        f"Corridor Quest: game {game['id']} started",
    ]


def test_a_masked_invisible_game_never_tells_where_a_wall_is_nor_who_placed_it(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("ida", "jon")
    for token in tokens.values():  # with action mails too: they would tell of every wall
        api.patch_me(token, notify={"action": True})
    ntfy.pause()  # the messages wait for ntfy and go out together (see the test below for
    # the actions worked out only after the game finished)
    game = start_game(api.http, tokens, size=5, masked=True, invisible=True)
    gid = game["id"]
    walls_by = seat_names(game)["north"]
    actions = play_out(api.http, tokens, game, scripts())
    ntfy.resume()
    api.drained()

    told = everything_told(ntfy, smtp)
    leaks = [text for text in told for wall in NORTH_WALLS if re.search(rf"\b{wall}\b", text)]
    assert leaks == []
    assert not any("placed" in text for text in told)  # not even "placed a wall"

    topic = f"game_{gid}"
    expected = [expect(topic, {"game", "turn"}, f"Game {gid} started", ntfy.to(topic)[0].body)]
    for name, kind, to, following in actions:
        if kind == "wall":  # only the turn passes on
            assert following is not None
            expected.append(expect(topic, {"turn"}, f"Game {gid}: {following}'s turn",
                                   f"It is {following}'s turn."))
        elif following is not None:
            expected.append(expect(topic, {"action", "turn"}, f"Game {gid}: {following}'s turn",
                                   f"{action_line(name, kind, to)} It is {following}'s turn."))
        else:
            expected.append(expect(topic, {"action"}, f"Game {gid}", action_line(name, kind, to)))
    on_topic = by_topic(got(ntfy.published))[topic]
    assert on_topic[:-1] == expected
    assert on_topic[-1].title.startswith(f"Game {gid} finished")
    # no action notification of any kind for a wall: the actions told are the moves
    moves = sum(1 for a in actions if a[1] == "move")
    # (each move: on the game topic and on the topic of the mover's opponent)
    assert sum(1 for p in ntfy.published if "action" in p.tags) == 2 * moves
    # the player who walls hears nothing of the other's moves but its turn; no mail of a wall
    wall_mails = [m for m in smtp.to(f"{walls_by}@example.test") if "placed" in m.body]
    assert wall_mails == []


def test_an_invisible_game_tells_an_opponents_wall_without_its_square(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("kim", "lou")
    for token in tokens.values():
        api.patch_me(token, notify={"action": True})
    ntfy.pause()  # the messages wait for ntfy and go out together (see the test below for
    # the actions worked out only after the game finished)
    game = start_game(api.http, tokens, size=5, invisible=True)
    gid = game["id"]
    names = seat_names(game)
    actions = play_out(api.http, tokens, game, scripts())
    ntfy.resume()
    api.drained()

    told = everything_told(ntfy, smtp)
    assert [text for text in told for wall in NORTH_WALLS if re.search(rf"\b{wall}\b", text)] == []
    walls = sum(1 for a in actions if a[1] == "wall")
    placed = f"{names['north']} placed a wall."
    topic = f"game_{gid}"
    # the game topic and the opponent's topic each hear of every wall, without where
    assert sum(placed in p.body for p in ntfy.to(topic)) == walls
    assert sum(placed in p.body for p in ntfy.to(names["south"])) == walls
    assert all("action" in p.tags for p in ntfy.published if placed in p.body)
    # and so do the opponent's e-mails (it asked for action mails)
    mails = smtp.to(f"{names['south']}@example.test")
    assert sum(placed in m.body for m in mails) == walls
    assert any(m.body.startswith(f"Hello {names['south']},\n\n{placed}\nIt is your turn.")
               for m in mails)


@pytest.mark.parametrize("mode", ["masked", "invisible"])
def test_walls_worked_out_after_the_game_finished_tell_no_more(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox, mode: str
) -> None:
    """The worker may work an action out long after it was played (a backlog, a restart;
    its e-mail and ntfy deliveries never hold it up): by then the game may have finished,
    which shows every wall on its page. The game's walls are recorded again after the
    finish, as the worker would find them then: still nothing of a masked wall is told,
    and an invisible one is "placed a wall", never where."""
    tokens = api.users("ned", "oli")
    for token in tokens.values():
        api.patch_me(token, notify={"action": True})
    game = start_game(api.http, tokens, size=5, **{mode: True})
    seats = {name: seat for seat, name in seat_names(game).items()}
    actions = play_out(api.http, tokens, game, scripts())
    api.drained()
    told_before, mailed_before = len(ntfy.requests), len(smtp.mails)

    store = Store.open(api.server.database_url, pool_size=1, migrate=False)
    try:
        ids = store.run(lambda: {u.username: u.id for u in User.select()})
        walls = [
            ActionPlayed(game_id=game["id"], revision=n, n=n, user_id=ids[name], seat=seats[name],
                         type=kind, notation=to,
                         next_user_id=ids[following] if following else None)
            for n, (name, kind, to, following) in enumerate(actions, start=1)
            if kind == "wall"
        ]
        store.run(lambda: [outbox.record_event(*to_record(wall)) for wall in walls])
    finally:
        store.close()
    ntfy.wait_for(lambda published: len(published) > told_before)
    api.drained()

    told = [f"{p.topic} {p.title} {p.body}" for p in ntfy.requests[told_before:]]
    told += [f"{m.subject} {m.body}" for m in smtp.mails[mailed_before:]]
    assert told  # (the turns they passed on are told again)
    assert [t for t in told for wall in NORTH_WALLS if re.search(rf"\b{wall}\b", t)] == []
    if mode == "masked":
        assert not any("placed" in text for text in told)
    else:
        assert any("placed a wall." in text for text in told)
