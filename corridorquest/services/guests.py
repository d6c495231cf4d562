"""Guest accounts (issue 29, GUESTS=on): a person at a party who opens a game's page picks a
name and plays at once, without e-mail or password.

A guest is a `User` with the guest mark (`user.guest`, migration step 20): verified, an
address under `.invalid` (RFC 2606: no mail reaches anybody), an unusable password (no
argon2 hash: no password matches it, so a login as a guest is refused), no notifications.
Its only way in is the session opened when it is created, held by one browser (the
`cq_session` cookie the web page sets) or by the API client that asked for it. Its name
follows the usernames' rules and is reserved (taken) while the guest exists.

A game with a guest among its players is never rated, for anybody (lichess rates no
anonymous play; services/ratings.py asks `any_guest`). So a guest is never on a
leaderboard either.

A guest without play for GUEST_PURGE_AFTER (no request of its session, no move, created
before that) is removed by the scheduler as an administrator's deletion removes an
account (services/admin_users.py `anonymise`): its waiting games left, its started games
cancelled, its finished games keep the `deleted-user-<id>` name. An administrator may
remove a guest sooner (`cq-admin user delete`), or turn it into a full account (`convert`:
the e-mail address it gets, no guest mark, its session stays; it sets a password with a
forgotten-password code sent to that address).

Creating guests counts against the signups of a client address (SIGNUP_LIMIT_ADDRESS per
SIGNUP_WINDOW): a script cannot take every name.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from corridorquest.events import AccountChanged, Event
from corridorquest.security import policy
from corridorquest.security.ratelimit import RateLimit
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.services.admin_audit import record, require_admin
from corridorquest.services.admin_users import anonymise, row_view
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import (
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    security_refusals_as_service_errors,
)
from corridorquest.services.limit_addresses import limit_address
from corridorquest.services.sessions import NewSession, find_user

# users.py's checks (an expired signup's name or address is free again) and its words
from corridorquest.services.signups import email_taken, taken_error, username_taken
from corridorquest.services.unit_of_work import run_system_write
from corridorquest.services.user_refs import literal
from corridorquest.services.verification import signup_retention
from corridorquest.settings import Settings
from corridorquest.store import fast
from corridorquest.store.models import (
    GameAction,
    GamePlayer,
    IntegrityError,
    Session,
    SignupRequest,
    User,
    utcnow,
)

NO_PASSWORD = "!guest: no password login"  # never a valid hash: no password matches it
PURGE_BATCH = 50


GUEST_DOMAIN = "@guests.invalid"


def guest_email(token: str) -> str:
    return f"guest-{token}{GUEST_DOMAIN}"


def is_guest(user: CurrentUser) -> bool:
    """Whether the logged-in `user` is a guest (its address is a guest's, until it is
    converted into a full account)."""
    return user.email.endswith(GUEST_DOMAIN)


def _check_address(address: str, settings: Settings) -> None:
    """429 when the client address made SIGNUP_LIMIT_ADDRESS signups and guests within
    SIGNUP_WINDOW (inside a transaction)."""
    now = utcnow()
    window = float(settings.signup_window)
    recent = [
        row.at
        for row in SignupRequest.select(SignupRequest.at).where(
            (SignupRequest.address == address)
            & (SignupRequest.at > now - timedelta(seconds=window))
        )
    ]
    wait = RateLimit(settings.signup_limit_address, window).retry_after(recent, now)
    if wait is not None:
        raise RateLimited(
            "rate_limited",
            f"too many signups and guests from your address; ask again in {wait} seconds",
            retry_after=wait,
        )


def require_guests_on(settings: Settings) -> None:
    if settings.guests != "on":
        raise Forbidden(
            "guests_off",
            "this server has no guest accounts (GUESTS=off): sign up or log in to play",
        )


async def create_guest(ctx: ServiceContext, username: str, address: str) -> NewSession:
    """Create the guest `username` and open its session (the only one it will have).

    403 `guests_off` with GUESTS=off, 422 `invalid_username`, 409 `username_taken`, 429
    `rate_limited`; each creates nothing."""
    require_guests_on(ctx.settings)
    address = limit_address(address, ctx.settings)  # the key its limits count under
    with security_refusals_as_service_errors():
        username = policy.check_username(username)
    retention = signup_retention(ctx.settings)
    idle = ctx.settings.session_idle_timeout

    def create() -> NewSession:
        _check_address(address, ctx.settings)
        if username_taken(username, retention, None, True):
            raise taken_error("username_taken", username)
        now = utcnow()
        token = new_token()
        user = User.create(
            username=username,
            email=guest_email(new_token()[:24]),
            password_hash=NO_PASSWORD,
            verified=True,
            notify_turn=False,
            notify_action=False,
            notify_game=False,
            notify_digest=False,
            guest=True,
            created_at=now,
            password_changed_at=now,
        )
        expires_at = now + timedelta(seconds=idle)
        Session.create(
            token_hash=hash_token(token), user=user, last_seen_at=now, expires_at=expires_at
        )
        SignupRequest.create(address=address)
        return NewSession(token, user.username, expires_at)

    try:
        return await ctx.store.transaction(create)
    except IntegrityError:  # a concurrent signup or guest took the name
        raise Conflict("username_taken", f"the username {username!r} is taken") from None


def _drop_new_guest(user_id: int) -> None:
    """Remove a guest created moments ago that never played (its seat was refused)."""
    User.delete().where((User.id == user_id) & (User.guest == True)).execute()  # noqa: E712


async def drop_new_guest(ctx: ServiceContext, user_id: int) -> None:
    await ctx.store.transaction(_drop_new_guest, user_id)


def any_guest(user_ids: Iterable[int]) -> bool:
    """Whether one of these users is a guest (inside a transaction)."""
    ids = list(user_ids)
    if not ids:
        return False
    # Asked by every finishing move (ratings): a statement built once per number of
    # users (`fast`), not by peewee's query builder (about 0.7 ms a query).
    marks = ", ".join("?" for _ in ids)
    return bool(fast.select(User, f't."guest" AND t."id" IN ({marks})', ids, "LIMIT 1"))


def games_with_guests() -> set[int]:
    """The ids of the games a guest (or a removed guest) played in (inside a
    transaction): never rated, also when every game is rated again."""
    return {
        game_id
        for (game_id,) in GamePlayer.select(GamePlayer.game)
        .join(User, on=(GamePlayer.user == User.id))
        .where(User.guest == True)  # noqa: E712
        .tuples()
    }


# --- the purge ----------------------------------------------------------------------------


def idle_guests(
    after_seconds: int, limit: int = PURGE_BATCH, only: int | None = None
) -> list[int]:
    """Guests without play for `after_seconds`: created before, no request of a session
    since, no move since (inside a transaction); `only`: that user, if it is one."""
    cutoff = utcnow() - timedelta(seconds=after_seconds)
    recent_session = Session.select(Session.user).where(Session.last_seen_at > cutoff)
    recent_move = GameAction.select(GameAction.user).where(GameAction.at > cutoff)
    query = (
        User.select(User.id)
        .where(
            (User.guest == True)  # noqa: E712
            & User.email.endswith(GUEST_DOMAIN)  # not removed yet (deleted.invalid)
            & (User.created_at <= cutoff)
            & User.id.not_in(recent_session)
            & User.id.not_in(recent_move)
        )
        .order_by(User.id)
        .limit(limit)
    )
    if only is not None:
        query = query.where(User.id == only)
    return [user.id for user in query]


async def purge_idle_guests(ctx: ServiceContext) -> int:
    """Remove every guest without play for GUEST_PURGE_AFTER; how many went."""
    after = int(ctx.settings.guest_purge_after)
    total = 0
    while True:
        ids = await ctx.store.transaction(idle_guests, after)
        for user_id in ids:

            def write(events: list[Event], user_id: int = user_id) -> int:
                if not idle_guests(after, only=user_id):
                    return 0  # it played in between
                user = User.get_by_id(user_id)
                reason = f"the guest {literal(user.username)} was removed after a time without play"
                anonymise(user, None, reason, NO_PASSWORD, events)
                return 1

            total += await run_system_write(ctx, write)
        if len(ids) < PURGE_BATCH:
            return total


# --- administrators -------------------------------------------------------------------------


async def convert(
    ctx: ServiceContext, current: CurrentUser, username: str, email: str
) -> dict[str, Any]:
    """Turn the guest `username` into a full account with the e-mail address `email`: the
    guest mark goes (its games from now on are rated), its session stays; it has no
    password until it sets one with a forgotten-password code mailed to `email`.

    403 not an administrator, 404 `user_not_found`, 409 `not_a_guest`, 422
    `invalid_email`, 409 `email_taken`; each changes nothing."""
    require_admin(current, "convert guests")
    with security_refusals_as_service_errors():
        email = policy.check_email(email)
    retention = signup_retention(ctx.settings)

    def write() -> tuple[int, dict[str, Any]]:
        user = find_user(username)
        if user is None:
            raise NotFound("user_not_found", f"no user {username!r}")
        if not user.guest:
            raise Conflict("not_a_guest", f"{user.username} is not a guest")
        if email_taken(email, retention, user.id, True):
            raise taken_error("email_taken", email)
        user.email = email
        user.guest = False
        user.notify_turn = user.notify_game = True  # a person's defaults
        user.save()
        record(current, "user.convert", f"user {user.username}", "a guest made a full account")
        return user.id, row_view(user)

    try:
        user_id, view = await ctx.store.transaction(write)
    except IntegrityError:
        raise Conflict("email_taken", f"the e-mail address {email!r} is already used") from None
    ctx.bus.publish(AccountChanged(user_id))  # what its sessions say of it changed
    return view
