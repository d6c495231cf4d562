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
