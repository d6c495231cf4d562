"""How one event's deliveries are put together: an e-mail (`Mail`), an ntfy message
(`Push`) with its priority by tag (SPEC §9), what one receiver hears of a game event
(`Told`), and the `Plan` the audience functions (audience.py) add them to, which leaves out
what must not go out (ntfy when NTFY_URL is not set, a bot's topic or mail, mail a user does
not want or gets in the daily digest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corridorquest.notify import wording
from corridorquest.notify.address import server_address
from corridorquest.notify.facts import GameFacts
from corridorquest.settings import Settings
from corridorquest.store.models import User

# SPEC §9: the priority of each tag (`dm`: the priority of a DM; `user`: a username change)
PRIORITIES = {
    "turn": "urgent",
    "game": "high",
    "broadcast": "high",
    "action": "default",
    "dm": "default",
    "maintenance": "default",
    "invitation": "default",
    "user": "default",
    "message": "low",
}
_RANK = {"min": 1, "low": 2, "default": 3, "high": 4, "urgent": 5}


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str

    def payload(self) -> dict[str, Any]:
        return {"to": self.to, "subject": self.subject, "body": self.body}


@dataclass(frozen=True)
class Push:
    """One ntfy message."""

    topic: str
    title: str
    body: str
    tags: tuple[str, ...]
    priority: str = ""
    click: str | None = None  # the page a tap on it opens (a public game's, PUBLIC_URL)

    def payload(self) -> dict[str, Any]:
        priority = self.priority or max(
            (PRIORITIES[tag] for tag in self.tags), key=_RANK.__getitem__
        )
        payload: dict[str, Any] = {
            "topic": self.topic,
            "title": self.title,
            "body": self.body,
            "tags": list(self.tags),
            "priority": priority,
        }
        if self.click:
            payload["click"] = self.click
        return payload


Delivery = Mail | Push


@dataclass(frozen=True)
class Told:
    """What one receiver hears of a game event: the event types it carries (`turn`,
    `action`, `game`) and its lines."""

    types: tuple[str, ...]
    lines: tuple[str, ...]


class Plan:
    """The deliveries of one event, built up by the functions below."""

    def __init__(self, settings: Settings) -> None:
        self.ntfy = bool(settings.ntfy_url)
        self.address = server_address(settings)
        self.page: str | None = None  # the web page of the game at hand, if it has one
        self.out: list[Delivery] = []
        self.bot_topics: set[str] = set()  # the bots' own topics: a bot is never notified

    def about(self, facts: GameFacts | None) -> None:
        """What follows is about this game (None: about no game)."""
        self.page = self.address.game_page(facts.id, facts.public) if facts else None
        if facts is not None:
            self.bot_topics = {
                user.username for user in facts.users.values() if user.bot_level is not None
            }

    def push(
        self, topic: str | None, title: str, told: Told | str, *tags: str, priority: str = ""
    ) -> None:
        if not self.ntfy or not topic or topic in self.bot_topics:
            return
        if isinstance(told, Told):
            if not told.types and not tags:
                return
            tags = (*tags, *told.types)
            body = " ".join(told.lines)
        else:
            body = told
        self.out.append(Push(topic, title, body, tuple(dict.fromkeys(tags)), priority, self.page))

    def mail(self, user: User | None, told: Told, subject: str, facts: GameFacts) -> None:
        """An e-mail to `user` if it wants one of `told`'s event types (and no digest)."""
        if user is None or user.notify_digest or user.bot_level is not None:
            return  # (a bot is never notified, SPEC §13)
        wanted = [kind for kind in told.types if getattr(user, f"notify_{kind}")]
        if not wanted:
            return
        body = wording.game_mail(user.username, facts, told.lines, wanted, self.page)
        self.out.append(Mail(user.email, subject, body))
