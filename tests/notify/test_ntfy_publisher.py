"""The ntfy publisher (corridorquest/notify/ntfy.py) against the recorder over real HTTP:
what a ntfy server reads of the headers it sends."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from corridorquest.notify.ntfy import NtfyPublisher, PublishRefused, PublishTimeout
from corridorquest.settings import Settings
from tests.support.ntfy_recorder import NtfyRecorder

pytestmark = pytest.mark.backend_neutral  # no database: the publisher against a recorder


def publish(url: str, user: str | None, token: str | None, **message: object) -> None:
    async def run() -> None:
        publisher = NtfyPublisher(url, user, token, 5.0)
        try:
            await publisher.publish(
                {"topic": "game_4", "title": "Game 4", "body": "text", "tags": ["turn"],
                 "priority": "urgent", **message}
            )
        finally:
            await publisher.close()

    asyncio.run(run())


def test_a_long_title_that_is_not_ascii_arrives_whole(ntfy: NtfyRecorder) -> None:
    title = "Partie 12 : message des administrateurs à propos de la maintenance – à lire"
    publish(ntfy.url, None, "tok", title=title, body="Prévenez vos adversaires.")
    (received,) = ntfy.published
    assert received.title == title
    assert received.body == "Prévenez vos adversaires."
    assert received.authorization == "Bearer tok"
    assert (received.topic, received.tags, received.priority) == ("game_4", ("turn",), "urgent")


def test_a_user_and_token_is_basic_auth_and_no_token_no_auth(ntfy: NtfyRecorder) -> None:
    publish(ntfy.url, "cq", "tok")
    publish(ntfy.url, None, None)
    assert [p.authorization for p in ntfy.published] == [
        "Basic " + base64.b64encode(b"cq:tok").decode(), None
    ]


def test_a_4xx_is_a_refusal_and_a_5xx_an_error_to_retry(ntfy: NtfyRecorder) -> None:
    ntfy.fail_next(1, 403)
    with pytest.raises(PublishRefused):
        publish(ntfy.url, None, "tok")
    for status in (500, 429, 408):
        ntfy.fail_next(1, status)
        with pytest.raises(Exception) as raised:
            publish(ntfy.url, None, "tok")
        assert not isinstance(raised.value, PublishRefused)


def test_ntfy_timeout_bounds_a_publish_to_a_server_that_does_not_answer(
    ntfy: NtfyRecorder, tmp_path: Path
) -> None:
    settings = Settings(data_dir=str(tmp_path), ntfy_url=ntfy.url, ntfy_timeout=1)

    async def run() -> None:
        publisher = NtfyPublisher.from_settings(settings)
        assert publisher is not None
        try:
            await publisher.publish({"topic": "game_4", "title": "Game 4", "body": "text",
                                     "tags": ["turn"], "priority": "urgent"})
        finally:
            await publisher.close()

    ntfy.pause()  # the server holds every request (up to 30 s)
    try:
        with pytest.raises(PublishTimeout):  # a failure to retry, not a refusal
            asyncio.run(run())
    finally:
        ntfy.resume()
    assert ntfy.published == []
