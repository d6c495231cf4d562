"""A server process holds a bounded number of live streams, and ordinary requests go on.

Beyond STREAMS_MAX stream connections one more is answered 503
`too_many_streams_on_server` with `retry_after` (and Retry-After); moves still work. At
start the soft open-file limit goes up to the hard one, and the default bound is derived
from it.
"""

from __future__ import annotations

import json
import re
import resource
import time
from pathlib import Path

import httpx
import pytest

from tests.support.games import play, started_game
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

pytestmark = pytest.mark.backend_neutral  # stream transport: connection and open-file bounds

ROOT = Path(__file__).resolve().parents[2]


def test_streams_beyond_the_bound_get_503_and_a_move_still_works(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAMS_MAX="3", STREAMS_PER_ADDRESS="50", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("cap1", "cap2")}
        game = started_game(client, tokens)
        url = f"{server.api}/games/{game['id']}/events"
        open_ = [EventReader(url, None).start() for _ in range(2)]
        open_.append(EventReader(f"{server.api}/users/me/events", tokens["cap1"]).start())
        try:
            for reader in open_:
                assert reader.status == 200
                reader.next()
            for token in (None, tokens["cap2"]):  # anybody: anonymous or logged in
                with httpx.stream("GET", url, headers=auth(token) if token else {}) as refused:
                    assert refused.status_code == 503
                    body = json.loads(refused.read())
                    assert body["reason"] == "too_many_streams_on_server"
                    assert body["retry_after"] >= 1
                    assert refused.headers["Retry-After"] == str(body["retry_after"])
            # ordinary requests are served: a move, a look at the game
            square = "e2" if game["turn"] == "south" else "e8"
            moved = play(client, tokens[game["turn_username"]], game["id"], "move", square)
            assert moved.status_code == 201, moved.text
            looked = client.get(f"/games/{game['id']}", headers=auth(tokens["cap2"]))
            assert looked.status_code == 200
            assert open_[0].next("action")["data"]["notation"] == square
            # a stream that ends frees its place
            open_.pop(0).close()
            deadline = time.monotonic() + 5
            while True:
                again = EventReader(url, None).start()
                if again.status == 200 or time.monotonic() > deadline:
                    break
                again.close()
                time.sleep(0.2)
            assert again.status == 200
            open_.append(again)
        finally:
            for reader in open_:
                reader.close()


def _limits(pid: int) -> tuple[int, int]:
    text = Path(f"/proc/{pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)\s+(\d+)", text)
    assert found, text
    return int(found.group(1)), int(found.group(2))


def test_the_soft_open_file_limit_is_raised_and_the_bound_derived_from_it(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))  # the server inherits it
    try:
        context = running_server(tmp_path)
        server = context.__enter__()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        deadline = time.monotonic() + 5
        while True:  # (the log line may come a moment later)
            log = server.log_text()
            workers = re.findall(r"Worker ready \[(\d+)\]", log)
            if workers or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert workers, "no server worker"
        assert _limits(int(workers[-1])) == (hard, hard)
        assert f"at most {max(16, hard // 2 - 100)} connections at once" in log
    finally:
        context.__exit__(None, None, None)


def test_the_systemd_unit_raises_the_open_file_limit() -> None:
    unit = (ROOT / "docs" / "deploy" / "corridorquest.service").read_text()
    assert re.search(r"^LimitNOFILE=65536$", unit, re.MULTILINE)
