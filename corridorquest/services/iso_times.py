"""Times as the API shows them: ISO 8601 in UTC with a `Z` (`2026-12-08T01:56:19Z`)."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if type(moment) is datetime and moment.tzinfo is None:  # what we store
        return _naive_iso(moment)
    return _format_iso(moment)


def _format_iso(moment: datetime) -> str:
    if moment.microsecond == 0 and moment.tzinfo is None:  # a few times faster than strftime
        return moment.isoformat() + "Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# Formatting costs ~0.6 us, and every view shows the same few times again (the game's, and
# each action's in five views running). A memo of a pure function: equal naive datetimes
# have equal fields, so equal text (not so aware ones: 12:00+00:00 equals 13:00+01:00).
_naive_iso = lru_cache(maxsize=4096)(_format_iso)
