"""`corridorquest --help` lists the subcommands without importing them, and says the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from corridorquest.cli import SUBCOMMANDS, main

ROOT = Path(__file__).resolve().parents[1]


def commands_section(help_text: str) -> list[str]:
    lines = help_text.splitlines()
    return lines[lines.index("Commands:"):]


def test_help_lists_each_command_as_the_command_itself_describes_it() -> None:
    fresh = subprocess.run([sys.executable, "-m", "corridorquest", "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, check=True)
    # The same listing with every subcommand imported: click takes their own help texts.
    context = click.Context(main)
    for name in SUBCOMMANDS:
        assert main.get_command(context, name) is not None
    loaded = CliRunner().invoke(main, ["--help"])
    assert loaded.exit_code == 0, loaded.output
    assert commands_section(fresh.stdout) == commands_section(loaded.output)
    assert [line.split()[0] for line in commands_section(fresh.stdout)[1:]] == [
        "backup", "check", "engine", "init-admin", "migrate", "rerate", "restore", "serve"
    ]


def test_an_unknown_command_is_refused() -> None:
    result = CliRunner().invoke(main, ["nonsense"])
    assert result.exit_code == 2
    assert "No such command 'nonsense'" in result.output
