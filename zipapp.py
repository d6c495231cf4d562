#!/usr/bin/env python3
"""Build the single-file applications of Corridor Quest with pex.

    python3 zipapp.py                  build dist/corridorquest.pyz and dist/cq.pyz
    python3 zipapp.py --server-only    only dist/corridorquest.pyz
    python3 zipapp.py --client-only    only dist/cq.pyz

dist/corridorquest.pyz is the server (`python3 corridorquest.pyz serve`) with every
dependency, the compiled ones (pydantic-core, uvloop, httptools, ujson, argon2, psycopg2)
included for CPython 3.11, 3.12 and 3.13 on x86_64 Linux (manylinux2014).

dist/cq.pyz is the player's client: `python3 cq.pyz ...` runs `cq`,
`python3 cq.pyz shell ...` runs `cq-shell` (so does `CQ_PYZ_COMMAND=shell python3 cq.pyz`),
and `python3 cq.pyz admin ...` runs `cq-admin` once pyproject.toml declares that script.
Its dependencies are pure Python, so it runs on Linux, macOS and Windows with CPython 3.11+.

The standard library's zipapp cannot import compiled extensions from inside an archive;
pex can: on first start it extracts them to its cache (PEX_ROOT, by default ~/.cache/pex;
it falls back to a temporary directory when that is not writable).

The build needs the pex in the project's virtualenv (`python3 dev.py setup`) and PyPI.
Its pex caches live in build/pyz/pex-root/{server,client} or under --cache (PEX_ROOT and
PIP_* variables are ignored), so the build never depends on the user's home directory.
The two caches are separate: pex would otherwise reuse the server's compiled wheels (wcwidth
has abi3 wheels beside its pure one) for the client.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
PYTHON_VERSIONS = ("311", "312", "313")
SERVER_PLATFORMS = tuple(f"manylinux2014_x86_64-cp-{v}-cp{v}" for v in PYTHON_VERSIONS)
# cq.pyz targets CPython 3.11 on each operating system, with only pure-Python wheel tags
# allowed: that keeps out wheels that merely have an optional compiled speed-up (wcwidth
# ships abi3 wheels beside its pure one), and dependencies that only some systems need
# (environment markers such as `platform_system == "Windows"`) are resolved for each.
CLIENT_SYSTEMS = {
    "linux": {"os_name": "posix", "sys_platform": "linux", "platform_system": "Linux"},
    "darwin": {"os_name": "posix", "sys_platform": "darwin", "platform_system": "Darwin"},
    "windows": {"os_name": "nt", "sys_platform": "win32", "platform_system": "Windows"},
}
PURE_TAGS = [f"py3{minor}-none-any" for minor in (11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)]
PURE_TAGS.insert(1, "py3-none-any")
# No --interpreter-constraint: pex would add this machine's interpreter as one more target
# and pull in wheels for it (manylinux_2_28, abi3) beside the ones for the platforms above.
# The distributions the clients import (no compiled code among them).
CLIENT_DEPENDENCIES = ("click", "httpx", "prompt-toolkit", "platformdirs", "python-dotenv")
CLIENT_PACKAGES = ("client", "admin", "corridorquest")
PIP_VERSION = "25.2"
SHELL_ENV = "CQ_PYZ_COMMAND"
CHECK_TOOLS = (
    "import importlib.util as u, sys; "
    "sys.exit(any(u.find_spec(m) is None for m in ('pex', 'pip', 'setuptools')))"
)

CLIENT_LAUNCHER = '''\
"""Entry point of cq.pyz: `cq` by default, `cq-shell` for `shell` or CQ_PYZ_COMMAND=shell."""

import importlib
import os
import sys

COMMANDS = {commands!r}


def main() -> None:
    if sys.version_info < (3, 11):
        sys.exit("cq.pyz needs Python 3.11 or newer")
    args = sys.argv[1:]
    name = os.environ.get("{env}", "cq")
    if args and args[0] in COMMANDS and args[0] != "cq":
        name, args = args[0], args[1:]
    if name not in COMMANDS:
        sys.exit(f"{env}={{name}}: expected one of " + ", ".join(sorted(COMMANDS)))
    module, _, attr = COMMANDS[name].partition(":")
    sys.argv = [("cq-" + name) if name != "cq" else "cq", *args]
    sys.exit(getattr(importlib.import_module(module), attr)())


if __name__ == "__main__":
    main()
'''


class BuildError(Exception):
    """A build step failed; the message says which."""


def project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        data: dict[str, Any] = tomllib.load(fh)["project"]
    return data


def requirement_name(spec: str) -> str:
    for i, ch in enumerate(spec):
        if not (ch.isalnum() or ch in "-_."):
            return spec[:i].lower().replace("_", "-")
    return spec.lower().replace("_", "-")


def client_requirements() -> list[str]:
    """The client's dependencies with the version ranges pyproject.toml gives them."""
    declared = {requirement_name(s): s for s in project()["dependencies"]}
    missing = [name for name in CLIENT_DEPENDENCIES if name not in declared]
    if missing:
        raise BuildError(f"pyproject.toml does not declare {', '.join(missing)}")
    return [declared[name] for name in CLIENT_DEPENDENCIES]


def client_commands() -> dict[str, str]:
    """`cq`, `shell` and `admin` -> entry point, from pyproject.toml's console scripts."""
    scripts: dict[str, str] = project().get("scripts", {})
    commands = {"cq": "cq", "shell": "cq-shell", "admin": "cq-admin"}
    found = {key: scripts[script] for key, script in commands.items() if script in scripts}
    if "cq" not in found:
        found["cq"] = "client.cli:main"
    if "shell" not in found:
        found["shell"] = "client.shell.app:main"
    return found


def run(command: list[str], env: dict[str, str], quiet: bool = False) -> None:
    """Run a build step; a quiet step shows its output only when it fails."""
    print("+ " + " ".join(command), flush=True)
    output = subprocess.PIPE if quiet else None
    done = subprocess.run(command, cwd=ROOT, env=env, stdout=output, stderr=output, text=True)
    if done.returncode != 0:
        if quiet:
            print(done.stdout + done.stderr, file=sys.stderr)
        raise BuildError(f"command failed: {' '.join(command)}")


def pex_env(cache: Path, name: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PEX_"))}
    env["PEX_ROOT"] = str(cache / name)
    return env


def tool_python() -> str:
    """An interpreter that has pex and pip: this one, else the project's .venv."""
    candidates = [sys.executable, str(ROOT / ".venv" / "bin" / "python")]
    for python in candidates:
        probe = [python, "-c", CHECK_TOOLS]
        if Path(python).exists() and subprocess.call(probe, stderr=subprocess.DEVNULL) == 0:
            return python
    raise BuildError("pex is not installed: run `python3 dev.py setup` first")


def pex_command() -> list[str]:
    return [tool_python(), "-m", "pex"]


def common_options(env: dict[str, str]) -> list[str]:
    return [
        "--pex-root", env["PEX_ROOT"],
        "--pip-version", PIP_VERSION,
        "--python-shebang", "/usr/bin/env python3",
        "--no-build",
        "--no-emit-warnings",
    ]


def build_wheel(build: Path, env: dict[str, str]) -> Path:
    """The project's own wheel (pure Python), built without touching the network."""
    wheels = build / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    run([tool_python(), "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(ROOT)], env, quiet=True)
    found = sorted(wheels.glob("corridorquest-*.whl"))
    if not found:
        raise BuildError(f"no wheel was built in {wheels}")
    return found[0]


def build_server(build: Path, dist: Path, cache: Path) -> Path:
    env = pex_env(cache, "server")
    wheel = build_wheel(build, env)
    output = dist / "corridorquest.pyz"
    command = [*pex_command(), *common_options(env),
               f"corridorquest[postgres] @ {wheel.as_uri()}",
               "--entry-point", "corridorquest.cli:main",
               "--output-file", str(output)]
    for platform in SERVER_PLATFORMS:
        command += ["--platform", platform]
    run(command, env)
    return output


def stage_client(build: Path) -> Path:
    """Copy the client sources and a generated launcher into build/cq-src."""
    stage = build / "cq-src"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in CLIENT_PACKAGES:
        if (ROOT / package).is_dir():
            shutil.copytree(ROOT / package, stage / package, ignore=ignore)
    launcher = CLIENT_LAUNCHER.format(commands=client_commands(), env=SHELL_ENV)
    (stage / "cq_pyz.py").write_text(launcher, encoding="utf-8")
    return stage


def client_platforms(build: Path) -> list[Path]:
    """Complete-platform files: CPython 3.11 on each system, pure-Python wheels only."""
    paths = []
    for name, markers in CLIENT_SYSTEMS.items():
        platform = {
            "marker_environment": {
                **markers,
                "implementation_name": "cpython",
                "platform_python_implementation": "CPython",
                "python_version": "3.11",
                "python_full_version": "3.11.0",
            },
            "compatible_tags": PURE_TAGS,
        }
        path = build / f"platform-{name}.json"
        path.write_text(json.dumps(platform, indent=2), encoding="utf-8")
        paths.append(path)
    return paths


def build_client(build: Path, dist: Path, cache: Path) -> Path:
    env = pex_env(cache, "client")
    stage = stage_client(build)
    output = dist / "cq.pyz"
    command = [*pex_command(), *common_options(env), *client_requirements(),
               "--sources-directory", str(stage),
               "--entry-point", "cq_pyz:main",
               "--output-file", str(output)]
    for platform in client_platforms(build):
        command += ["--complete-platform", str(platform)]
    run(command, env)
    check_universal(output)
    return output


def check_universal(pyz: Path) -> None:
    """Refuse a client pyz that picked up a platform-specific wheel."""
    with zipfile.ZipFile(pyz) as archive:
        info = json.loads(archive.read("PEX-INFO"))
    specific = [name for name in info.get("distributions", {}) if not name.endswith("any.whl")]
    if specific:
        raise BuildError(f"{pyz.name} is not universal: {', '.join(specific)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--server-only", action="store_true", help="build only corridorquest.pyz")
    only.add_argument("--client-only", action="store_true", help="build only cq.pyz")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist",
                        help="output directory (default: dist/)")
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "pyz",
                        help="work directory (default: build/pyz/)")
    parser.add_argument("--cache", type=Path,
                        help="pex's download cache (default: pex-root in the work directory)")
    args = parser.parse_args(argv)
    dist, build = args.dist.resolve(), args.build.resolve()
    cache = (args.cache or build / "pex-root").resolve()
    dist.mkdir(parents=True, exist_ok=True)
    build.mkdir(parents=True, exist_ok=True)
    built: list[Path] = []
    try:
        if not args.client_only:
            built.append(build_server(build, dist, cache))
        if not args.server_only:
            built.append(build_client(build, dist, cache))
    except BuildError as exc:
        print(f"zipapp.py: {exc}", file=sys.stderr)
        return 1
    for path in built:
        print(f"built {path} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
