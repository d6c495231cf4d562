"""A slow or hung ntfy server (tests/notify/slow_ntfy.py) holds nothing else up: mail
(a signup code) still goes out at once, another topic's message arrives at once, and the
slow publish ends within NTFY_TIMEOUT in all, to be retried: nothing is lost."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from corridorquest.notify.ntfy import NtfyPublisher, PublishTimeout
from tests.notify.conftest import Mailbox, drained, notify_settings
from tests.notify.slow_ntfy import SlowNtfy
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

DEADLINE = 4  # NTFY_TIMEOUT, seconds
PROMPT = 2.0  # seconds within which what does not wait for the slow topic arrives
SLACK = 1.5  # seconds the end of a timed-out publish may take to be seen


def test_a_publish_to_a_server_that_trickles_ends_at_the_deadline() -> None:
    """A byte every 0.3 s never trips a read timeout of 1 s; the total deadline ends it."""

    async def run() -> float:
        publisher = NtfyPublisher(ntfy.url, None, "tok", 1.0)
        began = time.monotonic()
        try:
            with pytest.raises(PublishTimeout, match="within 1 s"):
                await publisher.publish({"topic": "slow", "title": "t", "body": "b",
                                         "tags": ["turn"], "priority": "urgent"})
            return time.monotonic() - began
        finally:
            await publisher.close()

    with SlowNtfy(trickle={"slow"}, every=0.3) as ntfy:
        took = asyncio.run(run())
        ntfy.wait_for(lambda stub: stub.slow and stub.slow[0].ended is not None, 5)
    assert took < 1.0 + SLACK


@contextmanager
def server_with(tmp_path: Path, smtp: Mailbox, ntfy: SlowNtfy) -> Iterator[RunningServer]:
    settings = notify_settings(smtp.port, ntfy.url, NTFY_TIMEOUT=f"{DEADLINE}s")
    with running_server(tmp_path / "server", **settings) as server:
        yield server


@pytest.mark.parametrize("how", ["trickle", "silent"])
def test_a_hung_ntfy_topic_holds_up_neither_mail_nor_other_topics(
    tmp_path: Path, smtp: Mailbox, how: str
) -> None:
    with SlowNtfy(**{how: {"ria"}}) as ntfy:
        with server_with(tmp_path, smtp, ntfy) as server:
            tokens = {name: insert_user(server.database_url, name) for name in ("ria", "sol")}
            with httpx.Client(base_url=server.api, timeout=10.0) as http:
                renamed = http.patch("/users/me", json={"username": "rita"},
                                     headers=auth(tokens["ria"]))
                assert renamed.status_code == 200, renamed.text
                ntfy.wait_for(lambda stub: stub.slow)  # the worker is publishing to "ria"

                signed_up = time.monotonic()
                answer = http.post("/users", json={"username": "ivy",
                                                   "email": "ivy@example.test",
                                                   "password": "correct horse battery"})
                assert answer.status_code == 201, answer.text
                (mail,) = smtp.wait_for(lambda mails: len(mails) == 1, timeout=PROMPT * 4)
                mail_took = time.monotonic() - signed_up
                assert "verification code" in mail.subject

                renamed_at = time.monotonic()
                renamed = http.patch("/users/me", json={"username": "solo"},
                                     headers=auth(tokens["sol"]))
                assert renamed.status_code == 200, renamed.text
                ntfy.wait_for(lambda stub: [p for p in stub.published if p.topic == "sol"])
                other = next(p for p in ntfy.published if p.topic == "sol")
                other_took = other.at - renamed_at

                ntfy.wait_for(lambda stub: stub.slow[0].ended is not None, DEADLINE + 10)
                slow = ntfy.slow[0]
                assert slow.ended is not None
                held = slow.ended - slow.began

                ntfy.heal()  # the retry goes through: nothing was lost
                drained(server)
            log = server.log_text()

    assert mail_took < PROMPT, f"the signup mail took {mail_took:.1f} s"
    assert other_took < PROMPT, f"another topic's message took {other_took:.1f} s"
    assert held < DEADLINE + SLACK, f"the slow publish was held {held:.1f} s"
    assert f"ntfy to ria failed (attempt 1 of 12, again in 1 s): ntfy did not answer " \
        f"within {DEADLINE} s (NTFY_TIMEOUT)" in log
    assert [p.title for p in ntfy.published if p.topic == "ria"] == ["ria is now rita"]
    assert "HTTP Request:" not in log  # no httpx INFO line per publish
