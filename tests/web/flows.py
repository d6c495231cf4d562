"""What a person does in the browser, step by step, shared by the browser tests: sign up
and verify with the mailed code, create a game from the lobby's form, join it with the
lobby's Join button, point at walls and squares on the game page. Each step clicks and
types as a user would (playwright pages of chromium, see tests/web/browser.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.server import RunningServer, running_server
from tests.support.smtp_inbox import Inbox, smtp_inbox

PASSWORD = "corridors at dawn"
FORWARD = {"north": -1, "south": 1}
Page = Any  # playwright.sync_api.Page


@contextmanager
def mailed_server(tmp_path: Path, **settings: str) -> Iterator[tuple[RunningServer, Inbox]]:
    """The real server mailing its codes to a real SMTP server (aiosmtpd) on loopback."""
    with smtp_inbox() as inbox, running_server(tmp_path, **inbox.settings(), **settings) as server:
        yield server, inbox


# -- accounts and the lobby ------------------------------------------------------------

def sign_up(page: Page, base: str, name: str, email: str = "") -> None:
    page.goto(f"{base}/signup?next=/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="email"]', email or f"{name}@example.test")
    page.fill('input[name="password"]', PASSWORD)
    page.click('main button[type="submit"]')


def verify(page: Page, inbox: Inbox, name: str) -> None:
    page.wait_for_url("**/verify?**")
    page.fill('form.code input[name="code"]', inbox.code(f"{name}@example.test"))
    page.fill('form.code input[name="password"]', PASSWORD)
    page.click("form.code button")


def sign_up_and_verify(page: Page, base: str, inbox: Inbox, name: str) -> None:
    """Sign up as `name`, verify with the mailed code: logged in, in the lobby."""
    sign_up(page, base, name)
    verify(page, inbox, name)
    page.wait_for_selector("#new-game")  # the lobby, logged in
    assert page.url == f"{base}/" and name in page.inner_text("header")


def create_from_lobby(page: Page, size: int) -> int:
    """Create a game with the lobby's form (on the lobby): its page opens; its id."""
    page.select_option('#new-game select[name="size"]', str(size))
    page.click('#new-game button[type="submit"]')
    page.wait_for_url("**/games/*")
    return int(page.url.rsplit("/", 1)[1])


def join_from_lobby(page: Page, base: str, game_id: int) -> None:
    """Join a waiting game with its Join button in the lobby: its page opens."""
    page.goto(f"{base}/")
    page.click(f'#lobby button[data-join="{game_id}"]')
    page.wait_for_url(f"{base}/games/{game_id}")


def api_status(page: Page, game_id: int) -> str:
    """The game's status as the page's user reads it from the API (with the cookie)."""
    return str(page.evaluate(f"cqApi('GET', '/games/{game_id}').then((a) => a.body.status)"))


# -- the game page ---------------------------------------------------------------------

def square(at: str, seat: str, rows: int) -> str:
    """The square `rows` rows ahead of `at` for the pawn of `seat`."""
    return f"{at[0]}{int(at[1:]) + FORWARD[seat] * rows}"


def steady_box(page: Page, selector: str, timeout: float = 5.0) -> dict[str, float]:
    """The bounding box of the first element `selector` finds, read again while the page
    replaces its board (after each event of the game's stream it draws the board anew,
    and an element of the board it replaced has no box)."""
    deadline = time.monotonic() + timeout
    while True:
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return dict(box)
        assert time.monotonic() < deadline, f"{selector}: no box within {timeout} s"
        time.sleep(0.05)


def click_wall(page: Page, slot: str, tap: bool = False) -> None:
    """Point at the edge of a wall's place away from the crossing (the middle of its
    bounding box is the crossing of the grooves, which two places share)."""
    target = page.locator(f'#board [data-slot="{slot}"]')
    box = steady_box(page, f'#board [data-slot="{slot}"]')
    spot = ({"x": box["width"] * 0.2, "y": box["height"] / 2} if slot.endswith("h")
            else {"x": box["width"] / 2, "y": box["height"] * 0.2})
    (target.tap if tap else target.click)(position=spot)


def wait_turn(page: Page) -> None:
    page.wait_for_selector("#board svg.my-turn .hit-square.legal", timeout=5000)


def status(page: Page) -> str:
    """What the game page says to its player (under the board)."""
    return str(page.inner_text("#play-status"))


def play_5x5_to_the_end(pages: dict[str, Page], watcher: Page, first: str) -> None:
    """On a fresh 5x5 game, with clicks only: the `first` seat places a wall, the other
    tries the same place (refused, said in words, nothing placed), then the pawns walk
    towards each other, the first jumps the other and reaches its goal row. Every page
    (both players' and the watcher's) shows each wall and step live."""
    second = "south" if first == "north" else "north"
    at = {"north": "c5", "south": "c1"}
    everyone = (*pages.values(), watcher)

    def moved(seat: str, to: str) -> None:
        at[seat] = to
        for page in everyone:
            page.wait_for_selector(f'#board [data-seat="{seat}"][data-square="{to}"]',
                                   timeout=5000)

    # the first player places a wall: the preview under the pointer, then the click
    a, b = pages[first], pages[second]
    wait_turn(a)
    assert b.locator("#board svg.my-turn").count() == 0  # not the other's turn
    click_wall(a, "a2h")
    for page in everyone:
        page.wait_for_selector('#board [data-wall="a2h"]', timeout=5000)
    # the second one points at the same place: refused (red), and the server says why
    wait_turn(b)
    b.locator('#board [data-slot="a2h"]').hover(position={"x": 5, "y": 10})
    assert b.locator('#board .preview.refused[data-preview="a2h"]').count() == 1
    click_wall(b, "a2h")
    b.wait_for_selector("#play-status.refused", timeout=5000)
    assert "overlaps" in status(b), status(b)
    assert b.locator('#board [data-wall]').count() == 1  # nothing placed
    # then the pawns walk towards each other until one jumps the other
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    b_moved_to = at[second]
    wait_turn(a)
    a.click(f'#board [data-to="{square(at[first], first, 1)}"].legal')
    moved(first, square(at[first], first, 1))
    wait_turn(b)
    # the confirmation of b's last action stays beside the turn's words after a's move
    assert status(b).startswith(f"Move to {b_moved_to}: done. Your turn"), status(b)
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    wait_turn(a)
    jump = a.locator(f'#board [data-to="{square(at[first], first, 2)}"].legal')
    assert jump.get_attribute("data-kind") == "jump"
    jump.click()
    moved(first, square(at[first], first, 2))
    wait_turn(b)
    b.click(f'#board [data-to="{square(at[second], second, 1)}"].legal')
    moved(second, square(at[second], second, 1))
    wait_turn(a)
    a.click(f'#board [data-to="{square(at[first], first, 1)}"].legal')  # its goal row
