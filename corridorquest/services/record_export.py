"""A game as a record (SPEC §16, docs/records.md), as the caller may see it.

Built only from what the caller is shown anyway: the game view and the history of
`game_views` (which ask `services.visibility`). During play an invisible wall the caller
may not see is a `?` and a masked wall names no owner (a record names no owner of any
action, and the walls-left counts and scores are left out); a private game is a 404 to
whoever may not see it (`load_visible`).
"""

from __future__ import annotations

import json
from typing import Any

from corridorquest.engine import Seat
from corridorquest.records import Record
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.game_access import load_visible, require_status
from corridorquest.services.game_views import game_view, history_view
from corridorquest.store.models import GameAction

SEAT_TAGS = {"north": "North", "east": "East", "south": "South", "west": "West"}


def _mode(view: dict[str, Any]) -> str:
    parts = [name for name in ("masked", "invisible") if view[name]]
    return " ".join(parts) or "standard"


def _date(view: dict[str, Any]) -> str | None:
    moment = view.get("started_at") or view.get("created_at")
    return moment[:10].replace("-", ".") if moment else None


def build_record(
    view: dict[str, Any],
    history: list[dict[str, Any]],
    first: Seat,
    server: str | None,
    imported: dict[str, str] | None = None,
) -> Record:
    """The record of a game view and its history (both as the caller sees them).

    `imported`: the tags of the record an imported game came from (its players' names and
    date are kept)."""
    tags: dict[str, str] = {"Game": str(view["id"])}
    if server:
        tags["Server"] = server
    date = (imported or {}).get("Date") or _date(view)
    if date:
        tags["Date"] = date
    seat_of_name: dict[str, str] = {}
    for seat in view["seats"]:
        if seat["username"]:
            tags[SEAT_TAGS[seat["seat"]]] = seat["username"]
            seat_of_name[seat["username"]] = seat["seat"]
    for name in SEAT_TAGS.values():
        if imported and imported.get(name):
            tags[name] = imported[name]
    tags["Mode"] = _mode(view)
    tags["Status"] = view["status"]
    winner = view["winner"] if view["status"] == "finished" else None
    tags["Result"] = seat_of_name.get(winner, "*") if winner else "*"
    if imported is not None:
        tags["Result"] = imported.get("Result") or "*"
        tags["Imported"] = "yes"
    scores = [
        f"{seat_of_name[name]} {score}"
        for name, score in view["scores"].items()
        if name in seat_of_name
    ]
    if scores and view["status"] == "finished":
        tags["Scores"] = ", ".join(scores)
    actions = [entry["notation"] for entry in history]
    return Record(view["size"], view["players"], first, actions, tags)


async def export_game(
    ctx: ServiceContext, user: CurrentUser, game_id: int, invitation_code: str | None = None
) -> Record:
    """The record of a game the caller may see (409 for a game not started yet)."""

    def read() -> Record:
        loaded = load_visible(game_id, user, invitation_code)
        require_status(loaded, "started", "finished", "cancelled")
        assert loaded.state is not None
        view = game_view(loaded, user.id)
        rows = list(GameAction.select().where(GameAction.game == game_id).order_by(GameAction.n))
        history = history_view(loaded, rows, user.id)
        server = ctx.settings.public_url
        imported = json.loads(loaded.game.imported) if loaded.game.imported else None
        if imported is not None and loaded.state.winner is not None:
            imported["Result"] = loaded.state.winner.value
        return build_record(
            view, history, loaded.state.first, str(server) if server else None, imported
        )

    return await ctx.store.transaction(read)
