"""The outbox: queue a mail and return at once; deliver it in the background with retries."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage

from corridorquest.mail.backends import MailBackend, MailConfig, make_backend
from corridorquest.mail.message import build_message

log = logging.getLogger("corridorquest.mail")


class Outbox:
    """Sends mail without ever blocking or failing the caller's request.

    Each message becomes an asyncio task that tries ``attempts`` times, waiting
    ``first_delay`` seconds before the first retry and doubling up to ``max_delay``.
    A message that still fails is logged at ERROR level and dropped.
    """

    def __init__(
        self,
        backend: MailBackend,
        sender: str,
        *,
        attempts: int = 5,
        first_delay: float = 2.0,
        max_delay: float = 300.0,
    ) -> None:
        self.backend = backend
        self.sender = sender
        self.attempts = max(1, attempts)
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._tasks: set[asyncio.Task[bool]] = set()

    @classmethod
    def from_config(
        cls,
        config: MailConfig,
        *,
        attempts: int = 5,
        first_delay: float = 2.0,
        max_delay: float = 300.0,
    ) -> Outbox:
        """An outbox over the backend named in ``config``."""
        return cls(
            make_backend(config),
            config.sender,
            attempts=attempts,
            first_delay=first_delay,
            max_delay=max_delay,
        )

    def send(self, to: str, subject: str, body: str) -> asyncio.Task[bool]:
        """Queue one plain-text mail; must be called from the running event loop."""
        return self.send_message(build_message(self.sender, to, subject, body))

    def send_message(self, message: EmailMessage) -> asyncio.Task[bool]:
        """Queue an already built message."""
        task = asyncio.get_running_loop().create_task(self._deliver(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _deliver(self, message: EmailMessage) -> bool:
        delay = self.first_delay
        for attempt in range(1, self.attempts + 1):
            try:
                await self.backend.deliver(message)
                return True
            except asyncio.CancelledError:
                raise
            except Exception as error:  # any delivery failure is retried
                if attempt == self.attempts:
                    log.error(
                        "e-mail to %s (%s) not delivered after %d attempts: %s",
                        message["To"],
                        message["Subject"],
                        attempt,
                        error,
                    )
                    return False
                log.warning(
                    "e-mail to %s failed (attempt %d of %d, retry in %.1f s): %s",
                    message["To"],
                    attempt,
                    self.attempts,
                    delay,
                    error,
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_delay)
        return False

    @property
    def pending(self) -> int:
        """How many messages are still being delivered."""
        return len(self._tasks)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queued message is delivered or given up (for shutdown)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def close(self) -> None:
        """Cancel whatever is still pending (after a drain with a timeout, at shutdown)."""
        tasks = set(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
