"""Delivery (SPEC §9): a failed e-mail or ntfy message is retried with back-off until it
is delivered, once; a refusal a retry cannot mend, or OUTBOX_ATTEMPTS failures, gives it
up with an ERROR log line; what was acknowledged before a kill -9 is delivered after the
restart, exactly once when nothing of it had been delivered."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.notify.conftest import (
    BOUND,
    Api,
    Mailbox,
    Serve,
    drained,
    notify_settings,
    settled,
)
from tests.notify.helpers import by_topic, four_player_game, got, mails_by_recipient, start_game
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import insert_user


def wait_for_log(log_path: Path, text: str, timeout: float = BOUND) -> str:
    deadline = time.monotonic() + timeout
    while True:
        log = log_path.read_text(errors="replace")
        if text in log:
            return log
        assert time.monotonic() < deadline, f"no {text!r} in the server log:\n{log[-3000:]}"
        time.sleep(0.05)


def test_a_publish_that_fails_is_retried_and_delivered_once(
    api: Api, ntfy: NtfyRecorder
) -> None:
    token = api.users("ria")["ria"]
    ntfy.fail_next(1, 500)
    ntfy.fail_next(1, 429)  # too many requests: retried too
    api.patch_me(token, username="rita")
    api.drained()
    assert [(p.topic, p.status) for p in ntfy.requests] == [("ria", 500), ("ria", 429),
                                                           ("ria", 200)]
    assert [p.title for p in ntfy.published] == ["ria is now rita"]
    log = api.server.log_text()
    assert "ntfy to ria failed (attempt 1 of 12, again in 1 s)" in log
    assert "ntfy to ria failed (attempt 2 of 12, again in 2 s)" in log
    assert "HTTP Request:" not in log  # httpx's INFO line per publish is not logged


def test_a_publish_refused_or_failing_too_often_is_given_up_with_an_error_line(
    serve: Serve, ntfy: NtfyRecorder
) -> None:
    server = serve(OUTBOX_ATTEMPTS=2)
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        token = api.users("sam")["sam"]
        ntfy.fail_next(1, 400)  # a refusal: not tried again
        api.patch_me(token, username="sami")
        api.drained()
        assert [(p.topic, p.status) for p in ntfy.requests] == [("sam", 400)]
        log = server.log_text()
        assert (
            "ERROR corridorquest.notify: ntfy to sam given up after 1 attempt: ntfy answered 400"
            in log
        )

        ntfy.answer_always(503)  # fails every time: given up after OUTBOX_ATTEMPTS
        api.patch_me(token, username="samu")
        api.drained()
        assert [(p.topic, p.status) for p in ntfy.requests[1:]] == [("sami", 503), ("sami", 503)]
        assert "ERROR corridorquest.notify: ntfy to sami given up after 2 attempts" in (
            server.log_text()
        )

        ntfy.answer_always(None)  # later messages go through
        api.patch_me(token, username="sammy")
        api.drained()
    assert [p.topic for p in ntfy.published] == ["samu"]


def test_a_mail_the_smtp_server_puts_off_is_delivered_once(api: Api, smtp: Mailbox) -> None:
    tokens = api.users("tea", "uma")
    smtp.fail_next(2)  # both "game started" mails, the first time
    game = start_game(api.http, tokens, size=5)
    api.drained()
    assert smtp.refused == 2
    subject = f"Corridor Quest: game {game['id']} started"
    assert mails_by_recipient(smtp.mails) == {
        "tea@example.test": [subject], "uma@example.test": [subject]
    }
    assert "mail to tea@example.test failed (attempt 1 of 12" in api.server.log_text()


@pytest.mark.slow
def test_what_was_acknowledged_before_a_kill_is_delivered_once_after_the_restart(
    tmp_path: Path, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    """The first run can reach neither the mail server nor ntfy (closed ports); it is
    killed (-9) once deliveries have failed; the second run delivers everything, once."""
    with fresh_database(tmp_path) as database_url:

        def start(
            name: str, smtp_port: int, ntfy_url: str
        ) -> tuple[str, Path, subprocess.Popen[bytes]]:
            where = tmp_path / name
            where.mkdir()
            port = free_port()
            env = server_env(where, database_url, port, **notify_settings(smtp_port, ntfy_url))
            process, log_path = start_process(where, env)
            base_url = f"http://127.0.0.1:{port}"
            try:
                wait_until_up(base_url, process, log_path)
            except BaseException:
                stop(process)
                raise
            return base_url + "/api/v1", log_path, process

        closed = free_port()  # nothing listens there
        api_url, log_path, first = start("first", closed, f"http://127.0.0.1:{closed}")
        try:
            tokens = {name: insert_user(database_url, name) for name in ("vi", "wes", "xan", "yu")}
            with httpx.Client(base_url=api_url, timeout=10.0) as http:
                scripted = four_player_game(http, tokens)
            wait_for_log(log_path, "ntfy to game_")  # a publish failed ...
            wait_for_log(log_path, "mail to ")  # ... and a mail
            # killed between two tries, not while a try holds its claim: on PostgreSQL a
            # claim of a killed process holds until its lease runs out (store/outbox.py)
            settled(database_url)
        finally:
            first.kill()
            first.wait()
        assert ntfy.requests == [] and smtp.mails == []

        api_url, log_path, second = start("second", smtp.port, ntfy.url)
        try:
            drained(database_url)
        finally:
            stop(second)

    assert by_topic(got(ntfy.published)) == scripted.ntfy
    assert len(ntfy.requests) == 21  # no duplicate
    assert mails_by_recipient(smtp.mails) == scripted.mails


def test_a_topic_whose_message_failed_gets_the_rest_after_it_in_order(
    api: Api, ntfy: NtfyRecorder
) -> None:
    """The first message (whichever topic it is on) fails: that topic's later messages
    wait for its retry and arrive after it, in the order they happened; nothing twice."""
    tokens = api.users("vi", "wes", "xan", "yu")
    ntfy.fail_next(1, 500)
    scripted = four_player_game(api.http, tokens)
    api.drained()
    assert [p.status for p in ntfy.requests].count(500) == 1
    assert by_topic(got(ntfy.published)) == scripted.ntfy
    assert len(ntfy.published) == 21
