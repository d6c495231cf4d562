"""Building the e-mail messages the server sends."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid


def build_message(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    """A plain-text UTF-8 message with Date and Message-ID headers."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(datetime.now(UTC))
    domain = sender.rpartition("@")[2] or "corridorquest.local"
    message["Message-ID"] = make_msgid(domain=domain)
    message.set_content(body)
    return message
