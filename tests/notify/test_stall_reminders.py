"""A stalling player (SPEC §10) is reminded by e-mail and on ntfy with the tag maintenance,
again every STALL_REMIND_INTERVAL, and removed after STALL_TIMEOUT, which cancels the game
(tags game and maintenance). Short settings; the waits are bounded polls."""

from __future__ import annotations

import httpx

from tests.notify.conftest import Mailbox, Serve, drained
from tests.notify.helpers import by_topic, expect, got, seat_names, start_game
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.users import insert_user


def test_a_stalling_player_is_reminded_again_and_then_removed(
    serve: Serve, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    server = serve(STALL_REMIND_AFTER="1s", STALL_REMIND_INTERVAL="2s", STALL_TIMEOUT="6s")
    tokens = {name: insert_user(server.database_url, name) for name in ("ola", "pim")}
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        game = start_game(http, tokens, size=5)
    gid, topic = game["id"], f"game_{game['id']}"
    staller = seat_names(game)[game["turn"]]
    other = next(name for name in tokens if name != staller)
    cancelled_title = f"Game {gid} cancelled"
    ntfy.wait_for(lambda got: any(p.topic == topic and p.title == cancelled_title for p in got),
                  timeout=30)
    drained(server)

    published = by_topic(got(ntfy.published))
    waiting = f"Game {gid}: waiting for {staller}"
    reminders = [p for p in published[topic] if p.title == waiting]
    assert len(reminders) >= 2  # after 1 s, again 2 s later (and maybe once more)
    for reminder in reminders:
        assert reminder.tags == {"maintenance"} and reminder.priority == "default"
        assert reminder.body.startswith(f"It has been {staller}'s turn in game {gid} since ")
    reason = f"Game {gid} was cancelled: {staller} did not move for 6 seconds and was removed."
    cancelled = expect(topic, {"game", "maintenance"}, cancelled_title, reason)
    assert cancelled.priority == "high"
    assert [p.title for p in published[topic]] == (
        [f"Game {gid} started"] + [waiting] * len(reminders) + [cancelled_title]
    )
    assert published[topic][-1] == cancelled
    # the staller's own topic hears the same; the other player's only of the game
    assert [p.title for p in published[staller]][1:] == [waiting] * len(reminders) + [
        cancelled_title
    ]
    assert published[staller][-1] == cancelled._replace(topic=staller)
    assert [p.title for p in published[other]] == [f"Game {gid} started", cancelled_title]
    assert published[other][-1] == cancelled._replace(topic=other)

    # e-mail: a reminder each time to the staller only, then the cancel to both
    reminder_subject = f"Corridor Quest: reminder: your turn in game {gid}"
    cancel_subject = f"Corridor Quest: game {gid} was cancelled"
    staller_mails = smtp.to(f"{staller}@example.test")
    assert [m.subject for m in staller_mails if m.subject == reminder_subject] == [
        reminder_subject
    ] * len(reminders)
    assert staller_mails[-1].subject == cancel_subject
    assert "you will be removed from the game" in next(
        m.body for m in staller_mails if m.subject == reminder_subject
    )
    assert [m.subject for m in smtp.to(f"{other}@example.test")] == [
        f"Corridor Quest: game {gid} started", cancel_subject
    ]
