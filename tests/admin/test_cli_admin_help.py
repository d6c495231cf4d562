"""`cq-admin --help` at every level; failures without a server or a session are one line
with cq's exit codes."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from admin.cli import cli
from admin.profiles import AdminProfileStore
from client.profiles import Profile
from tests.admin.admin_support import make_runner
from tests.support.server import free_port

pytestmark = pytest.mark.backend_neutral  # no database: cq-admin's help and usage errors


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.extend(commands(command, (*path, name)))
        else:
            found.append((*path, name))
    return found


def test_every_command_has_help(tmp_path: Path) -> None:
    run = make_runner(tmp_path)
    every = commands(cli)
    assert ("user", "delete") in every and ("server", "settings") in every and ("audit",) in every
    for path in every:
        result = run(*path, "--help", profile="")
        assert result.exit_code == 0, (path, result.output)
        assert "Usage: cq-admin" in result.output and len(result.output.splitlines()) > 3


def test_not_logged_in_and_unreachable_server_are_one_line_each(tmp_path: Path) -> None:
    run = make_runner(tmp_path)
    fresh = run("user", "list", profile="")
    assert fresh.exit_code == 3
    assert fresh.output.strip() == "Error: not logged in: run 'cq-admin login' first"
    url = f"http://127.0.0.1:{free_port()}"
    AdminProfileStore(tmp_path).save(Profile(name="gone", server_url=url, token="t"))
    unreachable = run("server", "stats", profile="gone")
    assert unreachable.exit_code == 5
    assert len(unreachable.output.strip().splitlines()) == 1
    assert "cannot reach the server" in unreachable.output
