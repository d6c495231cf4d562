"""Sessions that end, and the events that tell the live streams opened with them.

A live stream is opened with a session and lives on after the request that opened it.
Every write that ends sessions (a logout, an administrator's lock or logout, a deletion,
a password change, a login that replaces the session) or takes rights away (a demotion)
says so with one of these events: announced to the other server processes inside its
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
from dataclasses import dataclass

from corridorquest.events import Event
from corridorquest.services.context import ServiceContext
from corridorquest.services.outbound import keep_events
from corridorquest.store.models import Session, User


@dataclass(frozen=True)
class SessionsEnded(Event):
    """These sessions of the user ended; `session_ids` empty: some did, which ones the
    database tells (what is left of the user's sessions)."""

    user_id: int
    session_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class AdminRightsChanged(Event):
    """The user was promoted (`is_admin`) or demoted: its streams see what it may now."""

    user_id: int
    is_admin: bool


def end_sessions(user_id: int, only: int | None = None) -> SessionsEnded:
    """Inside a transaction: end every session of the user (or its session `only`); then
    `announce` the answer in the transaction and publish it after the commit."""
    query = Session.select(Session.id).where(Session.user == user_id)
    if only is not None:
        query = query.where(Session.id == only)
    ids = tuple(sorted(row.id for row in query))
    if ids:
        Session.delete().where(Session.id.in_(ids)).execute()
    return SessionsEnded(user_id, ids)


def announce(ctx: ServiceContext, event: Event) -> None:
    """Inside a transaction: tell the other server processes of `event` with the commit."""
    keep_events(ctx, [event])


async def tell(ctx: ServiceContext, event: Event) -> None:
    """Outside a transaction: tell every server process of `event` (a write that could not
    name it in its own transaction)."""
    await ctx.store.transaction(announce, ctx, event)
    ctx.bus.publish(event)


def sessions_left(session_ids: Iterable[int]) -> dict[int, bool]:
    """Inside a transaction: of `session_ids`, those that still let their user in (the
    session exists, its user is not locked), each with whether that user is an admin."""
    ids = sorted(set(session_ids))
    found: dict[int, bool] = {}
    for start in range(0, len(ids), 500):
        rows = (
            Session.select(Session.id, User.is_admin, User.locked)
            .join(User, on=(User.id == Session.user))
            .where(Session.id.in_(ids[start : start + 500]))
            .tuples()
        )
        for session_id, is_admin, locked in rows:
            if not locked:
                found[session_id] = bool(is_admin)
    return found
