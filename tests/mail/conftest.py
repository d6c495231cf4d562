"""A real aiosmtpd SMTP server on 127.0.0.1, plain, STARTTLS or implicit TLS."""

from __future__ import annotations

import socket
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session


def free_port() -> int:
    """A TCP port that is free right now (aiosmtpd refuses port 0)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
    directory = tmp_path_factory.mktemp("tls")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


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


def _run(controller: Controller) -> Iterator[None]:
    controller.start()
    try:
        yield
    finally:
        controller.stop()


@pytest.fixture
def smtp_plain() -> Iterator[SmtpServer]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    for _ in _run(controller):
        yield SmtpServer(port, inbox)


@pytest.fixture
def smtp_starttls(certificate: tuple[Path, Path]) -> Iterator[SmtpServer]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        tls_context=_server_context(certificate),
        require_starttls=True,
        authenticator=_authenticator(inbox),
        auth_require_tls=True,
    )
    for _ in _run(controller):
        yield SmtpServer(port, inbox, str(certificate[0]))


@pytest.fixture
def smtp_tls(certificate: tuple[Path, Path]) -> Iterator[SmtpServer]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        ssl_context=_server_context(certificate),
        # aiosmtpd does not see implicit TLS as TLS for AUTH; the socket is TLS anyway.
        authenticator=_authenticator(inbox),
        auth_require_tls=False,
    )
    for _ in _run(controller):
        yield SmtpServer(port, inbox, str(certificate[0]))
