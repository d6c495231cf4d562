"""Users for end-to-end tests: through the API (`make_user`) or straight into the store.

`make_user` is the real flow (signup, the e-mailed code, verify, login). `insert_user`
writes a verified user and a session directly into the server's database and returns a
working token: for tests of other domains that need many users quickly; `insert_users`
writes verified users with DEFAULT_PASSWORD and no session (for tests of logins).
"""

from __future__ import annotations

import functools
import re
import time
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import httpx

from corridorquest.security.passwords import (
    PRODUCTION_DEFAULTS,
    TEST_PARAMETERS,
    hash_password_with,
)
from corridorquest.security.tokens import hash_token, new_token
from corridorquest.store import Store
from corridorquest.store.models import Session, User, utcnow

DEFAULT_PASSWORD = "correct horse battery"
CODE = re.compile(r"\b(\d{6})\b")


# The subjects of the mails that carry a verification code (the other mails a user may get
# are notifications: "Corridor Quest: your turn in game 4", ...).
CODE_SUBJECTS = ("verification code", "Confirm your new")


def mails_to(
    mail_dir: Path, address: str, subject: str | tuple[str, ...] | None = None
) -> list[EmailMessage]:
    """Every mail in MAIL_DIR addressed to `address` (whose subject contains `subject`, or
    one of them), oldest first."""
    wanted = (subject,) if isinstance(subject, str) else subject
    found: list[EmailMessage] = []
    if not mail_dir.exists():
        return found
    for path in sorted(mail_dir.glob("*.eml")):
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(message, EmailMessage)
        if address.lower() not in str(message.get("To", "")).lower():
            continue
        if wanted is None or any(part in str(message.get("Subject", "")) for part in wanted):
            found.append(message)
    return found


def mail_text(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    return str(body.get_content()) if body is not None else ""


def wait_for_mail(
    mail_dir: Path,
    address: str,
    count: int = 1,
    timeout: float = 10.0,
    subject: str | tuple[str, ...] | None = None,
) -> EmailMessage:
    """The `count`-th mail to `address` (with `subject` in its subject); waits: delivery
    runs in the background."""
    deadline = time.monotonic() + timeout
    while True:
        found = mails_to(mail_dir, address, subject)
        if len(found) >= count:
            return found[count - 1]
        if time.monotonic() > deadline:
            raise AssertionError(f"no mail #{count} to {address} within {timeout} s")
        time.sleep(0.05)


def latest_code(mail_dir: Path, address: str, count: int = 1, timeout: float = 10.0) -> str:
    """The verification code in the `count`-th code mail to `address`."""
    text = mail_text(wait_for_mail(mail_dir, address, count, timeout, CODE_SUBJECTS))
    match = CODE.search(text)
    assert match, f"no 6-digit code in the mail to {address}: {text!r}"
    return match.group(1)


def make_user(
    base_url: str,
    mail_dir: Path,
    username: str,
    email: str | None = None,
    password: str = DEFAULT_PASSWORD,
) -> str:
    """Sign up, verify with the e-mailed code, log in; returns the session token."""
    email = email or f"{username}@example.test"
    api = base_url.rstrip("/") + "/api/v1"
    before = len(mails_to(mail_dir, email, CODE_SUBJECTS))
    signup = httpx.post(
        f"{api}/users", json={"username": username, "email": email, "password": password}
    )
    assert signup.status_code == 201, signup.text
    code = latest_code(mail_dir, email, count=before + 1)
    verify = httpx.post(
        f"{api}/verifications",
        json={"verification_token": signup.json()["verification_token"], "code": code},
    )
    assert verify.status_code == 200, verify.text
    login = httpx.post(f"{api}/sessions", json={"username": username, "password": password})
    assert login.status_code == 201, login.text
    return str(login.json()["token"])


def insert_user(database_url: str, username: str, *, is_admin: bool = False) -> str:
    """A verified user with an open session, written straight into the database."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        token = new_token()

        def create() -> None:
            user = User.create(
                username=username,
                email=f"{username}@example.test",
                password_hash="!not-a-password-hash",
                verified=True,
                is_admin=is_admin,
            )
            now = utcnow()
            Session.create(
                token_hash=hash_token(token),
                user=user,
                created_at=now,
                last_seen_at=now,
                expires_at=now + timedelta(days=1),
            )

        store.run(create)
        return token
    finally:
        store.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@functools.cache
def default_password_hash() -> str:
    """A real argon2id hash of DEFAULT_PASSWORD with the tests' parameters (argon2's least:
    the test servers hash with them too, tests/support/server.py), made once per test
    process and reused for every inserted user. The server still verifies it with real
    argon2 when such a user logs in."""
    return hash_password_with(TEST_PARAMETERS, DEFAULT_PASSWORD)


@functools.cache
def real_password_hash() -> str:
    """A hash of DEFAULT_PASSWORD with the production parameters (about 0.1 s of CPU to
    check): for the tests whose subject is the hashing's cost, on a server started with
    REAL_PASSWORD_HASHING (tests/support/server.py)."""
    return hash_password_with(PRODUCTION_DEFAULTS, DEFAULT_PASSWORD)


def insert_users(database_url: str, names: list[str], password_hash: str | None = None) -> None:
    """Verified users with DEFAULT_PASSWORD and no session, written into the database
    (one argon2 hash for all, default_password_hash unless given: signing up 25 users
    would take the test's time)."""
    password_hash = password_hash or default_password_hash()
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        store.run(lambda: [
            User.create(username=name, email=f"{name}@example.test",
                        password_hash=password_hash, verified=True)
            for name in names
        ])
    finally:
        store.close()
