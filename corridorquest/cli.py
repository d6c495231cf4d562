"""The `corridorquest` command: the server and developer tools.

Each subcommand's module is imported only when that subcommand runs (or shows its own
help): `corridorquest --help` and `--version` import click alone, and `serve` does not
import the developer tools.
"""

from __future__ import annotations

import importlib

import click

from corridorquest import __version__

# name -> (module, attribute, the one-line help `corridorquest --help` shows for it)
SUBCOMMANDS = {
    "backup": (
        "corridorquest.operations_cli",
        "backup",
        "Copy the SQLite database to FILE while the server runs.",
    ),
    "check": (
        "corridorquest.operations_cli",
        "check",
        "Check the database and replay every stored game.",
    ),
    "engine": ("corridorquest.perft_cli", "engine", "Developer tools for the rules engine."),
    "init-admin": (
        "corridorquest.operations_cli",
        "init_admin",
        "(Re)create the admin user with a new password.",
    ),
    "migrate": (
        "corridorquest.operations_cli",
        "migrate",
        "Run the pending database migrations.",
    ),
    "rerate": (
        "corridorquest.operations_cli",
        "rerate",
        "Recompute every rating from the stored games.",
    ),
    "restore": (
        "corridorquest.operations_cli",
        "restore",
        "Replace the SQLite database with a backup (server stopped).",
    ),
    "serve": (
        "corridorquest.server_cli",
        "serve",
        "Start the Corridor Quest server (creates and migrates the database on first start).",
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in SUBCOMMANDS:
            return command
        module, attribute, _ = SUBCOMMANDS[cmd_name]
        loaded: click.Command = getattr(importlib.import_module(module), attribute)
        self.add_command(loaded, cmd_name)
        return loaded

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands, from SUBCOMMANDS' help lines (nothing is imported)."""
        listed = click.Group(commands=[
            self.commands.get(name) or click.Command(name, help=SUBCOMMANDS[name][2])
            for name in self.list_commands(ctx)
        ])
        listed.format_commands(ctx, formatter)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="corridorquest")
def main() -> None:
    """Corridor Quest server and developer tools."""
