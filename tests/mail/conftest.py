"""A real aiosmtpd SMTP server on 127.0.0.1, plain, STARTTLS or implicit TLS."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.support.server import free_port  # aiosmtpd refuses port 0
from tests.support.smtp_inbox import SmtpController
from tests.support.tls import self_signed_certificate


@dataclass
class Inbox:
    """What the test SMTP server received."""

    envelopes: list[Envelope] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"


@dataclass
class SmtpServer:
    port: int
    inbox: Inbox
    ca_file: str | None = None


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (made with the openssl command)."""
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


def _server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certificate[0]), str(certificate[1]))
    return context


def _authenticator(inbox: Inbox) -> Any:
    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
            b"mailer",
            b"s3cret",
        )
        if ok:
            inbox.logins.append(auth_data.login.decode())
        return AuthResult(success=ok)

    return authenticate


def _serving(
    certificate: tuple[Path, Path] | None = None, implicit_tls: bool = False
) -> Iterator[SmtpServer]:
    """Run an SMTP server until the generator is closed: plain without a certificate; with
    one, STARTTLS (required, AUTH only after it) or implicit TLS, and AUTH as mailer/s3cret."""
    inbox = Inbox()
    port = free_port()
    options: dict[str, Any] = {}
    if certificate is not None:
        tls = "ssl_context" if implicit_tls else "tls_context"
        options = {
            tls: _server_context(certificate),
            "require_starttls": not implicit_tls,
            "authenticator": _authenticator(inbox),
            # aiosmtpd does not see implicit TLS as TLS for AUTH; the socket is TLS anyway.
            "auth_require_tls": not implicit_tls,
        }
    controller = SmtpController(inbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield SmtpServer(port, inbox, str(certificate[0]) if certificate else None)
    finally:
        controller.stop()


@pytest.fixture
def smtp_plain() -> Iterator[SmtpServer]:
    yield from _serving()


@pytest.fixture
def smtp_starttls(certificate: tuple[Path, Path]) -> Iterator[SmtpServer]:
    yield from _serving(certificate)


@pytest.fixture
def smtp_tls(certificate: tuple[Path, Path]) -> Iterator[SmtpServer]:
    yield from _serving(certificate, implicit_tls=True)
