"""Outgoing e-mail: message building and delivery backends (the transport).

``EMAIL_BACKEND`` picks the backend: ``console`` (log each mail; the default), ``file``
(one ``.eml`` file per mail in ``MAIL_DIR``) or ``smtp`` (aiosmtplib). Nothing sends mail
from a request: mail is queued in the durable outbox (store/outbox.py) and delivered by
the notify worker (corridorquest/notify/worker.py), which retries with back-off.
"""

from corridorquest.mail.backends import (
    ConsoleBackend,
    FileBackend,
    MailBackend,
    MailConfig,
    SmtpBackend,
    make_backend,
)
from corridorquest.mail.message import build_message

__all__ = [
    "ConsoleBackend",
    "FileBackend",
    "MailBackend",
    "MailConfig",
    "SmtpBackend",
    "build_message",
    "make_backend",
]
