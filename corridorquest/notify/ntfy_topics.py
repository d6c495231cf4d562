"""The notify worker's ntfy side: due messages claimed and handed to one task per
topic, which publishes them in outbox order; a failure holds the rest of its topic back
(see worker.py)."""

from __future__ import annotations

import asyncio
from collections import deque
from datetime import datetime, timedelta

from corridorquest.notify.ntfy import NtfyPublisher, PublishRefused
from corridorquest.notify.outcomes import (
    DEFERRED,
    LEASE_SECONDS,
    RELEASED,
    SEND_BATCH,
    Marking,
    Result,
)
from corridorquest.store import outbox

MAX_PUBLISHING = 2 * SEND_BATCH  # ntfy messages claimed and not yet marked, at most
MAX_HELD = 1000  # topics held back after a failure, remembered before the past ones go


class NtfyTopics(Marking):
    ntfy: NtfyPublisher | None
    _ntfy_wake: asyncio.Event
    _topics: dict[str, deque[outbox.Item]]
    _publishing: set[asyncio.Task[None]]
    _claimed: set[int]
    _published: list[Result]
    _held: dict[str, datetime]

    async def ntfy_round(self) -> int:
        """Mark what the topics' tasks published since the last round, then claim due
        messages and hand them to their topics' tasks (without waiting for them); how many
        rows were handled."""
        done, self._published = self._published, []
        if done:
            try:
                await self.ctx.store.transaction(self._record, done)
            except BaseException:
                self._published[:0] = done  # marked in a later round
                raise
            self._claimed.difference_update(item.id for item, _, _ in done)
        room = MAX_PUBLISHING - len(self._claimed)
        if room <= 0:
            return len(done)
        items = await self.ctx.store.transaction(
            outbox.claim_due, min(SEND_BATCH, room), LEASE_SECONDS, (outbox.NTFY,)
        )
        fresh = [item for item in items if item.id not in self._claimed]  # (else: its
        # claim ran out while its topic was slow, and is renewed now)
        if fresh and self.ntfy is None:
            gone = PublishRefused("NTFY_URL is not set any more")
            await self.ctx.store.transaction(
                self._record, [(item, gone, None) for item in fresh]
            )
            return len(done) + len(fresh)
        moment = outbox.now()
        if len(self._held) > MAX_HELD:
            self._held = {topic: due for topic, due in self._held.items() if due > moment}
        for item in fresh:
            self._claimed.add(item.id)
            topic = str(item.payload.get("topic"))
            held = self._held.get(topic)
            if held is not None and held > moment:
                self._published.append((item, DEFERRED, held))
                continue
            self._held.pop(topic, None)
            queue = self._topics.get(topic)
            if queue is None:
                queue = self._topics[topic] = deque()
                task = asyncio.get_running_loop().create_task(
                    self._publish_topic(topic, queue), name=f"ntfy {topic}"
                )
                self._publishing.add(task)
                task.add_done_callback(self._publishing.discard)
            queue.append(item)
        if self._published:
            self._ntfy_wake.set()  # the deferred ones are marked next round
        return len(done) + len(fresh)

    async def _publish_topic(self, topic: str, queue: deque[outbox.Item]) -> None:
        """Publish the messages of `topic` one after the other, as they are queued."""
        assert self.ntfy is not None
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            while queue:
                if loop.time() - began > LEASE_SECONDS / 2:  # before their claims run out
                    self._published += [(item, RELEASED, None) for item in queue]
                    queue.clear()
                    break
                item = queue.popleft()
                try:
                    await self.ntfy.publish(item.payload)
                    self._published.append((item, None, None))
                except Exception as error:
                    due = None
                    if not self._gives_up(item, error):
                        due = outbox.now() + timedelta(seconds=self._retry_delay(item))
                        self._held[topic] = due  # the rest of the topic comes with it
                        self._published += [(rest, DEFERRED, due) for rest in queue]
                        queue.clear()
                    self._published.append((item, error, due))
                self._ntfy_wake.set()
        finally:
            if self._topics.get(topic) is queue:
                del self._topics[topic]
            self._ntfy_wake.set()
