"""The in-process event bus: subscribers by type, async subscribers, failures isolated."""

from __future__ import annotations

import asyncio
import logging

import pytest

from corridorquest.events import (
    ActionPlayed,
    EventBus,
    GameCancelled,
    GameEvent,
    GameFinished,
    GameStarted,
    PlayersInvited,
)


def test_subscribers_get_events_of_their_type_and_its_subclasses() -> None:
    bus = EventBus()
    started: list[GameStarted] = []
    every_game_event: list[GameEvent] = []
    bus.subscribe(GameStarted, started.append)
    bus.subscribe(GameEvent, every_game_event.append)
    first = GameStarted(game_id=1, revision=2, first_user_id=7)
    cancel = GameCancelled(game_id=1, revision=3, by_user_id=7, reason="withdrew")
    bus.publish(first)
    bus.publish(cancel)
    assert started == [first]
    assert every_game_event == [first, cancel]


def test_a_failing_subscriber_is_logged_and_does_not_stop_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = EventBus()
    seen: list[int] = []

    def broken(event: GameStarted) -> None:
        raise RuntimeError("mail server on fire")

    bus.subscribe(GameStarted, broken)
    bus.subscribe(GameStarted, lambda event: seen.append(event.game_id))
    with caplog.at_level(logging.ERROR, logger="corridorquest.events"):
        bus.publish(GameStarted(game_id=5, revision=2, first_user_id=1))
    assert seen == [5]
    assert "mail server on fire" in caplog.text


def test_async_subscribers_run_as_tasks_without_blocking_the_publisher(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = EventBus()
    done: list[int] = []

    async def slow(event: ActionPlayed) -> None:
        await asyncio.sleep(0.01)
        done.append(event.n)

    async def failing(event: ActionPlayed) -> None:
        raise RuntimeError("ntfy is down")

    async def scenario() -> None:
        bus.subscribe(ActionPlayed, slow)
        bus.subscribe(ActionPlayed, failing)
        bus.publish(
            ActionPlayed(
                game_id=1, revision=3, n=2, user_id=1, seat="north", type="move", notation="e8"
            )
        )
        assert done == []
        await bus.drain()

    with caplog.at_level(logging.ERROR, logger="corridorquest.events"):
        asyncio.run(scenario())
    assert done == [2]
    assert "ntfy is down" in caplog.text


def test_unsubscribed_handlers_get_nothing() -> None:
    bus = EventBus()
    seen: list[GameStarted] = []
    bus.subscribe(GameStarted, seen.append)
    bus.unsubscribe(GameStarted, seen.append)
    bus.publish(GameStarted(game_id=1, revision=2, first_user_id=1))
    assert seen == []


def test_subscriptions_and_keep_rules_changed_after_a_publish_take_effect() -> None:
    """The bus works out once per event class whom it calls and what it keeps: a
    subscriber or a keep rule that comes or goes later counts from then on."""
    bus = EventBus()
    events = [GameStarted(game_id=n, revision=2, first_user_id=1) for n in range(4)]
    early: list[GameStarted] = []
    bus.subscribe(GameStarted, early.append)
    bus.publish(events[0])
    assert bus.kept([events[0]]) == []
    late: list[GameEvent] = []
    bus.subscribe(GameEvent, late.append)
    bus.publish(events[1])
    assert early == events[:2]
    assert late == [events[1]]
    bus.unsubscribe(GameStarted, early.append)
    bus.publish(events[2])
    assert early == events[:2]
    assert late == events[1:3]
    bus.keep(GameEvent, lambda event, players: event.game_id == 3)
    assert bus.kept(events) == [events[3]]
    bus.keep(GameStarted)  # the nearest class's rule decides
    assert bus.kept(events) == events


def test_every_event_the_notifications_keep_comes_back_equal_from_its_record() -> None:
    import json

    from corridorquest.events import (
        AdminBroadcast,
        MessagePosted,
        StallReminder,
        TournamentPaired,
        UsernameChanged,
        from_record,
        to_record,
    )
    from corridorquest.notify.audience import KEPT_EVENTS

    samples = [
        ActionPlayed(game_id=4, revision=9, n=7, user_id=2, seat="N", type="wall",
                     notation="c3h", passed_user_ids=(3, 5), next_user_id=5),
        GameStarted(game_id=4, revision=3, first_user_id=2),
        GameFinished(game_id=4, revision=30, winner_id=2, scores={2: 87, 3: 13}),
        GameCancelled(game_id=4, revision=31, by_user_id=None, reason="{user:3} left"),
        PlayersInvited(game_id=4, revision=1, inviter_id=2, invitee_ids=(3, 4),
                       invitation_code="abc"),
        MessagePosted(game_id=4, revision=5, message_id=12, sender_id=2, recipient_id=None),
        AdminBroadcast(game_ids=(1, 4), text="maintenance at noon"),
        UsernameChanged(2, "dave", "davey"),
        StallReminder(game_id=4, revision=9, user_id=5, turn_since="2026-11-25T10:00:00Z",
                      removal_at="2026-12-09T10:00:00Z"),
        TournamentPaired(game_id=4, revision=2, tournament_id=3, round=2),
    ]
    assert {type(sample) for sample in samples} == set(KEPT_EVENTS)
    for sample in samples:
        name, values = to_record(sample)
        stored = json.loads(json.dumps(values))  # as the outbox keeps it
        assert from_record(name, stored) == sample
    assert from_record("NoSuchEvent", {}) is None
