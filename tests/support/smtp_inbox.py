"""A real SMTP server (aiosmtpd) on 127.0.0.1 that keeps what it is sent, and the
settings of a server that mails to it:

    with smtp_inbox() as inbox, running_server(tmp, **inbox.settings()) as server:
        code = inbox.code("ann@example.test")
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.support.server import free_port  # aiosmtpd refuses port 0
from tests.support.users import CODE, CODE_SUBJECTS


class SmtpController(Controller):
    """aiosmtpd's Controller, stopped without leaving a closing connection behind.

    Its `stop` stops the loop and closes it right after: a session whose client had just
    hung up (the server under test stops first) is then left a transport in "closing"
    whose last callback never ran, and the garbage collector later warns "unclosed
    transport" in whatever test runs then (pytest makes that an error). Here the tasks are
    cancelled first and the loop runs a moment longer, so those callbacks run."""

    def cancel_tasks(self, stop_loop: bool = True) -> None:
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        if stop_loop:
            self.loop.call_later(0.05, self.loop.stop)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


@dataclass
class Inbox:
    """What the server received, one `Mail` per recipient, oldest first."""

    port: int = 0
    mails: list[Mail] = field(default_factory=list)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        content = envelope.original_content or envelope.content
        raw = content if isinstance(content, bytes) else str(content).encode()
        message = message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        part = message.get_body(preferencelist=("plain",))
        body = str(part.get_content()) if part is not None else ""
        for rcpt in envelope.rcpt_tos:
            self.mails.append(Mail(rcpt, str(message.get("Subject", "")), body))
        return "250 Message accepted for delivery"

    def settings(self) -> dict[str, str]:
        """The settings of a server that mails here (plain SMTP, quick retries)."""
        return {
            "EMAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(self.port),
            "SMTP_SECURITY": "none", "SMTP_TIMEOUT": "5s", "OUTBOX_RETRY_DELAY": "1s",
        }

    def codes_to(self, address: str) -> list[str]:
        """The verification codes mailed to `address` so far, oldest first."""
        found = []
        for mail in list(self.mails):
            if mail.to.lower() == address.lower() and any(s in mail.subject for s in CODE_SUBJECTS):
                match = CODE.search(mail.body)
                assert match, f"no code in the mail to {address}: {mail.body!r}"
                found.append(match.group(1))
        return found

    def code(self, address: str, count: int = 1, timeout: float = 15.0) -> str:
        """The `count`-th verification code mailed to `address` (waits for it)."""
        deadline = time.monotonic() + timeout
        while True:
            codes = self.codes_to(address)
            if len(codes) >= count:
                return codes[count - 1]
            if time.monotonic() > deadline:
                raise AssertionError(f"no code #{count} to {address} within {timeout} s")
            time.sleep(0.05)


@contextmanager
def smtp_inbox() -> Iterator[Inbox]:
    inbox = Inbox(port=free_port())
    controller = SmtpController(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
