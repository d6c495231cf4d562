"""The outbox never blocks or fails the caller: it retries with back-off and logs failure."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage

import pytest

from corridorquest.mail import Outbox


class FlakyBackend:
    """Fails the first ``failures`` deliveries, then records every message."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.attempts = 0
        self.delivered: list[EmailMessage] = []

    async def deliver(self, message: EmailMessage) -> None:
        self.attempts += 1
        if self.attempts <= self.failures:
            raise ConnectionRefusedError("mail server down")
        self.delivered.append(message)


def test_a_failing_delivery_is_retried_until_it_succeeds() -> None:
    backend = FlakyBackend(failures=2)

    async def scenario() -> bool:
        outbox = Outbox(backend, "cq@example.test", attempts=4, first_delay=0.01)
        task = outbox.send("alice@example.test", "Code", "123456")
        await outbox.drain(timeout=10)
        return task.result()

    assert asyncio.run(scenario()) is True
    assert backend.attempts == 3
    assert [m["To"] for m in backend.delivered] == ["alice@example.test"]


def test_a_delivery_that_keeps_failing_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    backend = FlakyBackend(failures=100)

    async def scenario() -> tuple[bool, int]:
        outbox = Outbox(backend, "cq@example.test", attempts=3, first_delay=0.01)
        task = outbox.send("bob@example.test", "Notice", "text")
        pending = outbox.pending
        await outbox.drain(timeout=10)
        return task.result(), pending

    with caplog.at_level(logging.WARNING, logger="corridorquest.mail"):
        delivered, pending_after_send = asyncio.run(scenario())
    assert delivered is False and pending_after_send == 1
    assert backend.attempts == 3 and backend.delivered == []
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert "bob@example.test" in errors[0].getMessage()
    assert "not delivered after 3 attempts" in errors[0].getMessage()


def test_back_off_doubles_between_attempts() -> None:
    backend = FlakyBackend(failures=3)
    loop_times: list[float] = []

    class Timed(FlakyBackend):
        async def deliver(self, message: EmailMessage) -> None:
            loop_times.append(asyncio.get_running_loop().time())
            await backend.deliver(message)

    async def scenario() -> None:
        outbox = Outbox(Timed(0), "cq@example.test", attempts=4, first_delay=0.05)
        outbox.send("carol@example.test", "x", "y")
        await outbox.drain(timeout=10)

    asyncio.run(scenario())
    gaps = [b - a for a, b in zip(loop_times, loop_times[1:], strict=False)]
    assert len(gaps) == 3
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1 and gaps[2] >= 0.2


def test_close_cancels_what_is_still_pending() -> None:
    async def scenario() -> int:
        outbox = Outbox(FlakyBackend(failures=100), "cq@example.test", first_delay=60)
        outbox.send("dave@example.test", "x", "y")
        await asyncio.sleep(0.01)
        await outbox.close()
        return outbox.pending

    assert asyncio.run(scenario()) == 0
