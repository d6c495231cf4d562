"""/tv on a 1920x1080 projector (issue 30, item 4): the boards fill the screen in a grid
sized to the number of games (one game: one big board; six: 3x2), 17x17 boards
included, none overlapping another or its caption, no scroll bar; each caption names
the players with their ratings, marks the player to move (or the winner), and gives the
walls left and, once finished, the scores. The real server, chromium, games played
through the API."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.web.tv_grid import grid
from tests.api.mode_helpers import Match, play_out, start
from tests.support.server import RunningServer
from tests.web.browser import Browser, browser_page, chromium_missing
from tests.web.screenshots import moves

SCREEN = {"width": 1920, "height": 1080}
# What the page measures: every figure's board and caption, the sizes of the page
# (a scroll bar: larger than the window), the captions' players cut short (ellipsis).
MEASURE = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const root = document.documentElement;
  return {
    figures: Array.from(document.querySelectorAll("figure.tv-board"), (f) => ({
      game: Number(f.dataset.game),
      board: box(f.querySelector(".board svg")),
      caption: box(f.querySelector("figcaption")),
      cut: Array.from(f.querySelectorAll(".tv-who, .tv-title"))
        .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
    })),
    page: [root.scrollWidth, root.scrollHeight, window.innerWidth, window.innerHeight],
    corner: box(document.querySelector(".tv-server")),
    qr: box(document.querySelector(".tv-server svg.qr")),
  };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with browser_page() as found:
        yield found


@pytest.fixture(scope="module")
def games() -> list[Match]:
    """The started games of this module, in the order the tests start them."""
    return []


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _inside(box: list[float]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= SCREEN["width"] and box[3] <= SCREEN["height"]


def _measure(browser: Browser, server: RunningServer) -> dict[str, Any]:
    page = browser.new_page(viewport=SCREEN)
    try:
        page.goto(f"{server.base_url}/tv")
        page.wait_for_selector("figure.tv-board")
        found: dict[str, Any] = page.evaluate(MEASURE)
        return found
    finally:
        page.close()


def _check_screen(found: dict[str, Any], count: int) -> list[float]:
    """No scroll bar, every board and caption on the screen, nothing overlapping, no
    name cut short; the boards' sides."""
    width, height, inner_width, inner_height = found["page"]
    assert (width, height) == (inner_width, inner_height) == (1920, 1080), found["page"]
    figures = found["figures"]
    assert len(figures) == count
    boxes = [(f["game"], "board", f["board"]) for f in figures]
    boxes += [(f["game"], "caption", f["caption"]) for f in figures]
    for game, part, box in boxes:
        assert _inside(box), (game, part, box)
    for i, (game, part, box) in enumerate(boxes):
        for other, other_part, other_box in boxes[i + 1 :]:
            assert not _overlap(box, other_box), (game, part, other, other_part)
    assert [f["cut"] for f in figures] == [[]] * count
    sides = []
    for figure in figures:
        left, top, right, bottom = figure["board"]
        assert abs((right - left) - (bottom - top)) < 1  # square, not squeezed
        sides.append(right - left)
    return sides


def test_the_grid_is_sized_to_the_number_of_games() -> None:
    assert [grid(n) for n in range(7)] == [
        (1, 1), (1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (3, 2),
    ]


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_one_game_is_one_big_board(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any,
    games: list[Match],
) -> None:
    games.append(start(client, tokens(("big1", "big2")), size=17))  # the largest board
    moves(client, games[-1], 4, walls=2)
    (side,) = _check_screen(_measure(browser, server), 1)
    assert side >= 0.8 * SCREEN["height"]  # about the screen's height


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_six_games_fill_the_screen_three_by_two_without_overlapping(
    server: RunningServer, client: httpx.Client, browser: Browser, tokens: Any,
    games: list[Match],
) -> None:
    players = iter(f"six{i}" for i in range(20))
    for options in ({"size": 9}, {"size": 9, "players": 4}, {"size": 5}, {"size": 11,
                    "players": 4}, {"size": 13}):
        count = options.get("players", 2)
        games.append(start(client, tokens(tuple(next(players) for _ in range(count))),
                           **options))
        moves(client, games[-1], 5, walls=2)
    found = _measure(browser, server)
    sides = _check_screen(found, 6)
    assert min(sides) >= 380  # a 17x17 board among them: each square of it ~20 px
    boards = [f["board"] for f in found["figures"]]
    centres = {round((b[0] + b[2]) / 2 / 50) for b in boards}  # a column's boards centred
    assert len(centres) == 3  # three columns
    assert len({round(b[1] / 100) for b in boards}) == 2  # two rows


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_the_servers_qr_code_sits_in_the_bottom_right_corner(
    server: RunningServer, browser: Browser, games: list[Match],
) -> None:
    assert len(games) == 6
    found = _measure(browser, server)
    corner, qr = found["corner"], found["qr"]
    assert _inside(corner) and corner[2] >= SCREEN["width"] - 40
    assert corner[3] >= SCREEN["height"] - 60
    assert qr[2] - qr[0] >= 200 and abs((qr[2] - qr[0]) - (qr[3] - qr[1])) < 1  # scannable
    for figure in found["figures"]:
        assert not _overlap(corner, figure["board"]) and not _overlap(corner, figure["caption"])


def _caption_shows(match: Match) -> str:
    """A selector that matches once the game's caption shows its current state: the
    seat to move marked, and each seat's walls left."""
    figure = f'figure[data-game="{match.id}"] figcaption'
    turn = match.game["turn"]
    parts = [f'{figure} li.tv-turn[data-seat="{turn}"]']
    for seat in match.game["seats"]:
        walls = seat["walls_left"]
        parts.append(
            f'{figure} li[data-seat="{seat["seat"]}"] .tv-walls:text-is("{walls} walls")'
        )
    return ", ".join(parts)


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_every_caption_follows_its_game_within_two_seconds(
    server: RunningServer, client: httpx.Client, browser: Browser, games: list[Match],
) -> None:
    assert len(games) == 6  # the six boards of the test before
    page = browser.new_page(viewport=SCREEN)
    page.goto(f"{server.base_url}/tv")
    page.wait_for_selector("figure.tv-board")
    page.evaluate("window.notReloaded = true")
    page.wait_for_timeout(500)  # the page's stream is open
    for round_ in range(2):
        for match in games:  # a wall in the first round, a step in the second
            moves(client, match, 1, walls=1 if round_ == 0 else 0)
            started = time.monotonic()
            for part in _caption_shows(match).split(", "):
                page.wait_for_selector(part, timeout=2000)
            assert time.monotonic() - started < 2.0
    assert page.evaluate("window.notReloaded") is True
    page.close()


def test_a_caption_names_marks_and_counts(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    """Each seat in turn order with its rating and walls left; the player to move
    marked; once finished: the winner marked and every score; masked: no walls."""
    match = start(client, tokens(("cap1", "cap2")), size=7)
    moves(client, match, 3, walls=1)
    text = httpx.get(f"{server.base_url}/web/tv/games/{match.id}", timeout=10).text
    to_move = match.game["turn_username"]
    for seat in match.game["seats"]:
        name = seat["username"]
        assert f'data-seat="{seat["seat"]}"' in text
        assert f'<a href="/users/{name}">{name}</a> <span class="rating">1500?</span>' in text
        marked = 'class="tv-seat tv-turn"' if name == to_move else 'class="tv-seat"'
        assert f'{marked} data-seat="{seat["seat"]}"' in text
    for seat in match.game["seats"]:  # each seat's walls left, in its own line
        caption = text.split("<figcaption>")[1]
        line = caption.split(f'data-seat="{seat["seat"]}"')[1].split("</li>")[0]
        assert f'<span class="tv-walls">{seat["walls_left"]} walls</span>' in line
    assert f"<strong>{to_move}</strong> to move" in text

    play_out(client, match, walls_each=1)
    done = httpx.get(f"{server.base_url}/web/tv/games/{match.id}", timeout=10).text
    winner = match.game["winner"]
    assert f"won by <strong>{winner}</strong>" in done and "tv-turn" not in done
    assert done.count('class="tv-seat tv-won"') == 1
    for name, score in match.game["scores"].items():
        assert f"score {score}" in done, name

    masked = start(client, tokens(("cap3", "cap4")), size=7, masked=True)
    moves(client, masked, 2, walls=1)
    hidden = httpx.get(f"{server.base_url}/web/tv/games/{masked.id}", timeout=10).text
    assert "tv-walls" not in hidden and "walls" not in hidden.split("<figcaption>")[1]
