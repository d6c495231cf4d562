"""The client needs only client/ and corridorquest/engine (what cq.pyz bundles)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_neutral  # no database: what the client imports

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import pkgutil, sys
import client
for module in pkgutil.walk_packages(client.__path__, "client."):
    __import__(module.name)
server_side = sorted(m for m in sys.modules if m.startswith("corridorquest.")
                     and not m.startswith("corridorquest.engine"))
assert not server_side, server_side
assert client.__file__.startswith(sys.argv[1]), client.__file__
print("ok")
"""


def build_zip(target: Path) -> Path:
    archive = target / "cq-client.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for folder in (ROOT / "client", ROOT / "corridorquest" / "engine"):
            for path in folder.rglob("*.py"):
                zf.write(path, path.relative_to(ROOT).as_posix())
        zf.write(ROOT / "corridorquest" / "__init__.py", "corridorquest/__init__.py")
        zf.writestr("__main__.py", "from client.__main__ import main\nmain()\n")
    return archive


def test_client_imports_nothing_of_the_server(tmp_path: Path) -> None:
    archive = build_zip(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(archive))
    done = subprocess.run([sys.executable, "-c", CHECK, str(archive)], capture_output=True,
                          text=True, env=env, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"


def test_zipped_client_runs_cq_and_the_shell(tmp_path: Path) -> None:
    archive = build_zip(tmp_path)
    env = dict(os.environ, CQ_CONFIG_DIR=str(tmp_path / "config"))
    cq = subprocess.run([sys.executable, str(archive), "game", "--help"], capture_output=True,
                        text=True, env=env, timeout=120, cwd=tmp_path)
    assert cq.returncode == 0, cq.stderr
    assert cq.stdout.startswith("Usage: cq game")
    shell = subprocess.run([sys.executable, str(archive), "shell", "-e", "help"],
                           capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert shell.returncode == 0, shell.stderr
    assert "use " in shell.stdout and "move" in shell.stdout
