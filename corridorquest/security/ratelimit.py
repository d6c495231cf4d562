"""The login rate-limit policy: a sliding window over recent failed attempts.

The attempts themselves are rows in the database (see ``services/sessions.py``), so the
limit holds across server processes sharing one database and across restarts; this module
only decides, from their timestamps, whether one more attempt is allowed now. The login
lets an attempt hold a slot while its password is checked (a row marked `checking`,
inserted in the same transaction as this decision, so attempts made in parallel count
against each other) and gives the slot back when the password was right: only failures
count. An attempt that finds the limit full only of checks under way waits for them
rather than being refused (services/sessions.py asks this policy twice: with the
failures alone, then with the checks under way too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class RateLimit:
    """At most ``limit`` failed attempts within ``window_seconds``."""

    limit: int
    window_seconds: float

    def window_start(self, now: datetime) -> datetime:
        """The oldest moment whose attempts still count at ``now``."""
        return now - timedelta(seconds=self.window_seconds)

    def retry_after(self, failures: Iterable[datetime], now: datetime) -> int | None:
        """Seconds to wait before the next attempt is allowed, or None if allowed now.

        ``failures`` are the times of failed attempts (any order; older ones are ignored).
        """
        if self.limit <= 0:
            return None
        start = self.window_start(now)
        recent = sorted(t for t in failures if t > start)
        if len(recent) < self.limit:
            return None
        # The attempt that must leave the window so that fewer than `limit` remain.
        freeing = recent[len(recent) - self.limit]
        wait = (freeing + timedelta(seconds=self.window_seconds) - now).total_seconds()
        return max(1, math.ceil(wait))
