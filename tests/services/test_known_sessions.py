"""The sessions a process keeps (services/known_sessions.py): until the next touch is
due, while the database's data version stays, and not past an event about the user."""

from __future__ import annotations

from datetime import datetime, timedelta

from corridorquest.events import (
    AccountChanged,
    AdminRightsChanged,
    EventBus,
    SessionsEnded,
    UsernameChanged,
)
from corridorquest.services.auth import CurrentUser
from corridorquest.services.known_sessions import KnownSessions

NOW = datetime(2026, 11, 28, 12, 0, 0)
LATER = NOW + timedelta(seconds=60)


def user(user_id: int, session_id: int) -> CurrentUser:
    return CurrentUser(user_id, f"u{user_id}", f"u{user_id}@example.test", False, session_id,
                       NOW + timedelta(days=7))


def test_a_session_is_answered_until_its_next_touch_is_due() -> None:
    known = KnownSessions()
    alice = user(1, 10)
    known.keep("h1", alice, LATER, data_version=5)
    assert known.get("h1", NOW, 5) is alice
    assert known.get("h1", LATER - timedelta(microseconds=1), 5) is alice
    assert known.get("h1", LATER, 5) is None  # the touch is due: read it again
    assert known.get("h1", NOW, 5) is None  # and it was dropped
    assert known.get("nobody", NOW, 5) is None


def test_another_connections_write_drops_everything_kept() -> None:
    known = KnownSessions()
    known.keep("h1", user(1, 10), LATER, data_version=5)
    assert known.get("h1", NOW, 6) is None
    assert len(known) == 0


def test_every_event_about_a_user_drops_all_its_sessions_and_no_other() -> None:
    bus = EventBus()
    known = KnownSessions()
    known.subscribe(bus)
    events = (SessionsEnded(1, ("abc",)), AdminRightsChanged(1, True),
              UsernameChanged(1, "u1", "v1"), AccountChanged(1))
    for event in events:
        known.keep("h1", user(1, 10), LATER, 5)
        known.keep("h2", user(1, 11), LATER, 5)
        known.keep("h3", user(2, 20), LATER, 5)
        bus.publish(event)
        assert known.get("h1", NOW, 5) is None, event
        assert known.get("h2", NOW, 5) is None, event
        assert known.get("h3", NOW, 5) is not None, event


def test_past_its_limit_the_oldest_kept_goes_first() -> None:
    known = KnownSessions(limit=2)
    known.keep("h1", user(1, 10), LATER, 5)
    known.keep("h2", user(2, 20), LATER, 5)
    known.keep("h3", user(3, 30), LATER, 5)
    assert len(known) == 2
    assert known.get("h1", NOW, 5) is None
    assert known.get("h2", NOW, 5) is not None and known.get("h3", NOW, 5) is not None
