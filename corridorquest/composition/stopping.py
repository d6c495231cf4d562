"""A stop asked for while the server starts (SIGTERM, Ctrl-C) is kept until it serves.

Sanic turns SIGINT and SIGTERM into `app.stop()` just before its after-start listeners
run, and the server answers requests from then on. Two ways lost such a stop, and the
server ran on, holding its port and its database, until killed (1 SIGTERM in 10 sent
right after the first answer; tests/operations/test_stop_at_start.py):

- a stop during the after-start listeners stopped the event loop inside the start-up's
  `run_until_complete`, which swallowed it: here it waits until the server serves;
- uvloop hears a signal only while its loop runs, and the loop pauses for a moment
  between two runs of the start-up and `run_forever`, and may drop a signal it has
  taken as a run ends: such a signal went nowhere. Python-level handlers always run;
  here one queues the stop for the loop, to run now or at its next run.

And one stop, not two: a signal reaches both that handler and uvloop's own (which reads
the signal's number from its wake-up socket), so one SIGTERM could queue two stops. The
first ends the loop's run; the second, still queued, ran inside Sanic's clean-up, which
waits for open connections (live streams) with `run_until_complete`, stopped it there,
and the server exited with status 1 ("Event loop stopped before Future completed"; 1 in
6 runs of tests/live/test_stream_bounds.py's stop with open streams). A stop after the
first is ignored.
"""

from __future__ import annotations

import asyncio
import signal
from types import FrameType
from typing import Any

from sanic import Sanic

RETRY_SECONDS = 0.05
RETRIES = 1200  # a start-up that never ends is stopped anyway, after a minute
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopsOnceServing(Sanic):  # type: ignore[type-arg]
    """Sanic, whose `stop()` during the start-up is done as soon as the server serves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register_listener(_hear_signals_between_runs, "after_server_start")

    def stop(self, terminate: bool = True, unregister: bool = False) -> None:
        self._stop_when_serving(terminate, unregister, RETRIES)

    def _stop_when_serving(self, terminate: bool, unregister: bool, retries: int) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None and not self.state.is_running and retries > 0:
            loop.call_later(
                RETRY_SECONDS, self._stop_when_serving, terminate, unregister, retries - 1
            )
            return
        if getattr(self.ctx, "stop_issued", False):
            return  # one stop per run (see the module's text)
        self.ctx.stop_issued = True
        super().stop(terminate=terminate, unregister=unregister)


async def _hear_signals_between_runs(app: Sanic[Any, Any]) -> None:
    """Handle the stop signals at the Python level, where none is lost (the loop's own
    handlers, installed by Sanic by now, are replaced: one stop per signal)."""
    loop = asyncio.get_running_loop()

    def handler(number: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(app.stop, False)  # run by the loop, now or next run

    for number in STOP_SIGNALS:
        if callable(signal.getsignal(number)):  # Sanic registered its handlers
            signal.signal(number, handler)
