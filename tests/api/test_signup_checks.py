"""Signup and purge at the service level, on a real SQLite file with real argon2: a taken
username or address is refused before any password is hashed; maintenance removes
expired signups only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from corridorquest.services import verification
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, RateLimited
from corridorquest.services.signups import signup
from corridorquest.settings import Settings
from corridorquest.store import Store
from corridorquest.store.models import PasswordRequest, User, Verification, utcnow

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says

PASSWORD = "correct horse battery"


class CountingContext(ServiceContext):
    """The real context, remembering the work it ran off the event loop (password work
    and any other blocking work)."""

    ran: list[str]

    async def run_blocking(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self.ran.append(fn.__name__)
        return await super().run_blocking(fn, *args, **kwargs)

    async def password_work(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self.ran.append(fn.__name__)
        return await super().password_work(fn, *args, **kwargs)


def test_a_taken_username_or_address_is_refused_before_the_password_is_hashed(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=str(tmp_path), email_backend="file")

    async def scenario() -> list[tuple[str, list[str]]]:
        opened = ServiceContext.open(settings)
        ctx = CountingContext(opened.settings, opened.store, opened.bus)
        ctx.ran = []
        seen: list[tuple[str, list[str]]] = []
        try:
            await signup(ctx, "alice", "alice@example.test", PASSWORD)
            seen.append(("free", list(ctx.ran)))
            for name, email in (
                ("ALICE", "other@example.test"),
                ("bob", "Alice@Example.test"),
                ("alice", "alice@example.test"),  # the same signup again, at once
            ):
                ctx.ran.clear()
                try:
                    await signup(ctx, name, email, PASSWORD)
                except (Conflict, RateLimited) as refused:
                    seen.append((refused.reason, list(ctx.ran)))
        finally:
            await ctx.close()
        return seen

    assert asyncio.run(scenario()) == [
        ("free", ["hash_password_sync"]),
        ("username_taken", []),
        ("email_taken", []),
        ("rate_limited", []),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")
    try:
        yield opened
    finally:
        opened.close()


def test_purge_removes_expired_signups_codes_and_old_password_requests_only(
    store: Store,
) -> None:
    now = utcnow()
    day = timedelta(days=1)

    def user(name: str, verified: bool, age: timedelta) -> User:
        return User.create(
            username=name,
            email=f"{name}@example.test",
            password_hash="x",
            verified=verified,
            created_at=now - age,
        )

    def code(owner: User, purpose: str, expires_in: timedelta, attempts: int = 0) -> None:
        Verification.create(
            token_hash=owner.username + purpose,
            user=owner,
            purpose=purpose,
            code_hash="c",
            attempts=attempts,
            expires_at=now + expires_in,
        )

    def setup() -> None:
        old = user("old", False, 2 * day)  # an expired signup: goes, with its code
        code(old, "signup", -day)
        void = user("void", False, timedelta(minutes=5))  # void, but within the retention
        code(void, "signup", timedelta(minutes=55), attempts=3)
        late = user("late", False, timedelta(hours=2))  # code expired, name still held
        code(late, "signup", -timedelta(hours=1))
        member = user("member", True, 30 * day)
        code(member, "email", -timedelta(seconds=1))
        code(member, "password", timedelta(minutes=30))
        PasswordRequest.create(user=member, address="1.2.3.4", at=now - 2 * timedelta(hours=1))
        PasswordRequest.create(user=member, address="1.2.3.4", at=now - timedelta(minutes=5))

    store.run(setup)
    # 3 expired codes + the account "old" + 1 old password request
    assert store.run(verification.purge_expired, 86400, 3600) == 5
    assert store.run(lambda: sorted(u.username for u in User.select())) == [
        "late",
        "member",
        "void",
    ]
    assert store.run(lambda: sorted(v.token_hash for v in Verification.select())) == [
        "memberpassword",
        "voidsignup",
    ]
    assert store.run(lambda: PasswordRequest.select().count()) == 1
