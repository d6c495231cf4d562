"""Completion for the shell: commands, options, game ids, legal squares and walls.

Command and option names come from the command table and the click commands behind it;
game ids and the legal targets of ``move``/``jump``/``place`` come from the shell's
:class:`~client.shell.live.GameWatch`, which keeps the current game and the game list.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable

import click
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from client.cli import cli
from client.legal import legal_targets
from client.shell.commands import BY_NAME, TABLE
from client.shell.live import GameWatch

TARGET_KINDS = {"move": "move", "jump": "jump", "place": "wall"}


def _words(text: str) -> tuple[list[str], str]:
    """The complete words before the cursor and the word being typed."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if text and not text[-1].isspace() and words:
        return words[:-1], words[-1]
    return words, ""


def _game_id_in(args: list[str]) -> int | None:
    """The value of -g/--game-id among the words, if given."""
    for i, word in enumerate(args):
        value = None
        if word in ("-g", "--game-id") and i + 1 < len(args):
            value = args[i + 1]
        elif word.startswith("--game-id="):
            value = word.split("=", 1)[1]
        elif word.startswith("-g") and len(word) > 2:
            value = word[2:]
        if value is not None and value.isdigit():
            return int(value)
    return None


class ShellCompleter(Completer):
    def __init__(self, watch: GameWatch) -> None:
        self.watch = watch

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        done, current = _words(document.text_before_cursor)
        for text, meta in self.candidates(done, current):
            if text.startswith(current):
                yield Completion(text, start_position=-len(current), display_meta=meta)

    def candidates(self, done: list[str], current: str) -> list[tuple[str, str]]:
        if not done:
            return [(c.name, c.help) for c in TABLE]
        entry = BY_NAME.get(done[0])
        if entry is None:
            return []
        if entry.name == "use":
            return self.game_ids() if len(done) == 1 else []
        if entry.name == "help":
            return [(c.name, c.help) for c in TABLE] if len(done) == 1 else []
        command: click.Command = cli
        rest = [*entry.cq_path, *done[1:]]
        consumed = 0
        for word in rest:
            sub = None
            if isinstance(command, click.Group):  # get_command: also other spellings
                sub = command.get_command(click.Context(command), word)
            if sub is None:
                break
            command = sub
            consumed += 1
        args = rest[consumed:]
        if isinstance(command, click.Group):
            return [(name, sub.get_short_help_str(50)) for name, sub in command.commands.items()]
        option = self._pending_option(command, args)
        if option is not None:
            return self.option_values(option)
        if current.startswith("-"):
            return self.option_names(command)
        return self.arguments(command, args)

    @staticmethod
    def _pending_option(command: click.Command, args: list[str]) -> click.Option | None:
        """The option whose value is being typed (the last word is that option)."""
        if not args:
            return None
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag and args[-1] in param.opts:
                return param
        return None

    @staticmethod
    def option_names(command: click.Command) -> list[tuple[str, str]]:
        names = []
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts + param.secondary_opts:
                    names.append((opt, param.help or ""))
        names.append(("--help", "Show the help"))
        return names

    def option_values(self, option: click.Option) -> list[tuple[str, str]]:
        if option.name == "game_id":
            return self.game_ids()
        if isinstance(option.type, click.Choice):
            return [(str(c), "") for c in option.type.choices]
        return []

    def arguments(self, command: click.Command, args: list[str]) -> list[tuple[str, str]]:
        kind = TARGET_KINDS.get(command.name or "")
        if kind and command.name in ("move", "jump", "place"):
            game = self.watch.game_for(_game_id_in(args))
            if game is None:
                return []
            return [(t, kind) for t in legal_targets(game, kind)]
        for param in command.params:
            if isinstance(param, click.Argument) and isinstance(param.type, click.Choice):
                return [(str(c), "") for c in param.type.choices]
        return []

    def game_ids(self) -> list[tuple[str, str]]:
        return [
            (str(g["id"]), f"{g['status']} {g['size']}x{g['size']} "
             f"{', '.join(g.get('usernames') or [])}")
            for g in self.watch.games()
        ]
