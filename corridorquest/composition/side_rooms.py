"""The rooms that run beside the HTTP handlers, started and stopped in one place.

- notify (corridorquest/notify): mail and ntfy from the events; first, so that every
  write from now on keeps the events it needs;
- scheduler (corridorquest/scheduler): the periodic sweeps (clocks, digests, clean-up);
- bots (corridorquest/bot_play): the bots' moves, computed in worker processes;
- analyses (services/analysis_runs.py): their worker process, started on the first
  request, stopped here; the same for imports and replays (services/replay_runs.py);
- live (corridorquest/live): the event streams; on PostgreSQL, the relay between
  processes.

A new side room starts in `SideRooms.start` and stops in
`SideRooms.stop`; nothing else needs to know it.
"""

from __future__ import annotations

from dataclasses import dataclass

from corridorquest.bot_play.driver import BotDriver, start_bots
from corridorquest.live import LiveService, start_live
from corridorquest.notify.worker import NotifyWorker, start_notifications
from corridorquest.scheduler import Scheduler, start_scheduler
from corridorquest.services import analysis_runs, replay_runs
from corridorquest.services.context import ServiceContext


@dataclass
class SideRooms:
    notifier: NotifyWorker
    scheduler: Scheduler
    bots: BotDriver | None  # None: BOT_WORKERS=0, bots play in no process of this one
    live: LiveService

    @classmethod
    async def start(cls, ctx: ServiceContext) -> SideRooms:
        notifier = start_notifications(ctx)  # before any write: it keeps events
        scheduler = start_scheduler(ctx)
        bots = start_bots(ctx)  # plays the bots' moves (worker processes)
        try:
            live = await start_live(ctx)  # streams; on PostgreSQL, the relay
        except BaseException:
            if bots is not None:
                await bots.stop()
            await scheduler.stop()
            await notifier.stop()
            raise
        return cls(notifier, scheduler, bots, live)

    async def end_streams(self) -> None:
        """Before the server waits for its open connections: a stream would hold it until
        the graceful shutdown's timeout."""
        await self.live.close()

    async def stop(self) -> None:
        """After the server stopped serving (the streams ended before)."""
        if self.bots is not None:
            await self.bots.stop()
        analysis_runs.shutdown()  # the analyses' worker process, if one was started
        replay_runs.shutdown()  # the imports' and replays' worker process, likewise
        await self.scheduler.stop()
        await self.notifier.stop()
