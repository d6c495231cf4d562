"""A public game's notifications, end to end: exactly the e-mails (recipient, subject) and
ntfy messages (topic, tags, priority, title, body, auth) users should get, and nothing
else (SPEC §9)."""

from __future__ import annotations

from tests.notify.conftest import TOKEN, Api, Mailbox
from tests.notify.helpers import (
    WALL_SCRIPTS,
    action_line,
    by_topic,
    expect,
    four_player_game,
    got,
    mails_by_recipient,
    play_out,
    seat_names,
    start_game,
)
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.users import auth


def test_a_four_player_game_tells_each_player_and_topic_exactly_what_happened(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("ann", "bob", "cat", "dan")
    scripted = four_player_game(api.http, tokens)
    api.drained()

    assert by_topic(got(ntfy.published)) == scripted.ntfy
    assert len(ntfy.requests) == 21  # each delivered once, none refused
    for publish in ntfy.requests:
        assert publish.authorization == f"Bearer {TOKEN}"
        assert publish.content_type == "text/plain; charset=utf-8"
    assert mails_by_recipient(smtp.mails) == scripted.mails

    gid = scripted.game_id
    p0, p1 = scripted.order[:2]
    where = api.server.base_url.removeprefix("http://")  # no PUBLIC_URL: host and port
    assert smtp.to(f"{p0}@example.test")[0].body == (
        f"Hello {p0},\n\nGame {gid} (4 players, 5x5) started: ann, bob, cat, dan.\n"
        f"It is your turn.\n\nSee the game with: cq game show --game-id {gid}\n\n"
        "You get this e-mail because you asked for e-mails when your games start, finish or "
        "are cancelled and when it is your turn. To change that, use `cq user notify`.\n\n"
        f"-- \nCorridor Quest server at {where}\n"
    )
    turn_mail = smtp.to(f"{p1}@example.test")[1].body
    assert turn_mail.startswith(f"Hello {p1},\n\n{scripted.lines[0]}\nIt is your turn.\n")


def test_a_finished_game_tells_the_winner_and_scores_to_everyone(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    tokens = api.users("eve", "fay")
    ntfy.pause()  # the worker is held up: it delivers the game's messages in one batch
    game = start_game(api.http, tokens, size=5)
    gid = game["id"]
    names = seat_names(game)
    actions = play_out(api.http, tokens, game, {s: list(a) for s, a in WALL_SCRIPTS.items()})
    ntfy.resume()
    final = api.http.get(f"/games/{gid}", headers=auth(tokens["eve"])).json()
    assert final["status"] == "finished"
    winner = names["south"]
    loser = names["north"]
    api.drained()

    topic = f"game_{gid}"
    published = by_topic(got(ntfy.published))
    on_game = published[topic]
    assert len(on_game) == 1 + len(actions) + 1  # started, each action, finished: in order
    # a public game without modes: every wall with its square, to every topic
    for (name, kind, to, following), message in zip(actions, on_game[1:-1], strict=True):
        body = action_line(name, kind, to)
        if following is not None:
            assert message == expect(topic, {"action", "turn"}, f"Game {gid}: {following}'s turn",
                                     f"{body} It is {following}'s turn.")
        else:
            assert message == expect(topic, {"action"}, f"Game {gid}", body)
    finished = on_game[-1]
    assert finished.title == f"Game {gid} finished: {winner} won"
    assert finished.tags == {"game"} and finished.priority == "high"
    scores = final["scores"]
    assert finished.body == (
        f"Game {gid} finished: {winner} won. Scores: eve {scores['eve']}, fay {scores['fay']}."
    )
    for name in (winner, loser):
        assert published[name][-1] == finished._replace(topic=name)
    assert set(published) == {topic, winner, loser}

    subject = f"Corridor Quest: game {gid} finished"
    for name in (winner, loser):
        mails = smtp.to(f"{name}@example.test")
        assert [m.subject for m in mails].count(subject) == 1
        assert mails[-1].subject == subject
        assert finished.body in mails[-1].body
    # each of the loser's turns came by mail, none of the winner's moves told otherwise
    turns = [a for a in actions if a[3] == loser]
    loser_subjects = [m.subject for m in smtp.to(f"{loser}@example.test")]
    assert loser_subjects.count(f"Corridor Quest: your turn in game {gid}") == len(turns)


def test_a_cancel_by_a_system_admin_who_does_not_play_names_the_admin(
    api: Api, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    root = api.users("root", admin=True)["root"]
    tokens = api.users("gia", "hob")
    game = start_game(api.http, tokens, size=5)
    gid = game["id"]
    answer = api.http.delete(f"/games/{gid}", headers=auth(root))
    assert answer.status_code == 200, answer.text
    assert answer.json()["cancel_reason"] == "cancelled by root"
    api.drained()

    told = f"Game {gid} was cancelled: cancelled by root."
    cancels = [p for p in got(ntfy.published) if p.title == f"Game {gid} cancelled"]
    assert sorted(p.topic for p in cancels) == sorted([f"game_{gid}", "gia", "hob"])
    assert {p.body for p in cancels} == {told}
    for name in tokens:
        (mail,) = [m for m in smtp.to(f"{name}@example.test") if "cancelled" in m.subject]
        assert told in mail.body
    assert smtp.to("root@example.test") == []
