"""Each EMAIL_BACKEND delivers a real message: to aiosmtpd, to .eml files, to the log."""

from __future__ import annotations

import email
import logging
from email import policy
from pathlib import Path
from typing import TYPE_CHECKING

import aiosmtplib
import pytest

from corridorquest.mail import FileBackend, MailConfig, build_message, make_backend
from corridorquest.mail.backends import deliver_all
from corridorquest.settings import Settings
from tests.support.closing import run_to_close

if TYPE_CHECKING:
    from tests.mail.conftest import SmtpServer

SENDER = "Corridor Quest <cq@example.test>"


def _deliver(config: MailConfig, to: str, subject: str, body: str) -> None:
    backend = make_backend(config)
    run_to_close(backend.deliver(build_message(config.sender, to, subject, body)))


def _smtp_config(server: SmtpServer, security: str, *, login: bool = False) -> MailConfig:
    """SMTP to the test server; with `login`, as mailer/s3cret trusting its certificate."""
    return MailConfig(
        backend="smtp",
        sender=SENDER,
        smtp_host="127.0.0.1",
        smtp_port=server.port,
        smtp_security=security,
        smtp_user="mailer" if login else None,
        smtp_password="s3cret" if login else None,
        smtp_ca_file=server.ca_file if login else None,
        smtp_timeout=10,
    )


def test_smtp_without_tls_delivers_to_the_recipient(smtp_plain: SmtpServer) -> None:
    config = _smtp_config(smtp_plain, "none")
    _deliver(config, "alice@example.test", "Your code", "Your code is 123456.")
    [envelope] = smtp_plain.inbox.envelopes
    assert envelope.rcpt_tos == ["alice@example.test"]
    assert envelope.mail_from == "cq@example.test"
    received = email.message_from_bytes(envelope.original_content or b"", policy=policy.default)
    assert received["Subject"] == "Your code"
    assert "Your code is 123456." in received.get_content()  # type: ignore[attr-defined]


def test_smtp_starttls_with_login_delivers(smtp_starttls: SmtpServer) -> None:
    config = _smtp_config(smtp_starttls, "starttls", login=True)
    _deliver(config, "bob@example.test", "Hello", "über-safe text")
    assert smtp_starttls.inbox.logins == ["mailer"]
    [envelope] = smtp_starttls.inbox.envelopes
    assert envelope.rcpt_tos == ["bob@example.test"]


def test_smtp_implicit_tls_with_login_delivers(smtp_tls: SmtpServer) -> None:
    config = _smtp_config(smtp_tls, "tls", login=True)
    _deliver(config, "carol@example.test", "Hi", "body")
    assert [e.rcpt_tos for e in smtp_tls.inbox.envelopes] == [["carol@example.test"]]


def test_smtp_refuses_an_untrusted_certificate(smtp_tls: SmtpServer) -> None:
    config = _smtp_config(smtp_tls, "tls")
    with pytest.raises(aiosmtplib.SMTPException):
        _deliver(config, "carol@example.test", "Hi", "body")
    assert smtp_tls.inbox.envelopes == []


def test_file_backend_writes_one_eml_per_mail_sorted_by_time(tmp_path: Path) -> None:
    config = MailConfig(backend="file", sender=SENDER, mail_dir=tmp_path / "mail")
    for n in range(3):
        _deliver(config, f"user{n}@example.test", f"mail {n}", f"body {n}")
    files = sorted((tmp_path / "mail").iterdir())
    assert [f.suffix for f in files] == [".eml"] * 3
    parsed = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert [m["To"] for m in parsed] == [f"user{n}@example.test" for n in range(3)]
    assert [m["Subject"] for m in parsed] == ["mail 0", "mail 1", "mail 2"]


def test_console_backend_logs_the_whole_mail(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="corridorquest.mail")
    _deliver(MailConfig(sender=SENDER), "dave@example.test", "Code", "Your code is 424242.")
    assert "To: dave@example.test" in caplog.text
    assert "Your code is 424242." in caplog.text


def test_console_backend_logs_the_text_decoded(caplog: pytest.LogCaptureFixture) -> None:
    # A line longer than 76 characters and non-ASCII text are quoted-printable in the mail
    # ("... to confirm yo=" / "ur signup"); the log shows them as the reader will.
    caplog.set_level(logging.INFO, logger="corridorquest.mail")
    line = ("Enter the code 424242 with 'cq verify -c 424242' within 15 minutes to confirm "
            "your signup.")
    body = f"Hello Zoë,\n\n{line}\n\nGrüße, the Corridor Quest server\n"
    _deliver(MailConfig(sender=SENDER), "zoe@example.test", "Bestätigung: your code", body)
    assert line in caplog.text
    assert "Hello Zoë," in caplog.text and "Grüße, the Corridor Quest server" in caplog.text
    assert "Subject: Bestätigung: your code" in caplog.text
    assert "=\n" not in caplog.text and "=C3" not in caplog.text
    assert "quoted-printable" not in caplog.text


def test_unknown_backend_and_smtp_security_are_refused() -> None:
    with pytest.raises(ValueError, match="EMAIL_BACKEND"):
        make_backend(MailConfig(backend="pigeon"))
    with pytest.raises(ValueError, match="SMTP security"):
        make_backend(MailConfig(backend="smtp", smtp_security="maybe"))


def test_config_from_settings_defaults_mail_dir_into_data_dir(tmp_path: Path) -> None:
    settings = Settings.from_env(
        environ={"DATA_DIR": str(tmp_path), "EMAIL_BACKEND": "file", "SMTP_PORT": "2525"}
    )
    config = MailConfig.from_settings(settings)
    assert config.backend == "file" and config.mail_dir == tmp_path / "mail"
    assert config.smtp_port == 2525
    assert isinstance(make_backend(config), FileBackend)


def test_several_messages_go_over_one_smtp_connection_each_to_its_recipient(
    smtp_plain: SmtpServer,
) -> None:
    config = _smtp_config(smtp_plain, "none")
    messages = [
        build_message(SENDER, f"{name}@example.test", f"To {name}", "body")
        for name in ("erin", "fred", "gina")
    ]
    results = run_to_close(deliver_all(make_backend(config), messages))
    assert results == [None, None, None]
    assert [e.rcpt_tos for e in smtp_plain.inbox.envelopes] == [
        ["erin@example.test"], ["fred@example.test"], ["gina@example.test"]
    ]


def test_an_smtp_server_that_is_away_fails_every_message_of_the_batch() -> None:
    from tests.support.server import free_port

    config = MailConfig(backend="smtp", smtp_host="127.0.0.1", smtp_port=free_port(),
                        smtp_security="none", smtp_timeout=5)
    messages = [build_message(SENDER, "x@example.test", "s", "b") for _ in range(2)]
    results = run_to_close(deliver_all(make_backend(config), messages))
    assert len(results) == 2 and all(isinstance(error, Exception) for error in results)
