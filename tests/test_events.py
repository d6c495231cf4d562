"""The in-process event bus: subscribers by type, async subscribers, failures isolated."""

from __future__ import annotations

import asyncio
import logging

import pytest

from corridorquest.events import ActionPlayed, EventBus, GameCancelled, GameEvent, GameStarted


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
