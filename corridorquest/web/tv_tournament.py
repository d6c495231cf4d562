"""A running tournament on the projector: `/tv?tournament=ID` shows that tournament's
boards (the games of its latest round, played or being played, by board) and its
standings beside them (tv_standings.html), both live like the rest of /tv.

The tournament comes from `tournament_view(services, user, id)`: the tournament as the
API shows it (`GET /api/v1/tournaments/{id}`: "id", "name", "kind", "status", "round",
"rounds", "standings" [{"rank", "username", "points", "buchholz", "score", "withdrawn"}],
"pairings" [{"round", "games": [{"board", "game_id", "game_status"}]}]), or NotFound
(`tournament_not_found`): services/tournaments.py's show_tournament. This is the one
place that reads tournaments for /tv; `panel_of` turns the view into what the page
shows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from corridorquest.services import tournaments
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound


@dataclass(frozen=True)
class Standing:
    """One line of the standings panel."""

    rank: int
    username: str
    points: float
    buchholz: float | None  # Swiss only (its first tie-break)
    score: int | None
    withdrawn: bool


@dataclass(frozen=True)
class Panel:
    """What /tv?tournament=ID shows of the tournament: its title, its standings, and
    the games of its latest round (their ids, by board)."""

    id: int
    name: str
    status: str
    round: int | None
    rounds: int | None
    swiss: bool
    standings: tuple[Standing, ...]
    game_ids: tuple[int, ...]

    def fingerprint(self) -> str:
        """Changes when the panel would read otherwise (the page then fetches it anew)."""
        lines = ";".join(f"{s.rank}:{s.username}:{s.points}:{s.withdrawn}" for s in self.standings)
        text = f"{self.status}|{self.round}|{lines}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]  # ASCII: it goes in a header


async def tournament_view(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int
) -> dict[str, Any]:
    """The tournament as the API shows it (tournaments are public: anybody who may
    watch sees them); NotFound `tournament_not_found`."""
    return await tournaments.show_tournament(ctx, user, tournament_id)


def _number(value: Any) -> float:
    number = float(value)
    return int(number) if number.is_integer() else number


def panel_of(view: dict[str, Any]) -> Panel:
    """The panel of a tournament's view (the shape tournament_view gives)."""
    swiss = view.get("kind") == "swiss"
    standings = tuple(
        Standing(
            rank=int(line["rank"]),
            username=str(line["username"]),
            points=_number(line.get("points", 0)),
            buchholz=_number(line["buchholz"]) if swiss and line.get("buchholz") is not None
            else None,
            score=line.get("score"),
            withdrawn=bool(line.get("withdrawn")),
        )
        for line in view.get("standings") or []
    )
    rounds = view.get("pairings") or []
    latest = max(rounds, key=lambda played: played["round"]) if rounds else {"games": []}
    games = sorted(
        (g for g in latest["games"] if g.get("game_id") and g.get("game_status") != "cancelled"),
        key=lambda g: g.get("board") or 0,
    )
    return Panel(
        id=int(view["id"]),
        name=str(view.get("name") or f"Tournament {view['id']}"),
        status=str(view.get("status") or ""),
        round=view.get("round"),
        rounds=view.get("rounds"),
        swiss=swiss,
        standings=standings,
        game_ids=tuple(int(g["game_id"]) for g in games),
    )


def tournament_id(request_args: Any) -> int | None | str:
    """`?tournament=ID`: the id, None when not asked, or the text when it is no id."""
    text = request_args.get("tournament")
    if text is None or text == "":
        return None
    try:
        found = int(text)
    except ValueError:
        return str(text)
    return found if found > 0 else str(text)


async def panel(ctx: ServiceContext, user: CurrentUser, request_args: Any) -> Panel | None:
    """The panel for `?tournament=ID`, None when not asked; NotFound for an unknown id
    (or one that is not a number)."""
    wanted = tournament_id(request_args)
    if wanted is None:
        return None
    if isinstance(wanted, str):
        raise NotFound("tournament_not_found", f"no tournament {wanted}")
    return panel_of(await tournament_view(ctx, user, wanted))
