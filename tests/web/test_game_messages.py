"""A game's messages on its page (issue 48 item 7): the players' messages (the chat) and
the game's log (moves, offers, ...) are two lists, so that moves never push a player's
message out of sight; each scrolls in its own box with the newest first, in view; a
reader who scrolled down to older messages stays on them when new ones come; the replay's
"messages of the whole game" hold every message of the game the reader may read. The log
shows its newest entries (web/game_data.LOG_SHOWN) and says how many earlier ones it
leaves out: a game's log grows with every action and the panel is sent after each event.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from corridorquest.web.game_data import CHAT_SHOWN, LOG_SHOWN
from tests.api.mode_helpers import Match, act, play_out, start
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user, insert_users
from tests.web.browser import Browser, chromium_missing
from tests.web.test_play_page import logged_in

Tokens = Callable[[tuple[str, ...]], dict[str, str]]


def say(client: httpx.Client, token: str, game_id: int, text: str, to: str | None = None) -> None:
    body = {"text": text, **({"to": to} if to else {})}
    answer = client.post(f"/games/{game_id}/messages", json=body, headers=auth(token))
    assert answer.status_code == 201, answer.text


def wander(client: httpx.Client, match: Match, actions: int) -> None:
    """`actions` pawn moves that win nothing: each player steps sideways and back."""
    for _ in range(actions):
        state = match.mirror
        seat = state.turn
        assert seat is not None
        here = state.pawns[seat]
        sideways = [s for s in state.legal_steps() if not s.jump and s.to.row == here.row]
        act(client, match, "move", str(sideways[0].to))


def texts(page: Any, selector: str) -> list[str]:
    return [re.sub(r"\s+", " ", text).strip() for text in page.locator(selector).all_inner_texts()]


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_a_players_early_message_is_still_on_the_page_after_ten_moves(
    server: RunningServer, client: httpx.Client, tokens: Tokens, browser: Browser
) -> None:
    names = ("chat_ann", "chat_bob", "chat_eve")
    insert_users(server.database_url, list(names))
    contexts, made = {}, {}
    for name in names:
        contexts[name], made[name] = logged_in(browser, server, name)
    match = start(client, {name: made[name] for name in names[:2]}, size=9)
    ann, bob = match.names["south"], match.names["north"]
    tokens_of = {match.names[seat]: token for seat, token in match.by_seat.items()}
    say(client, tokens_of[ann], match.id, "early hello from the start")
    say(client, tokens_of[bob], match.id, "a private word", to=ann)
    pages = {}
    fetching: list[int] = [0]  # chat_eve's page: its panel's fetches under way

    def counted(change: int) -> Callable[[Any], None]:
        def count(request: Any) -> None:
            if "/live" in request.url:
                fetching[0] += change
        return count

    for name in (ann, bob, "chat_eve"):
        pages[name] = contexts[name].new_page()
        if name == "chat_eve":
            pages[name].on("request", counted(1))
            pages[name].on("requestfinished", counted(-1))
            pages[name].on("requestfailed", counted(-1))
        pages[name].goto(f"{server.base_url}/games/{match.id}")

    def settled(page: Any) -> None:
        """Until the page has no panel fetch under way (each event asks for one)."""
        deadline = time.monotonic() + 15
        while fetching[0] > 0:
            assert time.monotonic() < deadline, "the page's panel fetches never ended"
            page.wait_for_timeout(50)
    for number in range(5):  # ten moves, and the other player says a word now and then
        wander(client, match, 2)
        say(client, tokens_of[bob], match.id, f"talk {number}")
    revision = match.game["revision"]
    for name, page in pages.items():
        page.wait_for_selector(f'#board[data-revision="{revision}"]', timeout=10000)
        listed = texts(page, ".messages li")  # (before issue 48: the 15 newest, moves too)
        assert any("early hello from the start" in line for line in listed), (name, listed)
        chat = texts(page, ".messages.chat li")
        private = any("a private word" in line for line in chat)
        assert private == (name in (ann, bob)), (name, chat)  # the DM: its two players only
        log = texts(page, ".messages.log li")
        assert sum(" moved to " in line for line in log) == 10, (name, log)
    # a new message comes first, in view, and the reader of older ones stays on them
    page = pages["chat_eve"]
    for number in range(25):
        say(client, tokens_of[ann], match.id, f"chatter {number}")
    page.wait_for_selector('.messages.chat li:has-text("chatter 24")', timeout=10000)
    settled(page)
    chat_box = page.locator(".messages.chat")
    assert page.locator(".messages.chat li").first.inner_text().endswith("chatter 24")
    page.wait_for_function(  # it scrolls (once the panel last fetched is in place)
        "() => { const list = document.querySelector('.messages.chat');"
        " return list !== null && list.scrollHeight > list.clientHeight; }",
        timeout=10000,
    )
    oldest = page.locator('.messages.chat li:has-text("early hello from the start")')
    oldest.scroll_into_view_if_needed()
    assert chat_box.evaluate("list => list.scrollTop") > 0
    say(client, tokens_of[bob], match.id, "one more")
    page.wait_for_selector('.messages.chat li:has-text("one more")', timeout=10000)
    settled(page)
    shown = chat_box.evaluate(
        """list => { const box = list.getBoundingClientRect();
        return Array.from(list.children).filter((item) => {
          const at = item.getBoundingClientRect();
          return at.bottom > box.top + 1 && at.top < box.bottom - 1;
        }).map((item) => item.textContent); }""")
    assert any("early hello from the start" in line for line in shown), shown
    for context in contexts.values():
        context.close()


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_the_replay_shows_the_messages_of_the_whole_game(
    server: RunningServer, client: httpx.Client, tokens: Tokens, browser: Browser
) -> None:
    names = ("replay_chat_a", "replay_chat_b")
    insert_users(server.database_url, list(names))
    contexts, made = {}, {}
    for name in names:
        contexts[name], made[name] = logged_in(browser, server, name)
    match = start(client, made, size=5)
    first = match.names[match.mirror.turn.value] if match.mirror.turn else names[0]
    say(client, made[first], match.id, "good game to you")
    wander(client, match, 12)
    say(client, made[first], match.id, "a late word")
    play_out(client, match, walls_each=0)
    assert match.game["status"] == "finished"
    context = contexts[names[1]]
    page = context.new_page()
    page.goto(f"{server.base_url}/games/{match.id}?at=2")
    assert "Messages of the whole game" in page.inner_text(".panel")
    chat = texts(page, ".messages.chat li")
    assert [line.split(" ", 1)[1] for line in chat] == ["a late word", "good game to you"], chat
    page.click('#replay button[data-step="next"]')
    page.wait_for_selector('#replay[data-shown="3"]', timeout=5000)
    assert texts(page, ".messages.chat li") == chat
    for context in contexts.values():
        context.close()


def test_the_log_shows_its_newest_entries_and_the_chat_all_of_it(
    server: RunningServer, client: httpx.Client, tokens: Tokens
) -> None:
    """The panel is sent after every event: the log (one entry per move) is bounded, the
    chat (at most MESSAGE_LIMIT per player) is not."""
    names = ("log_long_a", "log_long_b")
    made = tokens(names)
    match = start(client, made, size=9)
    say(client, made[names[0]], match.id, "before every move")
    wander(client, match, LOG_SHOWN + 5)
    panel = httpx.get(f"{server.base_url}/web/games/{match.id}/live",
                      cookies={"cq_session": made[names[1]]}, timeout=10).text
    log = re.search(r'<ul class="messages log"[^>]*>(.*?)</ul>', panel, re.S)
    chat = re.search(r'<ul class="messages chat"[^>]*>(.*?)</ul>', panel, re.S)
    assert log is not None and chat is not None, panel[:500]
    entries = re.findall(r"<li ", log[1])
    assert len(entries) == LOG_SHOWN
    earlier = re.search(r"(\d+) earlier entries of the log not shown", panel)
    # the game's log: its creation, the join, the start and every move (at least)
    assert earlier is not None and int(earlier[1]) >= LOG_SHOWN + 5 + 3 - LOG_SHOWN, panel
    assert "before every move" in chat[1]
    newest = match.game["last_actions"][-1]
    assert f"moved to {newest['notation']}" in entries_text(log[1])[0], log[1][:300]


def entries_text(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", item).strip()
            for item in re.findall(r"<li [^>]*>(.*?)</li>", html, re.S)]


def test_a_chat_past_what_the_panel_holds_says_how_many_it_leaves_out(
    server: RunningServer, client: httpx.Client, tokens: Tokens
) -> None:
    """Only where an administrator raised the per-player limit far above its default can a
    chat outgrow the panel (CHAT_SHOWN): then its newest ones, and how many are left out."""
    made = tokens(("chat_long_a", "chat_long_b"))
    admin = insert_user(server.database_url, "chat_long_root", is_admin=True)
    raised = client.put("/admin/server/message-limit", json={"limit": CHAT_SHOWN + 10},
                        headers=auth(admin))
    assert raised.status_code == 200, raised.text
    try:
        match = start(client, {n: made[n] for n in ("chat_long_a", "chat_long_b")}, size=9)
        for number in range(CHAT_SHOWN + 3):
            say(client, made["chat_long_a"], match.id, f"line {number}")
    finally:
        client.put("/admin/server/message-limit", json={"limit": 100}, headers=auth(admin))
    panel = httpx.get(f"{server.base_url}/web/games/{match.id}/live",
                      cookies={"cq_session": made["chat_long_b"]}, timeout=10).text
    chat = re.search(r'<ul class="messages chat"[^>]*>(.*?)</ul>', panel, re.S)
    assert chat is not None, panel[:500]
    shown = entries_text(chat[1])
    assert len(shown) == CHAT_SHOWN
    assert shown[0].endswith(f"line {CHAT_SHOWN + 2}") and shown[-1].endswith("line 3"), shown[-1]
    assert "3 earlier messages not shown here" in panel
