"""What the cq-admin tests share: the users of the module's server and a runner."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from admin.cli import cli
from admin.profiles import AdminProfileStore
from admin.state import AdminState

Admin = Callable[..., Result]
ADMIN = "root"
PLAYER = "pleb"


def make_runner(config_dir: Path) -> Admin:
    """`cq_admin(*args, profile=ADMIN, input=None, env=None)` runs cq-admin on `config_dir`."""

    def run(*args: str, profile: str = ADMIN, input: str | None = None,
            env: dict[str, str] | None = None) -> Result:
        full_env = {"CQ_CONFIG_DIR": str(config_dir), "CQ_ADMIN_PROFILE": profile,
                    "CQ_PROFILE": "", "NO_COLOR": "1"}
        full_env.update(env or {})
        state = AdminState(store=AdminProfileStore(config_dir))
        return CliRunner().invoke(cli, list(args), input=input, env=full_env, obj=state,
                                  prog_name="cq-admin")

    return run


def assert_refused_to_a_player(cq_admin: Admin, command: tuple[str, ...]) -> None:
    """`command` run as the player: exit code 4 and one line saying why."""
    refused = cq_admin(*command, profile=PLAYER)
    assert refused.exit_code == 4, refused.output
    assert "only system administrators" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
