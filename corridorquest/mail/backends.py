"""Mail delivery backends: console, file and SMTP.

Each backend has one coroutine, ``deliver(message)``, that either delivers the message or
raises; retrying is the outbox's job.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

import aiosmtplib

from corridorquest.settings import Settings

log = logging.getLogger("corridorquest.mail")

BACKENDS = ("console", "file", "smtp")
SMTP_SECURITY = ("starttls", "tls", "none")


@dataclass(frozen=True)
class MailConfig:
    """Everything the mail backends need (built from the server settings)."""

    backend: str = "console"
    sender: str = "corridorquest@localhost"
    mail_dir: Path = Path("mail")
    smtp_host: str = "localhost"
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_security: str = "starttls"
    smtp_timeout: float = 30.0
    smtp_ca_file: str | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> MailConfig:
        """The mail part of the server settings."""
        return cls(
            backend=settings.email_backend,
            sender=settings.mail_from,
            mail_dir=Path(settings.mail_dir or Path(settings.data_dir) / "mail"),
            smtp_host=settings.smtp_host,
            smtp_port=settings.smtp_port,
            smtp_user=settings.smtp_user,
            smtp_password=settings.smtp_password,
            smtp_security=settings.smtp_security,
            smtp_timeout=float(settings.smtp_timeout),
            smtp_ca_file=settings.smtp_ca_file,
        )


class MailBackend(Protocol):
    """Delivers one message or raises."""

    async def deliver(self, message: EmailMessage) -> None: ...


def readable(message: EmailMessage) -> str:
    """The message as a person reads it: decoded headers, then the decoded text of each
    text part (no quoted-printable ``=`` line breaks, no base64, no encoded words)."""
    headers = [
        f"{name}: {value}"
        for name, value in message.items()
        if name.lower() != "content-transfer-encoding"  # the text below is decoded
    ]
    bodies = []
    for part in message.walk():
        if part.is_multipart():
            continue
        if part.get_content_maintype() == "text":
            bodies.append(str(part.get_content()).rstrip("\n"))
        else:
            name = part.get_filename() or "unnamed"
            bodies.append(f"[{part.get_content_type()} attachment {name}]")
    return "\n".join(headers) + "\n\n" + "\n\n".join(bodies)


class ConsoleBackend:
    """Logs each message in full and decoded (the default: no mail server needed)."""

    async def deliver(self, message: EmailMessage) -> None:
        log.info("e-mail (console backend):\n%s", readable(message))


class FileBackend:
    """Writes each message as one ``.eml`` file into a directory.

    File names start with a nanosecond timestamp so they sort by time; each file is written
    to a temporary name and renamed, so a reader never sees half a message.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    async def deliver(self, message: EmailMessage) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = message.as_bytes()
        stamp = f"{time.time_ns():020d}-{os.getpid()}"
        fd, tmp_name = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            final = self.directory / f"{stamp}-{Path(tmp_name).name[5:]}.eml"
            os.replace(tmp_name, final)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise


class SmtpBackend:
    """Sends through an SMTP server with aiosmtplib: STARTTLS, implicit TLS or plain."""

    def __init__(self, config: MailConfig) -> None:
        if config.smtp_security not in SMTP_SECURITY:
            raise ValueError(
                f"SMTP security must be one of {', '.join(SMTP_SECURITY)}, "
                f"not {config.smtp_security!r}"
            )
        self.config = config

    async def deliver(self, message: EmailMessage) -> None:
        config = self.config
        await aiosmtplib.send(
            message,
            hostname=config.smtp_host,
            port=config.smtp_port,
            username=config.smtp_user or None,
            password=config.smtp_password or None,
            use_tls=config.smtp_security == "tls",
            start_tls=True if config.smtp_security == "starttls" else False,
            timeout=config.smtp_timeout,
            cert_bundle=config.smtp_ca_file or None,
        )


    async def deliver_many(self, messages: list[EmailMessage]) -> list[Exception | None]:
        """Several messages over one connection: per message, None or why it failed."""
        config = self.config
        client = aiosmtplib.SMTP(
            hostname=config.smtp_host,
            port=config.smtp_port,
            username=config.smtp_user or None,
            password=config.smtp_password or None,
            use_tls=config.smtp_security == "tls",
            start_tls=True if config.smtp_security == "starttls" else False,
            timeout=config.smtp_timeout,
            cert_bundle=config.smtp_ca_file or None,
        )
        try:
            await client.connect()
        except Exception as error:  # the server is away: every message failed
            return [error for _ in messages]
        results: list[Exception | None] = []
        try:
            for message in messages:
                try:
                    await client.send_message(message)
                    results.append(None)
                except aiosmtplib.SMTPServerDisconnected as error:
                    results += [error] * (len(messages) - len(results))
                    break
                except Exception as error:
                    results.append(error)
        finally:
            with contextlib.suppress(Exception):
                await client.quit()
        return results


async def deliver_all(backend: MailBackend, messages: list[EmailMessage]) -> list[Exception | None]:
    """Deliver `messages` (over one connection where the backend can); per message, None
    or the error that stopped it."""
    many = getattr(backend, "deliver_many", None)
    if many is not None:
        return await many(messages)  # type: ignore[no-any-return]
    results: list[Exception | None] = []
    for message in messages:
        try:
            await backend.deliver(message)
            results.append(None)
        except Exception as error:
            results.append(error)
    return results


def make_backend(config: MailConfig) -> MailBackend:
    """The backend named by ``config.backend``."""
    if config.backend == "console":
        return ConsoleBackend()
    if config.backend == "file":
        return FileBackend(config.mail_dir)
    if config.backend == "smtp":
        return SmtpBackend(config)
    raise ValueError(f"EMAIL_BACKEND must be one of {', '.join(BACKENDS)}, not {config.backend!r}")
