"""The web pages in a real browser: Debian's chromium driven by playwright.

The real server, games played through the API as players play them, and pages that must
show each change without a reload; hidden information hidden in the DOM and in every
response the page fetched.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.api.mode_helpers import Match, act, best_step, pick_wall, play_out, start
from tests.support.games import new_game, started_game
from tests.support.server import RunningServer
from tests.web.browser import Browser, browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browser_page() as found:
        yield found


def _step(client: httpx.Client, match: Match) -> str:
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    return str(step.to)


def _pawn(seat: str, square: str) -> str:
    return f'svg [data-seat="{seat}"][data-square="{square}"]'


def test_a_game_page_shows_each_move_without_a_reload(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    match = start(client, tokens(("gina", "hugo")))
    page = browser.new_page()
    page.goto(f"{server.base_url}/games/{match.id}")
    page.wait_for_selector("#board svg")
    page.evaluate("window.notReloaded = true")
    for _ in range(3):
        seat = match.mirror.turn
        assert seat is not None
        square = _step(client, match)
        page.wait_for_selector(_pawn(seat.value, square), timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    assert "to move" in page.inner_text(".status")
    page.close()


# What a browser does when a tab goes to the background or comes back (headless chromium
# shows every page as visible): the page reads document.hidden and hears visibilitychange.
HIDE = """() => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = HIDE.replace("() => true", "() => false").replace('() => "hidden"', '() => "visible"')


def test_game_pages_in_background_tabs_leave_connections_for_a_seventh_page(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    """A browser opens at most six connections to a server, and a page's stream holds one:
    six game pages in background tabs must not leave a seventh page hanging."""
    matches = [start(client, tokens((f"tab{i}a", f"tab{i}b"))) for i in range(7)]
    context = browser.new_context()  # one browser profile: one pool of connections
    hidden = []
    for match in matches[:6]:
        page = context.new_page()
        page.goto(f"{server.base_url}/games/{match.id}")
        page.wait_for_selector("#board svg")
        page.evaluate(HIDE)
        hidden.append(page)
    seventh = context.new_page()
    seventh.goto(f"{server.base_url}/games/{matches[6].id}", timeout=5000)
    seventh.wait_for_selector("#board svg")
    seat = matches[6].mirror.turn
    assert seat is not None
    square = _step(client, matches[6])
    seventh.wait_for_selector(_pawn(seat.value, square), timeout=2000)  # live
    # a background tab comes back: it shows the move made while it was hidden, then
    # follows the game live again
    seat = matches[0].mirror.turn
    assert seat is not None
    square = _step(client, matches[0])
    time.sleep(0.3)  # pacing: the hidden tab must not show it
    assert hidden[0].query_selector(_pawn(seat.value, square)) is None
    hidden[0].evaluate(SHOW)
    hidden[0].wait_for_selector(_pawn(seat.value, square), timeout=3000)
    seat = matches[0].mirror.turn
    assert seat is not None
    square = _step(client, matches[0])
    hidden[0].wait_for_selector(_pawn(seat.value, square), timeout=2000)
    context.close()


def test_the_tv_shows_every_started_public_game_live(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    first = start(client, tokens(("ivo", "jan")))
    second = start(client, tokens(("kai", "lin")))
    private = started_game(client, tokens(("mo", "ned")), private=True)
    page = browser.new_page()
    page.goto(f"{server.base_url}/tv")
    shown = {int(f.get_attribute("data-game")) for f in page.query_selector_all("figure")}
    assert {first.id, second.id} <= shown
    assert private["id"] not in shown
    page.evaluate("window.notReloaded = true")
    for match in (first, second):
        seat = match.mirror.turn
        assert seat is not None
        square = _step(client, match)
        figure = f'figure[data-game="{match.id}"] '
        page.wait_for_selector(figure + _pawn(seat.value, square), timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    page.close()


def test_the_tv_cycles_through_its_pages_when_the_games_do_not_fit(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    for i in range(7):
        started_game(client, tokens((f"tv{i}a", f"tv{i}b")))
    page = browser.new_page()
    page.goto(f"{server.base_url}/tv?cycle=3")
    pages = int(page.get_attribute("#tv", "data-pages") or 0)
    assert pages >= 2
    first = {f.get_attribute("data-game") for f in page.query_selector_all("figure")}
    assert len(first) == 6
    page.wait_for_url(lambda url: "page=2" in url, timeout=6000)
    page.wait_for_selector("figure")
    second = {f.get_attribute("data-game") for f in page.query_selector_all("figure")}
    assert second and not first & second
    page.close()


def test_a_finished_games_replay_shows_the_board_at_each_step(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    match = start(client, tokens(("ola", "pia")))
    boards = []  # the true position before each action: pawns by seat

    def remember(m: Match) -> None:
        boards.append({s.value: str(sq) for s, sq in m.mirror.pawns.items()})

    remember(match)
    play_out(client, match, walls_each=1, after_each=remember)
    total = len(boards) - 1
    page = browser.new_page()
    page.goto(f"{server.base_url}/games/{match.id}")
    page.wait_for_selector("#replay")
    for seat, square in boards[total].items():
        assert page.query_selector(_pawn(seat, square)) is not None
    page.keyboard.press("Home")
    for seat, square in boards[0].items():
        page.wait_for_selector(_pawn(seat, square), timeout=2000)
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        for seat, square in boards[step].items():
            page.wait_for_selector(_pawn(seat, square), timeout=2000)
    page.click('button[data-step="last"]')
    for seat, square in boards[total].items():
        page.wait_for_selector(_pawn(seat, square), timeout=2000)
    assert page.inner_text("#step") == f"{total} / {total}"
    page.goto(f"{server.base_url}/")  # the lobby: the winner and the scores
    entry = page.inner_text(f'#lobby li:has(a[href="/games/{match.id}"])')
    assert "won by" in entry and all(name in entry for name in ("ola", "pia"))
    assert any(char.isdigit() for char in entry.split("won by", 1)[1])
    page.close()


def test_a_spectator_page_of_an_invisible_walls_game_never_holds_a_wall(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    match = start(client, tokens(("quo", "ray")), invisible=True)
    placed = []
    wall = pick_wall(match.mirror, frozenset())
    assert wall is not None
    act(client, match, "wall", wall)
    placed.append(wall)
    page = browser.new_page()
    bodies: list[str] = []
    page.on("response", lambda answer: bodies.append(_text(answer)))
    # an event stream's response stays open (playwright cannot read it): record what the
    # page's EventSource receives instead
    page.add_init_script(RECORD_EVENTS)
    page.goto(f"{server.base_url}/games/{match.id}")
    page.wait_for_selector("#board svg")
    wall = pick_wall(match.mirror, frozenset())  # a second wall while the page watches
    assert wall is not None
    act(client, match, "wall", wall)
    placed.append(wall)
    # (a selector: the pages' Content-Security-Policy forbids the eval of a JS predicate)
    page.wait_for_selector(".actions li:nth-child(2)", timeout=2000)
    dom = page.content()
    assert page.query_selector("svg [data-wall]") is None
    received = page.evaluate("window.receivedEvents")
    assert any('"type":"wall"' in data for data in received)  # the stream was read
    for notation in placed:
        assert notation not in dom
        assert not [b for b in bodies if notation in b], notation
        assert not [d for d in received if notation in d], notation
    page.close()


RECORD_EVENTS = """
window.receivedEvents = [];
const Original = window.EventSource;
window.EventSource = function (url, options) {
  const source = new Original(url, options);
  for (const name of ["game", "action", "message", "presence"]) {
    source.addEventListener(name, (event) => window.receivedEvents.push(event.data));
  }
  return source;
};
"""


def _text(answer: Any) -> str:
    try:
        return str(answer.text())
    except Exception:  # an event stream still open, a redirect: nothing to read
        return ""


def test_a_private_game_is_404_and_not_in_the_lobby(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    private = started_game(client, tokens(("sam", "tia")), private=True)
    public = started_game(client, tokens(("uwe", "val")))
    page = browser.new_page()
    answer = page.goto(f"{server.base_url}/games/{private['id']}")
    assert answer is not None and answer.status == 404
    page.goto(f"{server.base_url}/")
    links = {a.get_attribute("href") for a in page.query_selector_all("#lobby a")}
    assert f"/games/{public['id']}" in links
    assert f"/games/{private['id']}" not in links
    page.close()


def test_the_pages_fit_a_phone(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any
) -> None:
    match = start(client, tokens(("wil", "xan")))
    page = browser.new_page(viewport={"width": 375, "height": 740})
    for path in ("/", f"/games/{match.id}", "/tv"):
        page.goto(server.base_url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (path, width)
    page.close()


def test_a_visitors_log_in_and_sign_up_links_come_back_to_the_game(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    game = new_game(client, tokens(("wim",))["wim"], private=True)
    page = f"/games/{game['id']}?code={game['invitation_code']}"
    answer = httpx.get(server.base_url + page, timeout=10)
    assert answer.status_code == 200, answer.text
    for link in ("/login", "/signup"):
        start_at = answer.text.index(f'href="{link}?next=') + len('href="')
        href = answer.text[start_at:answer.text.index('"', start_at)].replace("&amp;", "&")
        assert parse_qs(urlsplit(href).query)["next"] == [page]  # back here, code and all
