"""dev.py's setup on a fresh clone: runs started at once, and a run that was interrupted.

`python3 dev.py serve &` and `python3 dev.py test` at once on a fresh clone both set up
.venv: the later one must wait for the first, then find the environment ready (it used
to fail with "No module named pip", "installation failed"). Slow: a real install of the
project and its test tools with pip, into a copy of the work tree (what git does not ignore).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"

# a real install: pip may take a while to download the test tools on a slow network
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@dataclass
class Clone:
    path: Path
    first: str  # what the dev.py that created .venv printed
    second: str  # what the dev.py started while the first was at it printed
    codes: tuple[int, int]


def _copy_work_tree(dest: Path) -> None:
    """What a fresh clone of the work tree would have: its files that git does not ignore."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to copy")
    files = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(files, cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.split(b"\0")):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = dest / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONHOME"}}


def _dev(clone: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "dev.py", *args],
        cwd=clone,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clone]:
    """A fresh clone on which two `dev.py setup` ran at once."""
    path = tmp_path_factory.mktemp("clone")
    _copy_work_tree(path)
    said: list[str] = []
    with _dev(path, "setup") as first:
        assert first.stdout is not None
        for line in first.stdout:  # the first holds the lock from here until it is done
            said.append(line)
            if line.startswith("creating virtual environment"):
                break
        with _dev(path, "setup") as second:
            said.append(first.stdout.read())
            second_said, _ = second.communicate()
    yield Clone(path, "".join(said), second_said, (first.returncode, second.returncode))


def test_two_setups_at_once_both_succeed_one_after_the_other(clone: Clone) -> None:
    assert clone.codes == (0, 0), clone.first + "\n----\n" + clone.second
    assert "installing Corridor Quest" in clone.first
    # the second waited for the first, said so, and found .venv ready
    assert "waiting for another dev.py to finish setting up .venv" in clone.second
    assert "installing" not in clone.second and "creating" not in clone.second
    for program in ("cq", "cq-shell", "cq-admin", "corridorquest"):
        shown = subprocess.run(
            [str(clone.path / ".venv" / BIN / program), "--help"], capture_output=True, text=True
        )
        assert shown.returncode == 0, shown.stderr
    # no deprecation warning about the project's own metadata on install
    assert "project.license" not in clone.first


def test_a_setup_interrupted_before_pip_was_installed_is_completed(clone: Clone) -> None:
    """A first run stopped (Ctrl-C) while it created .venv leaves it without pip."""
    python = clone.path / ".venv" / BIN / ("python.exe" if os.name == "nt" else "python")
    removed = subprocess.run(
        [str(python), "-m", "pip", "uninstall", "-y", "-q", "pip"], capture_output=True, text=True
    )
    assert removed.returncode == 0, removed.stderr
    (clone.path / ".venv" / ".installed").unlink()
    again = _dev(clone.path, "setup")
    said, _ = again.communicate()
    assert again.returncode == 0, said
    assert "No module named pip" not in said
    check = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True)
    assert check.returncode == 0


LIGHT_INSTALL_MB = 120  # issue 49: a player's install


def _size_mb(path: Path) -> float:
    files = (f for f in path.rglob("*") if f.is_file() and not f.is_symlink())
    return sum(f.stat().st_size for f in files) / 2**20


def test_serve_installs_the_server_and_clients_only(tmp_path: Path) -> None:
    """The README's first command (`dev.py serve`) installs what the programs need to run,
    not the test tools: at most LIGHT_INSTALL_MB in .venv; `dev.py test` adds them later."""
    _copy_work_tree(tmp_path)
    served = _dev(tmp_path, "serve", "--help")
    said, _ = served.communicate()
    assert served.returncode == 0, said
    assert "installing Corridor Quest into .venv" in said and "test tools" not in said
    python = tmp_path / ".venv" / BIN / ("python.exe" if os.name == "nt" else "python")
    for program in ("cq", "cq-shell", "cq-admin", "corridorquest"):
        shown = subprocess.run(
            [str(tmp_path / ".venv" / BIN / program), "--help"], capture_output=True, text=True
        )
        assert shown.returncode == 0, shown.stderr
    no_pytest = subprocess.run([str(python), "-c", "import pytest"], capture_output=True)
    assert no_pytest.returncode != 0
    size = _size_mb(tmp_path / ".venv")
    assert size <= LIGHT_INSTALL_MB, f".venv holds {size:.0f} MB"
