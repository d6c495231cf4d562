"""Outgoing e-mail: message building, delivery backends, and a non-blocking outbox.

``EMAIL_BACKEND`` picks the backend: ``console`` (log each mail; the default), ``file``
(one ``.eml`` file per mail in ``MAIL_DIR``) or ``smtp`` (aiosmtplib). Callers use
:class:`Outbox`: ``outbox.send(...)`` returns at once; delivery runs in the background,
retried with back-off, and a final failure is logged, never raised to the caller.
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
from corridorquest.mail.outbox import Outbox

__all__ = [
    "ConsoleBackend",
    "FileBackend",
    "MailBackend",
    "MailConfig",
    "Outbox",
    "SmtpBackend",
    "build_message",
    "make_backend",
]
