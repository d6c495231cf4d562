"""Sessions this process checked lately: a request's login without reading its session.

Every authenticated request looks its session and its user up (services/auth.py), and
the read costs about a twentieth of a move's server time. On SQLite, where one server
process makes every write (store/single_process.py), the answer is kept here, by the
token's hash, until the session's next touch is due (the request that must write the
session's expiry again: a minute after the last, or a quarter of SESSION_IDLE_TIMEOUT
when that is shorter) or the session expires, whichever comes first. Until then a
request of that session is answered from here; the first one after reads and touches
the session as before. So the idle expiry works exactly as without this table.

What could change the answer drops it at once:

- a write of this process that ends sessions or changes what a session says of its
  user publishes `SessionsEnded`, `AdminRightsChanged`, `UsernameChanged` or
  `AccountChanged` (corridorquest/events.py) after its commit: every kept session of
  that user goes (a logout, a lock, a deletion, a password change, a promotion or
  demotion, a rename, a new e-mail address, a guest made a full account);
- a commit of any other connection to the database file (`corridorquest init-admin`
  beside the running server, an administrator's hand edit, a test's): SQLite's
  `PRAGMA data_version` moves, and everything kept goes.

A write that ends a session in this process runs on the event loop inside the open
group-commit batch, on the connection every lookup uses, so a lookup after it reads the
session gone even before the COMMIT, and nothing can keep it again.

PostgreSQL: nothing is kept (`ServiceContext.known_sessions` is None): several server
processes write sessions there, and each request reads its session as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from corridorquest.events import (
    AccountChanged,
    AdminRightsChanged,
    EventBus,
    SessionsEnded,
    UsernameChanged,
)

MAX_KEPT = 4096  # sessions; past this the oldest kept goes first


@dataclass(frozen=True)
class Kept:
    user: Any  # services.auth.CurrentUser (that module imports this one)
    fresh_until: datetime  # its next touch is due, or it expires: read it again then
    data_version: int  # the database's data_version when it was read


class KnownSessions:
    def __init__(self, limit: int = MAX_KEPT) -> None:
        self._kept: dict[str, Kept] = {}
        self._limit = limit

    def get(self, token_hash: str, now: datetime, data_version: int) -> Any | None:
        """The user of the session, if it was read lately and nothing changed since."""
        kept = self._kept.get(token_hash)
        if kept is None:
            return None
        if now < kept.fresh_until and kept.data_version == data_version:
            return kept.user
        del self._kept[token_hash]
        return None

    def keep(self, token_hash: str, user: Any, fresh_until: datetime, data_version: int) -> None:
        """Right after reading the session (in the same step of the event loop)."""
        kept = self._kept
        kept.pop(token_hash, None)
        if len(kept) >= self._limit:
            del kept[next(iter(kept))]
        kept[token_hash] = Kept(user, fresh_until, data_version)

    def forget_user(self, user_id: int) -> None:
        """Every kept session of the user."""
        for token_hash in [h for h, kept in self._kept.items() if kept.user.id == user_id]:
            del self._kept[token_hash]

    def __len__(self) -> int:
        return len(self._kept)

    def subscribe(self, bus: EventBus) -> None:
        """Drop what the events of `bus` change."""
        for event_type in (SessionsEnded, AdminRightsChanged, UsernameChanged, AccountChanged):
            bus.subscribe(event_type, self._changed)

    def _changed(
        self, event: SessionsEnded | AdminRightsChanged | UsernameChanged | AccountChanged
    ) -> None:
        self.forget_user(event.user_id)
