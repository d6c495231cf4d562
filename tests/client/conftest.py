"""Fixtures for the client tests: a private config directory and a `cq` runner; for modules
that play against a real server, that server and a config directory of logged-in players."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from client.cli import cli
from client.state import AppState
from tests.client.play_helpers import add_inserted_players, add_players
from tests.support.server import RunningServer, running_server

Cq = Callable[..., Result]


def make_runner(config_dir: Path) -> Cq:
    """`cq(*args, profile=None, input=None, env=None)` runs cq with its own profiles."""

    def run(*args: str, profile: str | None = None, input: str | None = None,
            env: dict[str, str] | None = None) -> Result:
        full_env = {"CQ_CONFIG_DIR": str(config_dir), "CQ_PROFILE": profile or "",
                    "NO_COLOR": "1"}
        full_env.update(env or {})
        return CliRunner().invoke(
            cli, list(args), input=input, env=full_env, obj=AppState(), prog_name="cq"
        )

    return run


@contextmanager
def runner_in(config_dir: Path) -> Iterator[Cq]:
    """A `cq` runner on `config_dir` with CQ_CONFIG_DIR set, for module-scoped fixtures."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CQ_CONFIG_DIR", str(config_dir))
        yield make_runner(config_dir)


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "config"
    monkeypatch.setenv("CQ_CONFIG_DIR", str(directory))
    monkeypatch.delenv("CQ_PROFILE", raising=False)
    return directory


@pytest.fixture
def cq(config_dir: Path) -> Cq:
    return make_runner(config_dir)


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    """One real server per module, started with the module's SERVER_SETTINGS (if it has any)."""
    settings = getattr(request.module, "SERVER_SETTINGS", {})
    with running_server(tmp_path_factory.mktemp("server"), **settings) as running:
        yield running


@pytest.fixture(scope="module")
def players_config(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
    server: RunningServer,
) -> Path:
    """A config directory with each of the module's PLAYERS logged in in a profile of its own:
    signed up through the mail, or inserted into the database if the module sets
    INSERT_PLAYERS = True."""
    directory = tmp_path_factory.mktemp("config")
    add = add_inserted_players if getattr(request.module, "INSERT_PLAYERS", False) else add_players
    add(server, directory, list(request.module.PLAYERS))
    return directory


@pytest.fixture
def players_cq(players_config: Path, monkeypatch: pytest.MonkeyPatch) -> Cq:
    """`cq` on the players' config directory (a module takes it as its `cq`)."""
    monkeypatch.setenv("CQ_CONFIG_DIR", str(players_config))
    return make_runner(players_config)
