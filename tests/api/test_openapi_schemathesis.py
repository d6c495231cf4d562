"""Schemathesis over /api-docs/openapi.json: no 5xx, no response that breaks the schema.

The real server runs on loopback (the module's `server` fixture). Schemathesis reads the
published OpenAPI document and generates requests for every operation (examples, coverage
of valid and invalid values, random fuzzing, stateful sequences), sends them as a
logged-in user, and checks each answer: not a server error, a documented status code and
content type, and a body that matches the documented schema.

Schemathesis runs through its CLI in a subprocess: its pytest integration
(`schemathesis.pytest.from_fixture`) fails on this pytest version, and the CLI keeps its
warnings out of our `filterwarnings = error`. Path parameters are pinned to things that
exist (a started game of the user, a real username) so that requests reach the handlers'
logic rather than stopping at 404; everything else is generated. Logout is left out (it
would end the session the rest of the run uses; tests/api/test_sessions.py covers it).
The number of examples per operation is bounded so the run stays well under 2 minutes;
CQ_FUZZ_EXAMPLES and CQ_FUZZ_SEED change the volume and the seed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from tests.support.games import started_game
from tests.support.server import RunningServer
from tests.support.users import insert_user

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "unsupported_method",
    "allow_header_conformance",
    "positive_data_acceptance",
)
EXAMPLES = int(os.environ.get("CQ_FUZZ_EXAMPLES", "25"))
SEED = int(os.environ.get("CQ_FUZZ_SEED", "1"))
RUN_TIMEOUT = 240


def schemathesis(
    server: RunningServer, token: str, config: Path
) -> subprocess.CompletedProcess[str]:
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(config),
        "run",
        server.base_url + "/api-docs/openapi.json",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--request-timeout",
        "10",
        "--header",
        f"Authorization: Bearer {token}",
        "--exclude-name",
        "DELETE /api/v1/sessions/current",
        # live streams never end by themselves (tests/live reads them)
        "--exclude-name",
        "GET /api/v1/games/{game_id}/events",
        "--exclude-name",
        "GET /api/v1/games/events",
        "--exclude-name",
        "GET /api/v1/users/me/events",
    ]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    return subprocess.run(
        command, cwd=config.parent, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT
    )


def _only_tool_errors(output: str) -> bool:
    """True when schemathesis failed only with errors of its own (no failed check)."""
    return "Runtime Error" in output and "FAILURES" not in output and "Failures:" not in output


def test_generated_requests_get_no_server_error_and_answers_that_match_the_schema(
    server: RunningServer, tmp_path: Path
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("fuzzer", "fuzzmate")}
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        game = started_game(client, tokens)
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        f'[parameters]\n"path.game_id" = {game["id"]}\n"path.username" = "fuzzmate"\n'
        # A request that fits the document may still be refused by a rule of the game or
        # the state (422: an illegal move, a reused key; 404, 409...): "accepted" means
        # anything but a 400, which says the request does not fit the declared shape.
        "[checks.positive_data_acceptance]\n"
        'expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]\n',
        encoding="utf-8",
    )

    done = schemathesis(server, tokens["fuzzer"], config)
    if done.returncode != 0 and _only_tool_errors(done.stdout):
        # CPython 3.11 can raise "AST constructor recursion depth mismatch" inside
        # schemathesis's own generator (a tool crash, not a finding about our server):
        # run once more; a finding about the server fails at once.
        done = schemathesis(server, tokens["fuzzer"], config)

    report = done.stdout[-12000:] + done.stderr[-3000:]
    assert done.returncode == 0, report
    assert "generated" in done.stdout and "passed" in done.stdout, report
    assert "Tested: 0" not in done.stdout, report
    # The server must still be healthy after the barrage.
    info = httpx.get(server.api + "/server/info", timeout=10.0)
    assert info.status_code == 200
