"""Fixtures for the client tests: a private config directory and a `cq` runner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from client.cli import cli
from client.state import AppState

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


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "config"
    monkeypatch.setenv("CQ_CONFIG_DIR", str(directory))
    monkeypatch.delenv("CQ_PROFILE", raising=False)
    return directory


@pytest.fixture
def cq(config_dir: Path) -> Cq:
    return make_runner(config_dir)
