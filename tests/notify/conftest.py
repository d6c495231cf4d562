"""Fixtures for the end-to-end notification tests (SPEC §9, §10).

Each test gets its own real server (tests/support/server.py) with a fresh database, its
mail going over SMTP (security none) to a real aiosmtpd server on 127.0.0.1 (`smtp`), and
its ntfy messages to a recorder (`ntfy`, tests/support/ntfy_recorder.py) with
NTFY_TOKEN set; OUTBOX_RETRY_DELAY is 1 s. `serve(**settings)` starts it (settings
override those); `drained(server)` waits until the durable outbox has nothing pending,
after which what the mail server and the recorder got is everything there is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from corridorquest.store import Store, outbox
from corridorquest.store.models import OutboxItem
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.server import RunningServer, free_port, running_server
from tests.support.smtp_inbox import SmtpController
from tests.support.users import auth, insert_user

TOKEN = "tk_notify_test_token"
BOUND = 20.0  # seconds any wait for a background delivery may take at most


# --- the mail server ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


class Mailbox:
    """What the test SMTP server accepted, one `Mail` per recipient, oldest first (it
    runs on aiosmtpd's own thread: the counters are only read by the test)."""

    def __init__(self) -> None:
        self.mails: list[Mail] = []
        self.refused = 0  # messages answered 451 so far
        self.port = 0
        self._failures = 0

    def fail_next(self, count: int) -> None:
        """Answer the next `count` messages 451 (a temporary failure: to be retried)."""
        self._failures += count

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        if self._failures:
            self._failures -= 1
            self.refused += 1
            return "451 4.3.0 Try again later"
        content = envelope.original_content or envelope.content
        raw = content if isinstance(content, bytes) else str(content).encode()
        message = message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        part = message.get_body(preferencelist=("plain",))
        body = str(part.get_content()).replace("\r\n", "\n") if part is not None else ""
        for rcpt in envelope.rcpt_tos:
            self.mails.append(Mail(rcpt, str(message.get("Subject", "")), body))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Mail]:
        return [m for m in list(self.mails) if m.to.lower() == address.lower()]

    def wait_for(
        self, predicate: Callable[[list[Mail]], Any], timeout: float = BOUND
    ) -> list[Mail]:
        deadline = time.monotonic() + timeout
        while True:
            mails = list(self.mails)
            if predicate(mails):
                return mails
            if time.monotonic() > deadline:
                got = "\n".join(f"  {m.to}: {m.subject}" for m in mails)
                raise AssertionError(f"mail: not received within {timeout} s; got:\n{got}")
            time.sleep(0.05)


@pytest.fixture
def smtp() -> Iterator[Mailbox]:
    box = Mailbox()
    box.port = free_port()  # aiosmtpd refuses port 0
    controller = SmtpController(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture
def ntfy() -> Iterator[NtfyRecorder]:
    with NtfyRecorder() as recorder:
        yield recorder


# --- the server ---------------------------------------------------------------------------------


def notify_settings(smtp_port: int, ntfy_url: str, **settings: Any) -> dict[str, Any]:
    """The settings of a server that mails over SMTP to `smtp_port` and publishes to
    `ntfy_url` with a token; `settings` override them."""
    return {
        "EMAIL_BACKEND": "smtp",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": smtp_port,
        "SMTP_SECURITY": "none",
        "SMTP_TIMEOUT": "5s",
        "NTFY_URL": ntfy_url,
        "NTFY_TOKEN": TOKEN,
        "OUTBOX_RETRY_DELAY": "1s",
        **settings,
    }


Serve = Callable[..., RunningServer]


@pytest.fixture
def serve(tmp_path: Path, smtp: Mailbox, ntfy: NtfyRecorder) -> Iterator[Serve]:
    """`serve(**settings)`: the real server talking to `smtp` and `ntfy` (stopped after)."""
    with ExitStack() as stack:
        started = iter(range(100))

        def start(**settings: Any) -> RunningServer:
            where = tmp_path / f"server{next(started)}"
            return stack.enter_context(
                running_server(where, **notify_settings(smtp.port, ntfy.url, **settings))
            )

        yield start


@dataclass
class Api:
    """The running server and an httpx client on its /api/v1."""

    server: RunningServer
    http: httpx.Client

    def users(self, *names: str, admin: bool = False) -> dict[str, str]:
        """Verified users (e-mail <name>@example.test) straight into the store: tokens."""
        return {name: insert_user(self.server.database_url, name, is_admin=admin) for name in names}

    def patch_me(self, token: str, **changes: Any) -> dict[str, Any]:
        answer = self.http.patch("/users/me", json=changes, headers=auth(token))
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def drained(self, timeout: float = BOUND) -> None:
        drained(self.server, timeout)


@pytest.fixture
def api(serve: Serve) -> Iterator[Api]:
    """A server with the default notification settings, and a client."""
    server = serve()
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield Api(server, http)


def pending(database_url: str) -> dict[str, int]:
    """The outbox rows not done yet, by kind (read straight from the database)."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return store.run(outbox.pending)
    finally:
        store.close()


def _held_or_unworked() -> int:
    moment = outbox.now()
    return int(
        OutboxItem.select()
        .where(
            OutboxItem.done_at.is_null()
            & ((OutboxItem.kind == outbox.EVENT) | (OutboxItem.claimed_until > moment))
        )
        .count()
    )


def settled(database_url: str, timeout: float = BOUND) -> None:
    """Wait until no outbox row is claimed by a delivery in flight and every event is
    worked out: a kill -9 now leaves no claim that a restart on PostgreSQL (where other
    processes may be delivering) must wait out for its lease."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        deadline = time.monotonic() + timeout
        while store.run(_held_or_unworked):
            if time.monotonic() > deadline:
                raise AssertionError(f"the outbox is still claimed or unworked after {timeout} s")
            time.sleep(0.02)
    finally:
        store.close()


def drained(server: RunningServer | str, timeout: float = BOUND) -> None:
    """Wait until every event is worked out and every message delivered or given up, in
    the database of `server` (or that database URL)."""
    database_url = server if isinstance(server, str) else server.database_url
    deadline = time.monotonic() + timeout
    while True:
        left = pending(database_url)
        if not left:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the outbox still holds {left} after {timeout} s")
        time.sleep(0.05)
