"""The `corridorquest` command: the server and developer tools."""

from __future__ import annotations

import click

from corridorquest import __version__
from corridorquest.perft_cli import engine
from corridorquest.server_cli import serve


@click.group()
@click.version_option(__version__, prog_name="corridorquest")
def main() -> None:
    """Corridor Quest server and developer tools."""


main.add_command(engine)
main.add_command(serve)
