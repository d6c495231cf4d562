"""What players type comes out on the pages as text, never as markup: a public message
with `<script>`, `&` and quotes on the game's page, the login form's username and its
`next` address. Checked in the HTML answered and in a real browser (chromium): the text
shown is the text typed, and no script of it runs. (Usernames take letters, digits, _ and
- only, and a cancelled game's reason is the server's own text: nothing there to escape.)"""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.games import started_game
from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import Browser

HOSTILE = """<script>window.pwned = 1</script> Tom & Jerry <b>bold</b> "double" 'single' &amp;"""
ESCAPED = "&lt;script&gt;window.pwned = 1&lt;/script&gt; Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;"


def test_a_message_with_markup_shows_as_its_text_on_the_game_pages(
    server: RunningServer, client: httpx.Client, tokens: Any, browser: Browser
) -> None:
    players = tokens(("esc_amy", "esc_bo"))
    game = started_game(client, players)
    said = client.post(
        f"/games/{game['id']}/messages", json={"text": HOSTILE}, headers=auth(players["esc_amy"])
    )
    assert said.status_code == 201, said.text
    for path in (f"/games/{game['id']}", f"/web/games/{game['id']}/live"):
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code == 200, answer.text[:300]
        assert ESCAPED in answer.text, path
        assert "<script>window" not in answer.text and "<b>bold" not in answer.text, path
        assert "&amp;amp;" in answer.text, path  # the typed "&amp;" stays those five characters

    page = browser.new_page()
    page.goto(f"{server.base_url}/games/{game['id']}")
    page.wait_for_selector("#board svg")
    shown = page.locator(".messages li", has_text="Tom & Jerry")
    assert shown.count() == 1
    assert shown.inner_text() == f"esc_amy {HOSTILE}"
    assert page.locator(".messages b").count() == 0
    assert page.evaluate("typeof window.pwned") == "undefined"
    page.close()


def test_the_login_form_gives_back_the_typed_username_and_next_address_as_text(
    server: RunningServer, browser: Browser
) -> None:
    typed = '"><script>window.pwned = 1</script>&amp;'
    answer = httpx.post(
        server.base_url + "/login",
        data={"username": typed, "password": "wrong", "next": '/tv?x="><b>'},
        timeout=10,
    )
    assert answer.status_code == 401, answer.text[:300]
    assert "<script>window" not in answer.text and '"><b>' not in answer.text
    assert "&gt;&lt;script&gt;window.pwned = 1&lt;/script&gt;&amp;amp;" in answer.text

    page = browser.new_page()
    page.goto(f"{server.base_url}/login?next=/tv%3Fx%3D%22%3E%3Cb%3E")
    assert page.input_value("input[name=next]") == '/tv?x="><b>'
    assert page.locator("main b").count() == 0
    page.fill("input[name=username]", typed)
    page.fill("input[name=password]", "wrong")
    page.click("button[type=submit]")
    page.wait_for_selector(".problem")
    assert page.input_value("input[name=username]") == typed
    assert page.input_value("input[name=next]") == '/tv?x="><b>'
    assert page.evaluate("typeof window.pwned") == "undefined"
    page.close()
