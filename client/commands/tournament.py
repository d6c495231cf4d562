"""``cq tournament``: tournaments (SPEC §15): create, list, show, join, leave, add a bot,
remove an entrant, start. The server makes the pairings and starts every game."""

from __future__ import annotations

from typing import Any

import click

from client.commands.options import board_size_option, invisible_walls_option, players_option
from client.state import AppState, pass_state

KINDS = {"round-robin": "round_robin", "double-round-robin": "double_round_robin",
         "swiss": "swiss"}
KIND_NAMES = {value: key for key, value in KINDS.items()}


@click.group()
def tournament() -> None:
    """Tournaments: round robin, double round robin, Swiss.

    Anybody may create one (and is its admin); players join, the admin may add bots
    and starts it; the server pairs the players and starts each round's games, the
    next round when the last game of a round has ended.
    """


def _variant(data: dict[str, Any]) -> str:
    modes = [m for m in ("masked", "invisible") if data.get(m)]
    text = f"{data['size']}x{data['size']}, {data['players']} players"
    return text + (f", {' and '.join(modes)} walls" if modes else "")


def _kind(data: dict[str, Any]) -> str:
    kind = KIND_NAMES.get(data["kind"], data["kind"])
    return f"{kind}, {data['rounds']} rounds" if data.get("rounds") else kind


def _summary(data: dict[str, Any]) -> str:
    where = data["status"]
    if where == "started":
        where = f"round {data['round']} of {data['rounds']}"
    return (f"{data['id']}: {data['name']} ({_kind(data)}; {_variant(data)}) - {where}, "
            f"{data['entrants']} entrants, admin {data['admin']}")


def echo_tournament(data: dict[str, Any]) -> None:
    click.echo(f"Tournament {_summary(data)}")
    entrants = [
        e["username"] + (f" (bot {e['bot_level']})" if e.get("bot_level") else "")
        + (" (withdrawn)" if e["withdrawn"] else "")
        for e in data["entrant_list"]
    ]
    click.echo("Entrants: " + (", ".join(entrants) if entrants else "(none yet)"))
    for played in data["pairings"]:
        click.echo(f"Round {played['round']}:")
        for table in played["games"]:
            names = " - ".join(table["players"])
            if table["game_id"] is None:
                what = "forfeit"
            else:
                what = f"game {table['game_id']}"
            if table["status"] == "settled":
                if table["winner"]:
                    result = f"{table['winner']} won"
                else:
                    result = "no result"
                if table["forfeited"]:
                    result += f" ({', '.join(table['forfeited'])} forfeited)"
            else:
                result = table["status"]
            click.echo(f"  {table['board']}. {names}: {what}, {result}")
        if played["byes"]:
            click.echo(f"  bye: {', '.join(played['byes'])}")
    if data["standings"] and data["status"] != "entering":
        swiss = data["kind"] == "swiss"
        click.echo("Standings:")
        header = "  rank  player                points" + ("  buchholz" if swiss else "")
        click.echo(header + "  score")
        for line in data["standings"]:
            name = line["username"] + (" (withdrawn)" if line["withdrawn"] else "")
            row = f"  {line['rank']:>4}  {name:<20} {line['points']:>6}"
            if swiss:
                row += f"  {line['buchholz']:>8}"
            click.echo(row + f"  {line['score']:>5}")


@tournament.command()
@click.argument("name")
@click.option("-k", "--kind", type=click.Choice(list(KINDS)), default="round-robin",
              show_default=True, help="how players are paired")
@click.option("-r", "--rounds", type=click.IntRange(1, 20), default=None,
              help="Swiss: the number of rounds")
@board_size_option("Board size (5 to 17 uneven)", 9)
@players_option("Players per game (2, or 4: tables of four, Swiss)", 2)
@click.option("-m", "--masked-walls", "masked", is_flag=True, help="Masked walls")
@invisible_walls_option("Invisible walls", old_letter=True)
@pass_state
def new(state: AppState, name: str, kind: str, rounds: int | None, size: int, players: str,
        masked: bool, invisible: bool) -> None:
    """Create a tournament named NAME; you are its admin.

    Creating it does not enter you: `cq tournament join ID` to play in it.
    """
    body = {"name": name, "kind": KINDS[kind], "size": size, "players": int(players),
            "masked": masked, "invisible": invisible}
    if rounds is not None:
        body["rounds"] = rounds
    with state.api() as api:
        data = api.new_tournament(body)
    click.echo(f"Created tournament {_summary(data)}")


@tournament.command(name="list")
@pass_state
def list_tournaments(state: AppState) -> None:
    """List the tournaments, newest first."""
    with state.api() as api:
        found = api.tournaments()["tournaments"]
    if not found:
        click.echo("No tournaments.")
    for data in found:
        click.echo(_summary(data))


@tournament.command()
@click.argument("tournament_id", type=int, metavar="ID")
@pass_state
def show(state: AppState, tournament_id: int) -> None:
    """Show a tournament: entrants, rounds with their games, standings."""
    with state.api() as api:
        echo_tournament(api.tournament(tournament_id))


@tournament.command()
@click.argument("tournament_id", type=int, metavar="ID")
@pass_state
def join(state: AppState, tournament_id: int) -> None:
    """Enter a tournament that has not started."""
    with state.api() as api:
        data = api.join_tournament(tournament_id)
    click.echo(f"You entered tournament {data['id']} ({data['name']}); "
               f"{data['entrants']} entrants.")


@tournament.command()
@click.argument("tournament_id", type=int, metavar="ID")
@pass_state
def leave(state: AppState, tournament_id: int) -> None:
    """Leave a tournament; once it has started, withdraw: you lose the game you play
    and every later one."""
    with state.api() as api:
        data = api.leave_tournament(tournament_id)
    if data["status"] == "entering":
        click.echo(f"You left tournament {data['id']}.")
    else:
        click.echo(f"You withdrew from tournament {data['id']}; your games are forfeited.")


@tournament.command(name="add-bot")
@click.argument("tournament_id", type=int, metavar="ID")
@click.argument("level", type=click.IntRange(1, 6), metavar="LEVEL")
@pass_state
def add_bot(state: AppState, tournament_id: int, level: int) -> None:
    """Enter the server's bot of LEVEL (1 weakest to 6), as the tournament's admin."""
    with state.api() as api:
        data = api.add_tournament_bot(tournament_id, level)
    click.echo(f"Entered the bot of level {level} in tournament {data['id']}; "
               f"{data['entrants']} entrants.")


@tournament.command()
@click.argument("tournament_id", type=int, metavar="ID")
@click.argument("username")
@pass_state
def remove(state: AppState, tournament_id: int, username: str) -> None:
    """Take USERNAME out of a tournament, as its admin (once started: a withdrawal)."""
    with state.api() as api:
        data = api.remove_from_tournament(tournament_id, username)
    click.echo(f"Took {username} out of tournament {data['id']}.")


@tournament.command()
@click.argument("tournament_id", type=int, metavar="ID")
@pass_state
def start(state: AppState, tournament_id: int) -> None:
    """Start a tournament, as its admin: the server starts the first round's games."""
    with state.api() as api:
        data = api.start_tournament(tournament_id)
    games = data["pairings"][0]["games"] if data["pairings"] else []
    click.echo(f"Started tournament {data['id']}: round 1, {len(games)} games.")
    echo_tournament(data)
