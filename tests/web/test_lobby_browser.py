"""Two people in two browsers (chromium, each its own cookies) sign up with the pages,
verify with the code the server mailed to a real SMTP server, create a 5x5 game from the
lobby's form and join it from the lobby: both land on the game's page, the game started.
A refused signup says why and creates nothing; a forgotten password is reset by the
mailed code; the lobby's refusals are shown in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.server import RunningServer, running_server
from tests.support.smtp_inbox import Inbox, smtp_inbox
from tests.web.browser import browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")

PASSWORD = "corridors at dawn"
NEW_PASSWORD = "corridors at dusk"
Page = Any  # playwright.sync_api.Page


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Inbox]]:
    with smtp_inbox() as inbox, running_server(
        tmp_path_factory.mktemp("lobby"), **inbox.settings()
    ) as server:
        yield server, inbox


def _sign_up(page: Page, base: str, name: str, email: str = "") -> None:
    page.goto(f"{base}/signup?next=/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="email"]', email or f"{name}@example.test")
    page.fill('input[name="password"]', PASSWORD)
    page.click('main button[type="submit"]')


def _verify(page: Page, inbox: Inbox, name: str) -> None:
    page.wait_for_url("**/verify?**")
    page.fill('form.code input[name="code"]', inbox.code(f"{name}@example.test"))
    page.fill('form.code input[name="password"]', PASSWORD)
    page.click("form.code button")


def _status(page: Page, game_id: int) -> str:
    """The game's status as the page's user reads it from the API (with the cookie)."""
    return str(page.evaluate(f"cqApi('GET', '/games/{game_id}').then((a) => a.body.status)"))


def test_two_browsers_sign_up_create_and_join_a_game_from_the_lobby(
    mailed: tuple[RunningServer, Inbox],
) -> None:
    server, inbox = mailed
    base = server.base_url
    with browser_page() as browser:
        ann = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        _sign_up(ann, base, "ann")
        _verify(ann, inbox, "ann")
        ann.wait_for_selector("#new-game")  # the lobby, logged in
        assert ann.url == f"{base}/" and "ann" in ann.inner_text("header")

        bea = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        _sign_up(bea, base, "ANN", "other@example.test")  # taken: the reason, nothing made
        assert "the username 'ANN' is taken" in bea.inner_text(".problem")
        assert bea.url == f"{base}/signup"
        _sign_up(bea, base, "bea")
        _verify(bea, inbox, "bea")
        bea.wait_for_selector("#new-game")
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
        ann.fill('#new-game input[name="invitees"]', "")
        ann.click('#new-game button[type="submit"]')
        ann.wait_for_url("**/games/*")
        game_id = int(ann.url.rsplit("/", 1)[1])
        assert _status(ann, game_id) == "waiting"

        bea.reload()  # (the lobby refreshes every 5 s by itself; no need to wait here)
        bea.fill('#join-code input[name="game"]', "999")  # no such game: said in words
        bea.click('#join-code button[type="submit"]')
        bea.wait_for_selector("#join-code .problem:not([hidden])")
        assert "no game 999" in bea.inner_text("#join-code .problem")
        bea.click(f'#lobby button[data-join="{game_id}"]')
        bea.wait_for_url(f"{base}/games/{game_id}")
        assert _status(bea, game_id) == "started"
        assert _status(ann, game_id) == "started"
        ann.goto(f"{base}/")  # ann's lobby: the game among hers, whose turn it is
        mine = ann.inner_text(f'#lobby li:has(a[href="/games/{game_id}"])')
        assert "your turn" in mine or "bea to move" in mine

        ann.fill('#join-code input[name="game"]', f"{base}/games/{game_id}")  # a link
        ann.click('#join-code button[type="submit"]')
        ann.wait_for_url(f"{base}/games/{game_id}")  # already in it: to its page


def test_a_forgotten_password_is_reset_with_the_mailed_code(
    mailed: tuple[RunningServer, Inbox],
) -> None:
    server, inbox = mailed
    base = server.base_url
    with browser_page() as browser:
        page = browser.new_page()
        _sign_up(page, base, "cy")
        _verify(page, inbox, "cy")
        page.wait_for_selector("#new-game")
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
