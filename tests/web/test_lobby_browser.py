"""Two people in two browsers (chromium, each its own cookies) sign up with the pages and
verify with the code the server mailed to a real SMTP server; a refused signup says why
and creates nothing; a phone's lobby fits 390 px; logging out and in again from the
header; the lobby's refusals (an unknown invitee, no such game to join) are shown in
words and make nothing; a forgotten password is reset by the mailed code.

Creating a game from the lobby's form, joining it with the lobby's Join button, the
lobby's "your games" with whose turn it is and joining by a game's link are part of the
whole flow in tests/web/test_play_page.py (the same two people then play it to the end)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.server import RunningServer
from tests.support.smtp_inbox import Inbox
from tests.web.browser import browser_page, chromium_missing
from tests.web.flows import PASSWORD, mailed_server, sign_up, sign_up_and_verify

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")

NEW_PASSWORD = "corridors at dusk"


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Inbox]]:
    with mailed_server(tmp_path_factory.mktemp("lobby")) as running:
        yield running


def test_two_browsers_sign_up_and_the_lobby_refuses_in_words(
    mailed: tuple[RunningServer, Inbox],
) -> None:
    server, inbox = mailed
    base = server.base_url
    with browser_page() as browser:
        ann = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        sign_up_and_verify(ann, base, inbox, "ann")

        bea = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        sign_up(bea, base, "ANN", "other@example.test")  # taken: the reason, nothing made
        assert "the username 'ANN' is taken" in bea.inner_text(".problem")
        assert bea.url == f"{base}/signup"
        sign_up_and_verify(bea, base, inbox, "bea")
        assert inbox.codes_to("other@example.test") == []
        assert bea.evaluate("document.documentElement.scrollWidth") <= 390  # a phone's lobby
        bea.click("header button")  # log out, then in again from the header
        bea.click('header a[href^="/login"]')
        bea.fill('input[name="username"]', "bea")
        bea.fill('input[name="password"]', PASSWORD)
        bea.click('main button[type="submit"]')
        bea.wait_for_selector("#new-game")

        ann.select_option('#new-game select[name="size"]', "5")
        ann.fill('#new-game input[name="invitees"]', "nobody")  # refused: shown, nothing made
        ann.click('#new-game button[type="submit"]')
        ann.wait_for_selector("#new-game .problem:not([hidden])")
        assert "nobody" in ann.inner_text("#new-game .problem")
        assert "Your games" in ann.inner_text("#lobby") and "Game 1" not in ann.inner_text("#lobby")
        assert ann.url == f"{base}/"

        bea.fill('#join-code input[name="game"]', "999")  # no such game: said in words
        bea.click('#join-code button[type="submit"]')
        bea.wait_for_selector("#join-code .problem:not([hidden])")
        assert "no game 999" in bea.inner_text("#join-code .problem")
        assert bea.url == f"{base}/"


def test_a_forgotten_password_is_reset_with_the_mailed_code(
    mailed: tuple[RunningServer, Inbox],
) -> None:
    server, inbox = mailed
    base = server.base_url
    with browser_page() as browser:
        page = browser.new_page()
        sign_up_and_verify(page, base, inbox, "cy")
        page.click("header button")  # log out
        page.goto(f"{base}/login?next=/tv")
        page.click('a[href^="/forgot"]')
        page.fill('input[name="username"]', "cy")
        page.fill('input[name="password"]', NEW_PASSWORD)
        page.click('main button[type="submit"]')
        page.wait_for_url("**/reset?**")
        page.fill('input[name="code"]', inbox.code("cy@example.test", count=2))
        page.fill('input[name="password"]', NEW_PASSWORD)
        page.click('main button[type="submit"]')
        page.wait_for_url(f"{base}/tv")
        assert "cy" in page.inner_text("header")
        page.click("header button")
        page.goto(f"{base}/login")
        page.fill('input[name="username"]', "cy")
        page.fill('input[name="password"]', PASSWORD)  # the old one: refused
        page.click('main button[type="submit"]')
        assert "unknown username or wrong password" in page.inner_text(".problem")
