#!/usr/bin/env python3
"""Build the single-file applications of Corridor Quest with pex.

    python3 zipapp.py                  build dist/corridorquest.pyz, dist/cq.pyz and
                                       dist/cq-admin.pyz
    python3 zipapp.py --server-only    only dist/corridorquest.pyz
    python3 zipapp.py --client-only    only dist/cq.pyz and dist/cq-admin.pyz

dist/corridorquest.pyz is the server (`python3 corridorquest.pyz serve`) with every
dependency, the compiled ones (pydantic-core, uvloop, httptools, ujson, orjson, argon2,
psycopg2 ...) included for CPython 3.11, 3.12 and 3.13 on Linux x86_64 (glibc 2.17 or newer)
and aarch64 (glibc 2.28 or newer: a 64-bit Raspberry Pi OS, say). It is a pex whose
__main__.py is a launcher of ours (SERVER_LAUNCHER below): on the first start with a given
Python it copies out a pex holding only the wheels that Python can use and has pex make a
virtualenv of it (`PEX_TOOLS=1 ... venv`) in PEX_ROOT; every later start runs the server
straight from that virtualenv. pex alone would unpack the wheels of every platform on the
first start and go through its bootstrap on every start (docs/administration.md has the
figures).

dist/cq.pyz is the player's client: `python3 cq.pyz ...` runs `cq`,
`python3 cq.pyz shell ...` runs `cq-shell` (so does `CQ_PYZ_COMMAND=shell python3 cq.pyz`),
and `python3 cq.pyz admin ...` runs `cq-admin`. dist/cq-admin.pyz is the same file under
the name that makes it run `cq-admin` by default (`python3 cq-admin.pyz user list`).
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
# The server's machines, each with the newest glibc (2.N) its wheels may need. x86_64 keeps
# manylinux2014 (glibc 2.17). On aarch64 psycopg2-binary's current wheels need glibc 2.28
# (manylinux2014 would resolve an older psycopg2-binary there than on x86_64); Raspberry
# Pi OS (64-bit) has had glibc 2.31 or newer since its first release.
SERVER_MACHINES = {"x86_64": 17, "aarch64": 28}
# Left out of corridorquest.pyz with what only they need: the terminal client's library
# (the server never imports prompt-toolkit; it does import httpx, to publish to ntfy) and
# setuptools, which sanic declares but does not import.
# tests/test_zipapp.py starts the pyz on CPython 3.11-3.13 and signs up and logs in.
SERVER_EXCLUDES = ("prompt-toolkit", "setuptools")
# The oldest glibc that manylinux tags name per machine (as in packaging's _manylinux).
OLDEST_GLIBC = {"x86_64": 5, "aarch64": 17}
LEGACY_MANYLINUX = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
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
# The distributions the clients import (no compiled code among them). Not zeroconf: it has
# compiled wheels only; cq.pyz's `cq server find` says to install it (client/discovery.py).
CLIENT_DEPENDENCIES = (
    "click", "httpx", "prompt-toolkit", "platformdirs", "python-dotenv", "segno"
)
CLIENT_PACKAGES = ("client", "admin", "corridorquest")
PIP_VERSION = "25.2"
SHELL_ENV = "CQ_PYZ_COMMAND"
CHECK_TOOLS = (
    "import importlib.util as u, sys; "
    "sys.exit(any(u.find_spec(m) is None for m in ('pex', 'pip', 'setuptools')))"
)

CLIENT_LAUNCHER = '''\
"""Entry point of cq.pyz: `cq` by default, `cq-shell` for `shell` or CQ_PYZ_COMMAND=shell,
`cq-admin` for `admin` or when the archive is named cq-admin*.pyz (dist/cq-admin.pyz)."""

import importlib
import os
import sys

COMMANDS = {commands!r}


def main() -> None:
    if sys.version_info < (3, 11):
        sys.exit("cq.pyz needs Python 3.11 or newer")
    args = sys.argv[1:]
    archive = os.path.basename(os.environ.get("PEX", sys.argv[0] if sys.argv else ""))
    default = "admin" if archive.startswith("cq-admin") and "admin" in COMMANDS else "cq"
    name = os.environ.get("{env}", default)
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

# The __main__.py of corridorquest.pyz. Standard library only; the warm path (the virtualenv
# is ready) imports nothing beyond os, sys and zlib and ends in one exec. @...@ are filled in
# by wrap_server().
SERVER_LAUNCHER = r'''"""Start the Corridor Quest server from this file (written by zipapp.py).

This file is also a pex (PEX-INFO, .bootstrap/, .deps/) with wheels for several Pythons
and machines; pex's own __main__.py is __pex_main__.py. The first start with a given
Python copies out a pex of only the wheels that Python can use and has pex make a
virtualenv of it in PEX_ROOT/corridorquest/ (`PEX_TOOLS=1 python that.pex venv DIR`);
every start then runs the server from that virtualenv.
"""

import os
import sys

PEX_HASH = "@PEX_HASH@"
# The directory of this build's virtualenvs in PEX_ROOT/corridorquest/: version and hash.
BUILD = "@BUILD@"
PYTHONS = @PYTHONS@
MACHINES = @MACHINES@
READY = ".corridorquest-ready"


def fail(message):
    sys.stderr.write("corridorquest.pyz: %s\n" % message)
    sys.exit(1)


def python_flags():
    """The interpreter options this file was started with (-I, -X ...)."""
    orig_argv = getattr(sys, "orig_argv", None)
    if not orig_argv:
        return []
    return orig_argv[1:len(orig_argv) - len(sys.argv)]


def versions():
    """'3.11, 3.12 or 3.13'"""
    names = ["%d.%d" % version for version in PYTHONS]
    return ", ".join(names[:-1]) + " or " + names[-1]


def other_python(archive):
    """Start this file again with a suitable CPython from PATH, if there is one."""
    import shutil
    import subprocess

    probe = ("import sys; sys.exit(sys.implementation.name != 'cpython' "
             "or sys.version_info[:2] not in %r)" % (PYTHONS,))
    for version in PYTHONS:
        python = shutil.which("python%d.%d" % version)
        if python and subprocess.call([python, "-I", "-c", probe], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL) == 0:
            os.execv(python, [python] + python_flags() + [archive] + sys.argv[1:])
    this = {"cpython": "CPython", "pypy": "PyPy"}.get(sys.implementation.name,
                                                       sys.implementation.name)
    fail("needs CPython %s; this is %s %d.%d, and PATH has no python%s" % (
        versions(), this, sys.version_info[0], sys.version_info[1], versions()))


def machine():
    """The machine as wheel tags name it; a 32-bit Python on a 64-bit kernel is 32-bit."""
    name = os.uname().machine
    if sys.maxsize < 2**32:
        return {"x86_64": "i686", "aarch64": "armv7l"}.get(name, name)
    return name


def usable(wheel, python, arch):
    """Whether a wheel may suit this Python (pex makes the final choice)."""
    _, abis, platforms = wheel[:-len(".whl")].split("-")[-3:]
    if not any(tag == "any" or tag.endswith("_" + arch) for tag in platforms.split(".")):
        return False
    abis = abis.split(".")
    return python in abis or "abi3" in abis or "none" in abis


def project(wheel):
    return wheel.split("-", 1)[0].lower()


def write_pex(archive, target, python, arch):
    """Copy this file's pex to `target` with only the wheels for `python` on `arch`."""
    import hashlib
    import json
    import zipfile

    with zipfile.ZipFile(archive) as source:
        info = json.loads(source.read("PEX-INFO").decode("utf-8"))
        wheels = info["distributions"]
        keep = {name: value for name, value in wheels.items() if usable(name, python, arch)}
        missing = sorted(set(map(project, wheels)) - set(map(project, keep)))
        if missing:
            fail("has no %s for %s on %s" % (", ".join(missing), python, arch))
        # The pex_hash names pex's unpacked copy in PEX_ROOT: one per set of wheels.
        pex_hash = hashlib.sha1(("%s %s %s" % (PEX_HASH, python, arch)).encode()).hexdigest()
        info["distributions"] = keep
        info["pex_hash"] = pex_hash
        main = source.read("__pex_main__.py").decode("utf-8")
        main = main.replace("pex_hash=%r" % PEX_HASH, "pex_hash=%r" % pex_hash)
        partial = "%s.%d.part" % (target, os.getpid())
        try:
            # pex takes a file for a pex zip only when it starts with a shebang line.
            with open(partial, "wb") as raw:
                raw.write(b"#!/usr/bin/env python3\n")
                with zipfile.ZipFile(raw, "w") as out:
                    for item in source.infolist():
                        parts = item.filename.split("/")
                        if item.filename in ("__main__.py", "__pex_main__.py", "PEX-INFO"):
                            continue
                        dist = parts[1] if parts[0] == ".deps" and len(parts) > 1 else ""
                        if dist and dist not in keep:
                            continue
                        copy = zipfile.ZipInfo(item.filename, item.date_time)
                        copy.external_attr = item.external_attr
                        out.writestr(copy, source.read(item))
                    out.writestr("__main__.py", main)
                    out.writestr("PEX-INFO", json.dumps(info))
            os.replace(partial, target)
        finally:
            if os.path.exists(partial):
                os.remove(partial)


def private_temp_root():
    """PEX_ROOT's stand-in when it cannot be written: a directory of this user's in /tmp."""
    import tempfile

    root = os.path.join(tempfile.gettempdir(), "corridorquest-pex-%d" % os.getuid())
    try:
        os.mkdir(root, 0o700)
    except FileExistsError:
        pass
    status = os.lstat(root)
    if status.st_uid != os.getuid() or status.st_mode & 0o077 or os.path.islink(root):
        fail("%s is not a private directory of this user's: set PEX_ROOT" % root)
    return root


def prepare(archive, root, key, python, arch, fallback=True):
    """Make the virtualenv for this Python in `root` (once: the others wait for it)."""
    import fcntl
    import subprocess

    home = os.path.join(root, "corridorquest", BUILD)
    venv = os.path.join(home, key)
    try:
        os.makedirs(home, exist_ok=True)
        lock = open(venv + ".lck", "a")
    except OSError as error:
        if not fallback:
            fail("cannot write to %s: %s" % (home, error))
        temporary = private_temp_root()
        sys.stderr.write("corridorquest.pyz: cannot write to PEX_ROOT %s (%s); using %s\n"
                         % (root, error, temporary))
        return prepare(archive, temporary, key, python, arch, fallback=False)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready(venv):
            return venv
        sys.stderr.write("corridorquest.pyz: first start with this Python: installing into %s"
                         " (once)\n" % venv)
        sys.stderr.flush()
        pex = venv + ".pex"
        write_pex(archive, pex, python, arch)
        env = dict(os.environ, PEX_TOOLS="1", PEX_ROOT=root)
        done = subprocess.run([sys.executable, "-I", pex, "venv", "--force", venv], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            fail("pex could not make the virtualenv %s:\n%s"
                 % (venv, done.stdout.decode("utf-8", "replace")))
        os.remove(pex)
        open(os.path.join(venv, READY), "w").close()
    return venv


def ready(venv):
    return os.path.exists(os.path.join(venv, READY)) and os.path.exists(
        os.path.join(venv, "bin", "python"))


def main():
    archive = os.path.dirname(os.path.abspath(__file__))
    if not sys.platform.startswith("linux"):
        fail("runs on Linux only, not on %s: install the server from its source there"
             % sys.platform)
    if sys.implementation.name != "cpython" or sys.version_info[:2] not in PYTHONS:
        other_python(archive)
    import zlib

    python = "cp%d%d" % sys.version_info[:2]
    arch = machine()
    if arch not in MACHINES:
        fail("has no wheels for %s machines, only for %s" % (arch, " and ".join(MACHINES)))
    # One virtualenv per interpreter binary: two CPython 3.11 builds get one each.
    key = "%s-%s-%08x" % (python, arch, zlib.crc32(os.path.realpath(sys.executable).encode()))
    root = os.path.abspath(os.path.expanduser(
        os.environ.get("PEX_ROOT") or os.path.join("~", ".cache", "pex")))
    venv = os.path.join(root, "corridorquest", BUILD, key)
    if not ready(venv):
        venv = prepare(archive, root, key, python, arch)
    venv_python = os.path.join(venv, "bin", "python")
    # pex's entry point names this file (not the virtualenv) in usage lines.
    os.environ["PEX"] = archive
    os.execv(venv_python, [venv_python] + python_flags() + [os.path.join(venv, "pex")]
             + sys.argv[1:])


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


def manylinux_platforms(machine: str, newest_glibc: int) -> list[str]:
    """Platform tags of a Linux with glibc 2.`newest_glibc`, most specific first."""
    tags = []
    for minor in range(newest_glibc, OLDEST_GLIBC[machine] - 1, -1):
        tags.append(f"manylinux_2_{minor}_{machine}")
        if minor in LEGACY_MANYLINUX:
            tags.append(f"{LEGACY_MANYLINUX[minor]}_{machine}")
    return [*tags, f"linux_{machine}"]


def cpython_tags(minor: int, platforms: list[str]) -> list[str]:
    """The wheel tags CPython 3.`minor` accepts on `platforms`, in packaging's order."""
    python = f"cp3{minor}"
    older = [f"py3{m}" for m in range(minor - 1, -1, -1)]
    tags = [f"{python}-{abi}-{platform}" for abi in (python, "abi3", "none")
            for platform in platforms]
    tags += [f"cp3{m}-abi3-{platform}" for m in range(minor - 1, 1, -1) for platform in platforms]
    for version in (f"py3{minor}", "py3", *older):
        tags += [f"{version}-none-{platform}" for platform in platforms]
    tags.append(f"{python}-none-any")
    tags += [f"{version}-none-any" for version in (f"py3{minor}", "py3", *older)]
    return tags


def server_platforms(build: Path) -> list[Path]:
    """Complete-platform files: CPython 3.11-3.13 on each of SERVER_MACHINES."""
    paths = []
    for machine, newest_glibc in SERVER_MACHINES.items():
        platforms = manylinux_platforms(machine, newest_glibc)
        for version in PYTHON_VERSIONS:
            minor = int(version[1:])
            platform = {
                "marker_environment": {
                    "implementation_name": "cpython",
                    "implementation_version": f"3.{minor}.0",
                    "os_name": "posix",
                    "platform_machine": machine,
                    "platform_python_implementation": "CPython",
                    "platform_system": "Linux",
                    "python_full_version": f"3.{minor}.0",
                    "python_version": f"3.{minor}",
                    "sys_platform": "linux",
                },
                "compatible_tags": cpython_tags(minor, platforms),
            }
            path = build / f"platform-server-{machine}-cp{version}.json"
            path.write_text(json.dumps(platform, indent=2), encoding="utf-8")
            paths.append(path)
    return paths


def build_server(build: Path, dist: Path, cache: Path) -> Path:
    env = pex_env(cache, "server")
    wheel = build_wheel(build, env)
    pex = build / "corridorquest-all.pex"
    # Wheels kept whole (--no-pre-install-wheels): the launcher copies the ones it needs
    # byte for byte, and pex installs them on the first start, on as many processes as
    # there are cores (--max-install-jobs 0). --include-tools: the launcher has pex make
    # the virtualenv (PEX_TOOLS=1 ... venv).
    command = [*pex_command(), *common_options(env),
               f"corridorquest[postgres] @ {wheel.as_uri()}",
               "--entry-point", "corridorquest.cli:main",
               "--no-pre-install-wheels",
               "--max-install-jobs", "0",
               "--include-tools",
               "--output-file", str(pex)]
    for platform in server_platforms(build):
        command += ["--complete-platform", str(platform)]
    for name in SERVER_EXCLUDES:
        command += ["--exclude", name]
    run(command, env)
    output = dist / "corridorquest.pyz"
    wrap_server(pex, output)
    return output


def wrap_server(pex: Path, output: Path) -> None:
    """corridorquest.pyz: the pex with SERVER_LAUNCHER as __main__.py (pex's main kept)."""
    with zipfile.ZipFile(pex) as source:
        info = json.loads(source.read("PEX-INFO"))
        pex_hash = info["pex_hash"]
        pex_main = source.read("__main__.py").decode("utf-8")
        if pex_main.count(f"pex_hash={pex_hash!r}") != 1:
            raise BuildError(f"{pex.name}: pex's __main__.py does not pass pex_hash as expected")
        build = f"{project()['version']}-{pex_hash[:12]}"
        launcher = (SERVER_LAUNCHER.replace("@PEX_HASH@", pex_hash)
                    .replace("@BUILD@", build)
                    .replace("@PYTHONS@", repr(tuple((3, int(v[1:])) for v in PYTHON_VERSIONS)))
                    .replace("@MACHINES@", repr(tuple(SERVER_MACHINES))))
        partial = output.with_name(output.name + ".part")
        with open(partial, "wb") as fh:
            fh.write(b"#!/usr/bin/env python3\n")
            with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as out:
                out.writestr("__main__.py", launcher)
                out.writestr("__pex_main__.py", pex_main)
                for item in source.infolist():
                    if item.filename != "__main__.py":
                        out.writestr(item, source.read(item))
    partial.chmod(0o755)
    partial.replace(output)


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


def copy_admin(client: Path) -> Path:
    """dist/cq-admin.pyz: the client pyz under the name that makes it start `cq-admin`."""
    admin = client.with_name("cq-admin.pyz")
    shutil.copyfile(client, admin)
    admin.chmod(client.stat().st_mode)
    return admin


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
    only.add_argument("--client-only", action="store_true",
                      help="build only cq.pyz and cq-admin.pyz")
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
            client = build_client(build, dist, cache)
            built += [client, copy_admin(client)]
    except BuildError as exc:
        print(f"zipapp.py: {exc}", file=sys.stderr)
        return 1
    for path in built:
        print(f"built {path} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
