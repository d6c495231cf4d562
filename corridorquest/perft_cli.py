"""`corridorquest engine ...`: developer commands for the rules engine."""

from __future__ import annotations

from typing import NoReturn

import click

from corridorquest.engine import EngineError, GameState, Seat, check_variant, divide, perft


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    raise SystemExit(2)


def _integer(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"--{name} {text}: not a whole number") from None


@click.group()
def engine() -> None:
    """Developer tools for the rules engine."""


@engine.command("perft")
@click.option("--size", default="9", show_default=True, help="Board size: 5, 7, ..., 17.")
@click.option("--players", default="2", show_default=True, help="Number of players: 2 or 4.")
@click.option(
    "--first",
    default="north",
    show_default=True,
    help="Seat that moves first (north/east/south/west).",
)
@click.option("--moves", default="", help='Actions played first, e.g. "e2 e8 c3h".')
@click.option("--depth", default="1", show_default=True, help="Length of the counted sequences.")
@click.option("--divide", "split", is_flag=True, help="One line per legal first action.")
def perft_command(size: str, players: str, first: str, moves: str, depth: str, split: bool) -> None:
    """Count the legal action sequences of length DEPTH after MOVES.

    Bad input gives a one-line error and exit code 2.
    """
    try:
        board_size, player_count, plies = (
            _integer("size", size),
            _integer("players", players),
            _integer("depth", depth),
        )
        check_variant(board_size, player_count)
        seat = Seat.parse(first)
        if plies < 0:
            raise ValueError(f"{depth}: depth must be 0 or more")
        state = GameState.new(board_size, player_count, seat)
    except ValueError as error:
        _fail(str(error))
    for number, text in enumerate(moves.replace(",", " ").split(), start=1):
        try:
            state.play_notation(text)
        except EngineError as error:
            _fail(f"move {number}: {error}")
    if split:
        for action, count in divide(state, plies):
            click.echo(f"{action} {count}")
        return
    click.echo(perft(state, plies))
