"""Key bindings of the shell: F1 help, F5 draws the current game again."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent


def shell_bindings(show_board: Callable[[], None], show_help: Callable[[], None]) -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("f5")
    def _board(event: KeyPressEvent) -> None:
        run_in_terminal(show_board)

    @bindings.add("f1")
    def _help(event: KeyPressEvent) -> None:
        run_in_terminal(show_help)

    return bindings
