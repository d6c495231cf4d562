"""The scheduler (SPEC §10): what the server does between requests.

- `loop.py`: one loop that wakes at the next deadline (at most SCHEDULER_INTERVAL later)
  and calls the sweeps; it has no rules of its own.
- `sweeps.py`: the table of sweeps. Each sweep lives with its domain (stalled players with
  the games, purges with sessions, verification, idempotency, invitations) and answers
  when it wants to run next; every sweep is idempotent and reads its deadlines from the
  database, so a restart loses nothing and a late start catches up.
- `leader.py`: which process runs it. SQLite has one server process; on PostgreSQL the
  process holding a session-level advisory lock leads, the others try again every few
  seconds and take over when it dies.
"""

from corridorquest.scheduler.loop import Scheduler, Sweep
from corridorquest.scheduler.sweeps import SWEEPS, start_scheduler

__all__ = ["SWEEPS", "Scheduler", "Sweep", "start_scheduler"]
