"""Maintenance purges: expired sessions, old login attempts, expired codes and the
unverified accounts they belonged to (service functions on a real SQLite file)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from corridorquest.services import sessions, verification
from corridorquest.store import Store
from corridorquest.store.models import LoginAttempt, Session, User, Verification, utcnow

pytestmark = pytest.mark.backend_neutral  # SQLite whatever CQ_TEST_DATABASE_URL says


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'cq.db'}")
    try:
        yield opened
    finally:
        opened.close()


def _user(name: str, verified: bool = True) -> User:
    return User.create(
        username=name, email=f"{name}@example.test", password_hash="x", verified=verified
    )


def test_purge_removes_expired_sessions_and_old_attempts_only(store: Store) -> None:
    now = utcnow()

    def setup() -> None:
        alice, bob = _user("alice"), _user("bob")
        Session.create(token_hash="a", user=alice, expires_at=now - timedelta(seconds=1))
        Session.create(token_hash="b", user=bob, expires_at=now + timedelta(hours=1))
        LoginAttempt.create(username="alice", address="1.2.3.4", at=now - timedelta(days=2))
        LoginAttempt.create(username="alice", address="1.2.3.4", at=now - timedelta(hours=1))

    store.run(setup)
    assert store.run(sessions.purge_expired, 900) == 2
    assert store.run(lambda: [s.token_hash for s in Session.select()]) == ["b"]
    assert store.run(lambda: LoginAttempt.select().count()) == 1


def test_purge_removes_expired_codes_and_never_verified_accounts(store: Store) -> None:
    now = utcnow()

    def setup() -> None:
        late, waiting, member = _user("late", False), _user("waiting", False), _user("member")
        late.created_at = now - timedelta(days=2)  # older than the signup retention (a day)
        late.save()
        for user, purpose, expires in (
            (late, "signup", now - timedelta(seconds=1)),
            (waiting, "signup", now + timedelta(hours=1)),
            (member, "email", now - timedelta(seconds=1)),
        ):
            Verification.create(
                token_hash=user.username,
                user=user,
                purpose=purpose,
                code_hash="c",
                expires_at=expires,
            )

    store.run(setup)
    assert store.run(verification.purge_expired) == 3  # 2 codes + the account "late"
    assert store.run(lambda: sorted(u.username for u in User.select())) == ["member", "waiting"]
    assert store.run(lambda: [v.purpose for v in Verification.select()]) == ["signup"]
