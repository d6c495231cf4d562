"""A client program run as a subprocess whose output the test reads as it comes.

    with LiveProcess([sys.executable, "-m", "client", "game", "watch", "-g", "3"], env) as cq:
        cq.wait_for("revision 2")
        cq.wait_for("connection lost", stream="stderr")
        assert cq.wait_exit() == 0

Each of stdout and stderr is read in a thread into a growing text; `wait_for` waits until
a text appears after the position of the last text it found on that stream (so the same
words can be waited for twice). The process is killed when the block ends.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO

from tests.support.server import ROOT


class LiveProcess:
    def __init__(self, args: Sequence[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            list(args), env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.texts = {"stdout": "", "stderr": ""}
        self.seen = {"stdout": 0, "stderr": 0}
        self._lock = threading.Lock()
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            threading.Thread(target=self._read, args=(name, pipe), daemon=True)
            for name, pipe in (("stdout", self.process.stdout), ("stderr", self.process.stderr))
        ]
        for reader in self._readers:
            reader.start()

    def __enter__(self) -> LiveProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        for reader in self._readers:
            reader.join(5)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()

    def _read(self, name: str, pipe: IO[str]) -> None:
        for line in iter(pipe.readline, ""):
            with self._lock:
                self.texts[name] += line

    def text(self, stream: str = "stdout") -> str:
        with self._lock:
            return self.texts[stream]

    def wait_for(self, text: str, timeout: float = 10.0, stream: str = "stdout") -> str:
        """The output from the last text found to the end of ``text``, once it appears."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.text(stream).find(text, self.seen[stream])
            if found >= 0:
                start, self.seen[stream] = self.seen[stream], found + len(text)
                return self.text(stream)[start:found + len(text)]
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{text!r} did not appear on {stream} within {timeout} s; stdout:\n"
                    f"{self.text()[-3000:]}\nstderr:\n{self.text('stderr')[-3000:]}"
                )
            if self.process.poll() is not None and all(not r.is_alive() for r in self._readers):
                if self.text(stream).find(text, self.seen[stream]) < 0:
                    raise AssertionError(
                        f"the process exited ({self.process.returncode}) before {text!r}; "
                        f"stdout:\n{self.text()[-3000:]}\nstderr:\n{self.text('stderr')[-3000:]}"
                    )
            time.sleep(0.05)

    def interrupt(self) -> None:
        """Ctrl-C."""
        self.process.send_signal(signal.SIGINT)

    def wait_exit(self, timeout: float = 15.0) -> int:
        code = self.process.wait(timeout)
        for reader in self._readers:
            reader.join(5)
        return code
