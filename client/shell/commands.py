"""The shell's one command table: it drives dispatch, help and completion.

Every ``cq`` command works without the ``cq`` prefix (``game list``), every ``game``
command also without the ``game`` prefix (``move north`` = ``game move north``,
``message send hi``; those with ``-g`` act on the current game), and a few builtins
belong to the shell itself (``use``, ``help``, ``exit``; ``watch`` says that the shell
follows its current game already, rather than block the prompt as ``cq game watch``).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

import click

from client.cli import cli
from client.errors import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, CqError
from client.state import AppState


@dataclass(frozen=True)
class ShellCommand:
    """One entry of the table: a word, its help line, and what it runs."""

    name: str
    help: str
    cq_path: tuple[str, ...] = ()  # the cq command it stands for, if any
    builtin: Callable[[AppState, list[str]], int] | None = None


def _use(state: AppState, args: list[str]) -> int:
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
        click.echo("Usage: use <GAME_ID>   (sets the current game of this shell)", err=True)
        return EXIT_USAGE
    game_id = int(args[0])
    try:
        with state.api() as api:
            api.game(game_id)
    except CqError as exc:
        exc.show()
        return exc.exit_code
    state.current_game = game_id
    click.echo(f"Current game: {game_id}. 'show' draws it; 'move', 'jump', 'place' act on it.")
    return EXIT_OK


def _help(state: AppState, args: list[str]) -> int:
    if args:
        return dispatch(state, [*args, "--help"])
    width = max(len(c.name) for c in TABLE)
    click.echo("Commands (add --help to any of them for details):")
    for command in TABLE:
        click.echo(f"  {command.name:<{width}}  {command.help}")
    return EXIT_OK


def _watch(state: AppState, args: list[str]) -> int:
    click.echo("Error: the shell follows its current game live already: 'use GAME_ID' makes "
               "a game current, its board is drawn again on every change ('cq game watch' "
               "outside the shell)", err=True)
    return EXIT_USAGE


def _exit(state: AppState, args: list[str]) -> int:
    raise EOFError


def _cq_help(path: tuple[str, ...]) -> str:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return command.get_short_help_str(limit=60)


def _build_table() -> list[ShellCommand]:
    table = [
        ShellCommand("use", "Set the current game: use <GAME_ID>", builtin=_use),
        ShellCommand("help", "List the commands, or 'help <command>'", builtin=_help),
        ShellCommand("exit", "Leave the shell (also 'quit' or Ctrl-D)", builtin=_exit),
        ShellCommand("quit", "Leave the shell", builtin=_exit),
    ]
    shell_only = {"watch": ShellCommand("watch", "The shell follows its current game live: "
                                        "'use GAME_ID'", builtin=_watch)}
    game = cli.commands["game"]
    assert isinstance(game, click.Group)
    first = ("show", "move", "jump", "place")  # the most used first, as 'help' lists them
    for name in [*first, *sorted(set(game.commands) - set(first))]:
        if name in shell_only:
            table.append(shell_only[name])
            continue
        path = ("game", name)
        suffix = " (current game)" if _acts_on_a_game(game.commands[name]) else ""
        table.append(ShellCommand(name, _cq_help(path) + suffix, cq_path=path))
    listed = {c.name for c in table}
    for name in sorted(cli.commands):
        if name in listed:  # `cq leaderboard` is `cq game leaderboard`: listed once
            continue
        table.append(ShellCommand(name, _cq_help((name,)), cq_path=(name,)))
    return table


def _acts_on_a_game(command: click.Command) -> bool:
    """The command (or every command of the group) takes -g/--game-id."""
    if isinstance(command, click.Group):
        return all(_acts_on_a_game(sub) for sub in command.commands.values())
    return any(param.name == "game_id" for param in command.params)


TABLE: list[ShellCommand] = _build_table()
BY_NAME: dict[str, ShellCommand] = {c.name: c for c in TABLE}


def split_line(line: str) -> list[str]:
    """The words of a command line, shell-quoted; a usage error for unbalanced quotes."""
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise click.UsageError(f"cannot read the command: {exc}") from exc


def dispatch(state: AppState, words: list[str]) -> int:
    """Run one command; returns its exit code (errors are shown, never raised)."""
    if not words:
        return EXIT_OK
    entry = BY_NAME.get(words[0])
    if entry is None:
        click.echo(f"Error: unknown command {words[0]!r}; 'help' lists the commands", err=True)
        return EXIT_USAGE
    if entry.builtin is not None:
        return entry.builtin(state, words[1:])
    args = [*entry.cq_path, *words[1:]]
    if args[:2] == ["game", "watch"] and "--help" not in args and "-h" not in args:
        return _watch(state, args[2:])
    try:
        result = cli.main(args=args, prog_name="", standalone_mode=False, obj=state)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return int(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return EXIT_REFUSED
    return int(result) if isinstance(result, int) else EXIT_OK


def run_line(state: AppState, line: str) -> int:
    try:
        words = split_line(line)
    except click.UsageError as exc:
        exc.show()
        return EXIT_USAGE
    return dispatch(state, words)
