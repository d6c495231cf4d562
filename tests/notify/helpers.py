"""Games played through the API for the notification tests, and what users should hear.

An expected ntfy message is an `Expect` (topic, tags, priority, title, body): tags are
compared as a set (their order means nothing to a subscriber), the rest exactly; the
messages of one topic are compared in order, as a subscriber sees them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, NamedTuple

import httpx

from tests.notify.conftest import Mail
from tests.support.games import join, new_game, play
from tests.support.ntfy_recorder import Publish

Json = dict[str, Any]

PRIORITY = {"turn": "urgent", "game": "high", "broadcast": "high", "action": "default",
            "dm": "default", "maintenance": "default", "invitation": "default",
            "user": "default", "message": "low"}
RANK = ["min", "low", "default", "high", "urgent"]

# 5x5, 2 players: North places a wall on each of its turns, South walks up column b and
# wins on b5; legal whoever moves first, and North's last action before the win is a wall.
NORTH_WALLS = ["d1h", "d3h", "c4v", "d2v", "d4v"]
SOUTH_MOVES = ["b1", "b2", "b3", "b4", "b5"]
WALL_SCRIPTS = {
    "north": [("wall", w) for w in NORTH_WALLS],
    "south": [("move", s) for s in SOUTH_MOVES],
}

# 5x5, 4 players: the first action of each seat (legal in any order)
FIRST_ACTIONS = {"south": ("move", "c2"), "west": ("wall", "d4h"),
                 "north": ("move", "b5"), "east": ("move", "e2")}


class Expect(NamedTuple):
    topic: str
    tags: frozenset[str]
    priority: str
    title: str
    body: str


def expect(topic: str, tags: Iterable[str], title: str, body: str) -> Expect:
    """A message with `tags`; its priority the highest of theirs (SPEC §9)."""
    tags = frozenset(tags)
    priority = max((PRIORITY[t] for t in tags), key=RANK.index)
    return Expect(topic, tags, priority, title, body)


def got(published: Iterable[Publish]) -> list[Expect]:
    return [Expect(p.topic, frozenset(p.tags), p.priority, p.title, p.body) for p in published]


def by_topic(messages: Iterable[Expect]) -> dict[str, list[Expect]]:
    """The messages of each topic, in order."""
    topics: dict[str, list[Expect]] = defaultdict(list)
    for message in messages:
        topics[message.topic].append(message)
    return dict(topics)


def mails_by_recipient(mails: Iterable[Mail]) -> dict[str, list[str]]:
    """The subjects each address received, in order."""
    found: dict[str, list[str]] = defaultdict(list)
    for mail in mails:
        found[mail.to].append(mail.subject)
    return dict(found)


def action_line(name: str, kind: str, to: str) -> str:
    return f"{name} placed wall {to}." if kind == "wall" else f"{name} moved to {to}."


def start_game(http: httpx.Client, tokens: dict[str, str], **options: Any) -> Json:
    """A started game of `tokens` (the first creates it, the others join with the code
    when it has one); the game as the last joiner sees it."""
    names = list(tokens)
    options.setdefault("players", len(names))
    game = new_game(http, tokens[names[0]], **options)
    code = game.get("invitation_code")
    for name in names[1:]:
        answer = join(http, tokens[name], game["id"], **({"invitation_code": code} if code else {}))
        assert answer.status_code == 201, answer.text
        game = answer.json()
    assert game["status"] == "started", game
    if code:
        game["invitation_code"] = code
    return game


def seat_names(game: Json) -> dict[str, str]:
    return {s["seat"]: s["username"] for s in game["seats"]}


def act(http: httpx.Client, tokens: dict[str, str], game: Json, kind: str, to: str) -> Json:
    """The player to move plays (must be accepted); the game after it."""
    name = seat_names(game)[game["turn"]]
    answer = play(http, tokens[name], game["id"], kind, to)
    assert answer.status_code == 201, answer.text
    after: Json = answer.json()
    if game.get("invitation_code"):
        after.setdefault("invitation_code", game["invitation_code"])
    return after


def play_out(
    http: httpx.Client,
    tokens: dict[str, str],
    game: Json,
    scripts: dict[str, list[tuple[str, str]]],
) -> list[tuple[str, str, str, str | None]]:
    """Play `scripts` (by seat, consumed) until the game is over; each action as
    (player, kind, to, next player or None)."""
    done = []
    while game["status"] == "started":
        name = seat_names(game)[game["turn"]]
        kind, to = scripts[game["turn"]].pop(0)
        game = act(http, tokens, game, kind, to)
        following = seat_names(game)[game["turn"]] if game["status"] == "started" else None
        done.append((name, kind, to, following))
    return done


class Scripted(NamedTuple):
    """A 4-player game played by `four_player_game`, and what it should tell."""

    game_id: int
    order: list[str]  # the players in turn order, the first to move first
    lines: list[str]  # the three actions as told
    ntfy: dict[str, list[Expect]]  # by topic, in order
    mails: dict[str, list[str]]  # subjects by address, in order


def four_player_game(http: httpx.Client, tokens: dict[str, str]) -> Scripted:
    """A public 4-player game of `tokens` (4 users, the first creates it): three actions,
    then the second player to move withdraws, which cancels it."""
    from tests.support.users import auth

    game = start_game(http, tokens, players=4, size=5)
    gid = game["id"]
    names = seat_names(game)
    lines, order = [], [names[game["turn"]]]
    for _ in range(3):
        kind, to = FIRST_ACTIONS[game["turn"]]
        lines.append(action_line(names[game["turn"]], kind, to))
        game = act(http, tokens, game, kind, to)
        order.append(names[game["turn"]])
    p0, p1, p2, p3 = order
    withdrawn = http.delete(f"/games/{gid}/players/me", headers=auth(tokens[p1]))
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json()["status"] == "cancelled"

    topic = f"game_{gid}"
    everyone = ", ".join(tokens)
    started_title = f"Game {gid} started"
    started = f"Game {gid} (4 players, 5x5) started: {everyone}. It is {p0}'s turn."
    turn = [f"Game {gid}: {p}'s turn" for p in (p1, p2, p3)]
    acted = [f"{lines[0]} It is {p1}'s turn.", f"{lines[1]} It is {p2}'s turn.",
             f"{lines[2]} It is {p3}'s turn."]
    cancelled_title = f"Game {gid} cancelled"
    cancelled = f"Game {gid} was cancelled: {p1} withdrew."
    game_title = f"Game {gid}"
    ntfy = {
        topic: [
            expect(topic, {"game", "turn"}, started_title, started),
            expect(topic, {"action", "turn"}, turn[0], acted[0]),
            expect(topic, {"action", "turn"}, turn[1], acted[1]),
            expect(topic, {"action", "turn"}, turn[2], acted[2]),
            expect(topic, {"game"}, cancelled_title, cancelled),
        ],
        p0: [  # its own action is not told to it; it hears of the cancel
            expect(p0, {"game", "turn"}, started_title, started),
            expect(p0, {"action"}, game_title, acted[1]),
            expect(p0, {"action"}, game_title, acted[2]),
            expect(p0, {"game"}, cancelled_title, cancelled),
        ],
        p1: [  # it withdrew: it is not told of the cancel it made
            expect(p1, {"game"}, started_title, started),
            expect(p1, {"action", "turn"}, turn[0], acted[0]),
            expect(p1, {"action"}, game_title, acted[2]),
        ],
        p2: [
            expect(p2, {"game"}, started_title, started),
            expect(p2, {"action"}, game_title, acted[0]),
            expect(p2, {"action", "turn"}, turn[1], acted[1]),
            expect(p2, {"game"}, cancelled_title, cancelled),
        ],
        p3: [
            expect(p3, {"game"}, started_title, started),
            expect(p3, {"action"}, game_title, acted[0]),
            expect(p3, {"action"}, game_title, acted[1]),
            expect(p3, {"action", "turn"}, turn[2], acted[2]),
            expect(p3, {"game"}, cancelled_title, cancelled),
        ],
    }
    # e-mail: game and turn on, action off by default
    subject_started = f"Corridor Quest: game {gid} started"
    subject_turn = f"Corridor Quest: your turn in game {gid}"
    subject_cancelled = f"Corridor Quest: game {gid} was cancelled"
    mails = {
        f"{p0}@example.test": [subject_started, subject_cancelled],
        f"{p1}@example.test": [subject_started, subject_turn],
        f"{p2}@example.test": [subject_started, subject_turn, subject_cancelled],
        f"{p3}@example.test": [subject_started, subject_turn, subject_cancelled],
    }
    return Scripted(gid, order, lines, ntfy, mails)
