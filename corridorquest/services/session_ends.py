"""Sessions that end, and the events that tell the live streams opened with them.

A live stream is opened with a session and lives on after the request that opened it.
Every write that ends sessions (a logout, an administrator's lock or logout, a deletion,
a password change, a login that replaces the session) or takes rights away (a demotion)
says so with `SessionsEnded` or `AdminRightsChanged` (declared in corridorquest/events.py
with every other event): announced to the other server processes inside its
transaction (`keep_events`: PostgreSQL's NOTIFY goes out with the commit, in commit
order), published on this process's bus after the commit. Each process's live hub then
ends the streams opened with the ended sessions at once (corridorquest/live/hub.py).

    def write() -> ...:
        ended = end_sessions(user.id)             # inside the transaction
        announce(ctx, ended)
    await ctx.store.transaction(write)
    ctx.bus.publish(ended)                        # after the commit
"""

from __future__ import annotations

from collections.abc import Iterable

from corridorquest.events import Event, SessionsEnded
from corridorquest.services.context import ServiceContext
from corridorquest.services.outbound import keep_events
from corridorquest.store.models import Session, User

KEY_LENGTH = 16


def session_key(token_hash: str) -> str:
    """What names a session to the live streams: the start of its token's hash (which
    neither gives the token away nor is ever given to another session)."""
    return token_hash[:KEY_LENGTH]


def end_sessions(user_id: int, only: int | None = None) -> SessionsEnded:
    """Inside a transaction: end every session of the user (or its session `only`); then
    `announce` the answer in the transaction and publish it after the commit."""
    query = Session.select(Session.id, Session.token_hash).where(Session.user == user_id)
    if only is not None:
        query = query.where(Session.id == only)
    rows = list(query.tuples())
    if rows:
        Session.delete().where(Session.id.in_([row[0] for row in rows])).execute()
    return SessionsEnded(user_id, tuple(sorted(session_key(row[1]) for row in rows)))


def announce(ctx: ServiceContext, event: Event) -> None:
    """Inside a transaction: tell the other server processes of `event` with the commit."""
    keep_events(ctx, [event])


async def tell(ctx: ServiceContext, event: Event) -> None:
    """Outside a transaction: tell every server process of `event` (a write that could not
    name it in its own transaction)."""
    await ctx.store.transaction(announce, ctx, event)
    ctx.bus.publish(event)


def session_key_of(session_id: int) -> str | None:
    """Inside a transaction: the key of the session (None: it is gone)."""
    row = Session.select(Session.token_hash).where(Session.id == session_id).tuples().first()
    return session_key(row[0]) if row is not None else None


def sessions_left(session_ids: Iterable[int]) -> dict[int, tuple[str, bool]]:
    """Inside a transaction: of `session_ids`, those that still let their user in (the
    session exists, its user is not locked), each with its key and whether its user is
    an admin."""
    ids = sorted(set(session_ids))
    found: dict[int, tuple[str, bool]] = {}
    for start in range(0, len(ids), 500):
        rows = (
            Session.select(Session.id, Session.token_hash, User.is_admin, User.locked)
            .join(User, on=(User.id == Session.user))
            .where(Session.id.in_(ids[start : start + 500]))
            .tuples()
        )
        for session_id, token_hash, is_admin, locked in rows:
            if not locked:
                found[session_id] = (session_key(token_hash), bool(is_admin))
    return found
