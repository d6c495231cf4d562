"""cq-shell in a real terminal for tests: a tmux session on a private socket.

    terminal = Terminal(f"{sys.executable} -m client.shell.app", shell_env(config, "sue"))
    terminal.type("use 3"); terminal.send("Enter")
    terminal.wait_for("Current game: 3.")
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux") or "/usr/bin/tmux"
WAIT = 20.0


class Terminal:
    """A tmux session on a private socket running one command."""

    def __init__(self, command: str, env: dict[str, str], width: int = 110) -> None:
        self.socket = f"cqtest-{uuid.uuid4().hex[:8]}"
        self.env_prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        self.tmux("new-session", "-d", "-s", "cq", "-x", str(width), "-y", "60",
                  f"env {self.env_prefix} {command}; sleep 30")

    def tmux(self, *args: str) -> str:
        done = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True)
        return done.stdout

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "cq", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "cq", "-l", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "cq", "-S", "-200")

    def visible(self) -> str:
        """What the terminal shows now (without the scrollback `screen` includes)."""
        return self.tmux("capture-pane", "-p", "-t", "cq")

    def wait_for(self, text: str, timeout: float = WAIT) -> str:
        return self.wait_until(lambda screen: text in screen, repr(text), timeout)

    def wait_until(
        self, check: Callable[[str], bool], text: str, timeout: float = WAIT,
        visible: bool = False,
    ) -> str:
        """The screen (only what is visible, with `visible`) once `check` holds."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.visible() if visible else self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text} did not appear within {timeout} s:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def shell_env(config_dir: Path, profile: str) -> dict[str, str]:
    return {
        "CQ_CONFIG_DIR": str(config_dir),
        "CQ_DATA_DIR": str(config_dir / "data"),
        "CQ_PROFILE": profile,
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm-256color",
        "NO_COLOR": "1",
    }
