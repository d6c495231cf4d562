"""Finding servers on the local network (issue 30, item 1; SPEC §15): real servers
announce themselves by mDNS on 127.0.0.1 (DISCOVERY=on, as a party's server does on its
network address), `cq server find` hears them within its 2 s, and `cq login` without a
server URL offers them. A server with DISCOVERY=off, or auto on loopback, is not heard.
"""

from __future__ import annotations

import re
import secrets
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from client.discovery import SERVICE_TYPE
from tests.client.conftest import Cq
from tests.client.terminal import Terminal, shell_env
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, insert_users

pytestmark = pytest.mark.backend_neutral  # mDNS on loopback, not the database

TAG = secrets.token_hex(3)  # names no other test's server carries
ANNOUNCED = {"alpha": "on", "beta": "on", "gamma": "off", "delta": "auto"}


def announced(server: RunningServer) -> None:
    """Wait until the server's log says its announcement is made (probing takes ~2 s)."""
    deadline = time.monotonic() + 15
    while "announced on the local network" not in server.log_text():
        assert time.monotonic() < deadline, server.log_text()[-2000:]
        time.sleep(0.05)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, RunningServer]]:
    with ExitStack() as stack:
        running = {
            name: stack.enter_context(running_server(
                tmp_path_factory.mktemp(name), DISCOVERY=setting,
                DISCOVERY_NAME=f"{name}-{TAG}",
            ))
            for name, setting in ANNOUNCED.items()
        }
        for name, setting in ANNOUNCED.items():
            if setting == "on":
                announced(running[name])
            else:
                assert "announced on the local network" not in running[name].log_text()
        yield running


def found_lines(output: str) -> dict[str, str]:
    """URL -> its line of `cq server find`."""
    return {m.group(1): line for line in output.splitlines()
            if (m := re.search(r"(https?://\S+)", line))}


def test_cq_server_find_lists_the_announcing_servers_within_two_seconds(
    cq: Cq, servers: dict[str, RunningServer]
) -> None:
    started = time.monotonic()
    result = cq("server", "find")
    took = time.monotonic() - started
    assert result.exit_code == 0, result.output
    lines = found_lines(result.output)
    for name in ("alpha", "beta"):
        line = lines.get(servers[name].base_url)
        assert line is not None, f"{name} not found:\n{result.output}"
        assert f"{name}-{TAG}" in line and "(version 0.1.0)" in line
    assert servers["gamma"].base_url not in lines  # DISCOVERY=off
    assert servers["delta"].base_url not in lines  # auto, bound to loopback
    assert f"gamma-{TAG}" not in result.output and f"delta-{TAG}" not in result.output
    assert took < 4.0  # 2 s of listening, and the answers already cached


def test_the_announcement_tells_version_name_url_and_tls_and_nothing_else(
    servers: dict[str, RunningServer],
) -> None:
    from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, Zeroconf

    zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        heard: list[str] = []
        browser = ServiceBrowser(
            zeroconf, SERVICE_TYPE, handlers=[lambda name, **_: heard.append(name)]
        )
        deadline = time.monotonic() + 3
        while not any(f"alpha-{TAG}" in n for n in heard) and time.monotonic() < deadline:
            time.sleep(0.05)
        browser.cancel()
        name = next(n for n in heard if f"alpha-{TAG}" in n)
        info = ServiceInfo(SERVICE_TYPE, name)
        assert info.request(zeroconf, 2000)
        assert info.properties == {
            b"version": b"0.1.0",
            b"name": f"alpha-{TAG}".encode(),
            b"url": servers["alpha"].base_url.encode(),
            b"tls": b"0",
        }
        assert info.port == int(servers["alpha"].base_url.rsplit(":", 1)[1])
    finally:
        zeroconf.close()


def test_cq_login_without_a_server_url_offers_the_servers_found(
    tmp_path: Path, servers: dict[str, RunningServer]
) -> None:
    beta = servers["beta"]
    insert_users(beta.database_url, ["partygoer"])
    config = tmp_path / "config"  # a new player: no profile yet
    terminal = Terminal(
        f"{sys.executable} -m client.cli login -u partygoer -p '{DEFAULT_PASSWORD}'",
        shell_env(config, "default"),
    )
    try:
        screen = terminal.wait_for("Which one")
        number = next(
            m.group(1) for line in screen.splitlines()
            if beta.base_url in line and (m := re.match(r"\s*(\d+)\. ", line))
        )
        assert servers["gamma"].base_url not in screen
        terminal.type(number)
        terminal.send("Enter")
        terminal.wait_for(f"Logged in as partygoer on {beta.base_url}.")
    finally:
        terminal.close()
    saved = (config / "profiles" / "default.json").read_text()
    assert beta.base_url in saved

