"""The profile page `/users/NAME` (SPEC §14): both ratings and an SVG graph per pool with
one point per rated game, a page of them at a time (a bot plays thousands: the page grew
with every game, 549 KB after 3,877; issue 48 item 14); the real server, and chromium for
what a player sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from corridorquest.store.models import Game, GameRating, User, UserRating, utcnow
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


RATED = 130  # rated games of one player: three pages of 50


def test_a_long_history_is_shown_a_page_at_a_time(
    server: RunningServer, tokens: Callable[[tuple[str, ...]], dict[str, str]],
) -> None:
    tokens(("busybot",))

    def seed() -> list[int]:
        user = User.get(User.username == "busybot")
        ids = []
        for n in range(RATED):
            game = Game.create(status="finished", size=5, players=2, admin=user, seed=n,
                               finished_at=utcnow())
            GameRating.create(game=game, user=user, pool="2p", rating_before=1500.0 + n,
                              deviation_before=80.0, rating_after=1501.0 + n,
                              deviation_after=80.0, at=utcnow())
            ids.append(game.id)
        # (provisional: off the leaderboard that another test reads)
        UserRating.create(user=user, pool="2p", rating=1500.0 + RATED, deviation=300.0,
                          volatility=0.06, games=RATED, last_played_at=utcnow())
        return ids

    ids = in_store(server.database_url, seed)
    first = httpx.get(f"{server.base_url}/users/busybot", timeout=10).text
    assert first.count('<circle class="point"') == 50  # the newest 50, not all 130
    assert f'<a href="/games/{ids[-1]}">' in first and f'<a href="/games/{ids[80]}">' in first
    assert f'<a href="/games/{ids[79]}">' not in first
    assert 'href="?page=2">older games</a>' in first and "newer games" not in first
    last = httpx.get(f"{server.base_url}/users/busybot?page=3", timeout=10).text
    assert last.count('<circle class="point"') == 30
    assert f'<a href="/games/{ids[0]}">' in last and f'<a href="/games/{ids[30]}">' not in last
    assert 'href="?page=2">newer games</a>' in last and "older games" not in last
    for bad in ("0", "-1", "x", "1" * 12, "\u0663"):
        refused = httpx.get(f"{server.base_url}/users/busybot", params={"page": bad},
                            timeout=10)
        assert refused.status_code == 422, (bad, refused.text)
        assert "page: a whole number from 1" in refused.text


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
