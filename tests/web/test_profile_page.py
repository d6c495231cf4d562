"""The profile page `/users/NAME` (SPEC §14): both ratings and an SVG graph per pool with
one point per rated game; the real server, and chromium for what a player sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from corridorquest.store.models import User, UserRating, utcnow
from tests.support.rated_games import duel, in_store
from tests.support.server import RunningServer
from tests.web.browser import browser_page, chromium_missing


@pytest.fixture(scope="module")
def played(
    server: RunningServer, client: httpx.Client,
    tokens: Callable[[tuple[str, ...]], dict[str, str]],
) -> dict[str, str]:
    names = tokens(("pia", "pol", "pam"))
    duel(client, server.database_url, names, loser="pia", winner="pol")
    duel(client, server.database_url, names, loser="pol", winner="pia")
    duel(client, server.database_url, names, loser="pam", winner="pia", private=True)
    return names


def test_the_profile_shows_both_pools_and_one_point_per_rated_game(
    server: RunningServer, played: dict[str, str]
) -> None:
    page = httpx.get(f"{server.base_url}/users/pia", timeout=10)
    assert page.status_code == 200, page.text
    text = page.text
    assert "Rating, 2 players: <span class=\"rating\">" in text
    assert "Rating, 4 players: <span class=\"rating\">1500?</span>" in text
    assert text.count('<circle class="point"') == 3
    assert "No rated games yet." in text  # the 4-player pool
    assert "private" in text  # pam's private game: no id for a watcher who is not in it
    never = httpx.get(f"{server.base_url}/users/pam", timeout=10).text
    assert never.count('<circle class="point"') == 1


def test_an_unknown_user_is_a_404_page(server: RunningServer) -> None:
    page = httpx.get(f"{server.base_url}/users/nobody-here", timeout=10)
    assert page.status_code == 404
    assert "No such user." in page.text


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_the_graph_renders_in_chromium(
    server: RunningServer, played: dict[str, str], tmp_path: Path
) -> None:
    with browser_page() as browser:
        page = browser.new_page()
        page.goto(f"{server.base_url}/users/pia")
        graph = page.wait_for_selector('svg.rating-graph[data-pool="2p"]')
        assert graph is not None and graph.bounding_box()["width"] > 200
        points = page.query_selector_all('svg.rating-graph[data-pool="2p"] circle.point')
        assert len(points) == 3
        assert all(p.bounding_box() is not None for p in points)
        rating = page.inner_text('section[data-pool="2p"] .rating')
        assert rating.rstrip("?").isdigit()
        page.screenshot(path=str(tmp_path / "profile.png"), full_page=True)
        page.close()


def test_a_finished_games_page_shows_each_players_rating_change(
    server: RunningServer, client: httpx.Client,
    tokens: Callable[[tuple[str, ...]], dict[str, str]],
) -> None:
    names = tokens(("gwen", "gus"))
    game = duel(client, server.database_url, names, loser="gwen", winner="gus")
    page = httpx.get(f"{server.base_url}/games/{game['id']}", timeout=10)
    assert page.status_code == 200, page.text
    assert '<a href="/users/gus">gus</a> 1500? → 1662? (+162)' in page.text
    assert '<a href="/users/gwen">gwen</a> 1500? → 1338? (-162)' in page.text


def test_the_web_leaderboard_by_rating_lists_each_pool(
    server: RunningServer, tokens: Callable[[tuple[str, ...]], dict[str, str]],
) -> None:
    tokens(("lena", "lars"))

    def seed() -> None:
        for name, pool, rating, games in (("lena", "4p", 1711.0, 8), ("lars", "4p", 1690.0, 3)):
            user = User.get(User.username == name)
            UserRating.create(user=user, pool=pool, rating=rating, deviation=90.0,
                              volatility=None, games=games, last_played_at=utcnow())

    in_store(server.database_url, seed)
    page = httpx.get(f"{server.base_url}/leaderboard", timeout=10)
    assert page.status_code == 200, page.text
    four = page.text.split('data-pool="4p"')[1]
    assert '<td>1</td><td><a href="/users/lena">lena</a></td><td>1711</td>' in four
    assert "lars" not in four  # 3 games: not yet
    assert "Nobody qualifies yet." in page.text.split('data-pool="4p"')[0]
