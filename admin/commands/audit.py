"""``cq-admin audit``: the administrators' actions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import click

from admin.output import emit, json_option, table
from admin.state import AdminState, pass_admin
from client.errors import InputError

_AGO = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$", re.IGNORECASE)
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}


def since_value(text: str | None, now: datetime | None = None) -> str | None:
    """``--since``: an ISO 8601 date or time (sent as is), or an age such as ``2h``,
    ``3d``, ``1w`` (sent as the moment that long ago, in UTC)."""
    if text is None:
        return None
    match = _AGO.match(text)
    if match:
        moment = (now or datetime.now(UTC)) - timedelta(
            seconds=int(match.group(1)) * _UNITS[match.group(2).lower()])
        return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")
    try:
        datetime.fromisoformat(text.strip().removesuffix("Z").removesuffix("z"))
    except ValueError:
        raise InputError(f"--since {text!r}: give a date or time (2026-05-01, "
                         "2026-05-01T12:00Z) or an age (30m, 12h, 2d, 1w)",
                         reason="bad_since") from None
    return text.strip()


@click.command()
@click.option("-u", "--user", metavar="<NAME>", help="Only this administrator's actions")
@click.option("--since", metavar="<WHEN>",
              help="Only from then on: a date or time (2026-05-01T12:00Z, UTC without a "
              "zone) or an age (30m, 12h, 2d, 1w)")
@click.option("--limit", type=click.IntRange(1, 1000), default=200, show_default=True,
              help="At most this many entries (newest first)")
@json_option
@pass_admin
def audit(state: AdminState, user: str | None, since: str | None, limit: int,
          as_json: bool) -> None:
    """List what administrators did (who, what, to what, when), newest first."""
    moment = since_value(since)
    with state.api() as api:
        entries = api.audit(user, moment, limit)
    rows = [[e["at"], e["admin"], e["action"], e["target"], e["detail"]] for e in entries]
    emit(entries, as_json, lambda: table(["When", "Admin", "Action", "Target", "Detail"], rows,
                                         "No audit entries."))
