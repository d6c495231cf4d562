"""OUTBOX_RETENTION: the scheduler's purge deletes delivered and given-up outbox rows once
they are that old, never a row still waiting."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from corridorquest.scheduler.sweeps import purge_outbox
from corridorquest.services.context import ServiceContext
from corridorquest.settings import Settings
from corridorquest.store import outbox
from corridorquest.store.models import OutboxItem


def _rows(ctx: ServiceContext) -> list[str]:
    return ctx.store.run(
        lambda: [row.payload for row in OutboxItem.select().order_by(OutboxItem.id)]
    )


def _outbox(ctx: ServiceContext) -> None:
    """Three rows: delivered three days ago, given up an hour ago, still waiting."""

    def write() -> None:
        for name in ("old", "recent", "waiting"):
            outbox.queue(outbox.MAIL, {"to": f"{name}@example.test", "subject": name})
        rows = list(OutboxItem.select().order_by(OutboxItem.id))
        now = outbox.now()
        OutboxItem.update(done_at=now - timedelta(days=3)).where(
            OutboxItem.id == rows[0].id
        ).execute()
        OutboxItem.update(done_at=now - timedelta(hours=1), failed=True).where(
            OutboxItem.id == rows[1].id
        ).execute()

    ctx.store.run(write)


def _purged_with(tmp_path: Path, retention: str) -> tuple[int, list[str]]:
    settings = Settings(data_dir=str(tmp_path), outbox_retention=retention)

    async def scenario() -> tuple[int, list[str]]:
        ctx = ServiceContext.open(settings)
        try:
            _outbox(ctx)
            removed = await purge_outbox(ctx)
            return removed, [row.split('"subject":"')[1].split('"')[0] for row in _rows(ctx)]
        finally:
            await ctx.close()

    return asyncio.run(scenario())


def test_rows_older_than_the_retention_are_purged_and_waiting_rows_never(tmp_path: Path) -> None:
    assert _purged_with(tmp_path / "one-day", "1d") == (1, ["recent", "waiting"])
    assert _purged_with(tmp_path / "five-days", "5d") == (0, ["old", "recent", "waiting"])
    assert _purged_with(tmp_path / "a-minute", "1m") == (2, ["waiting"])
