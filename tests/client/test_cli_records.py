"""cq game export against the real server (issue 31 item 2): one game to standard
output or a file, as text or JSON; a user's finished games as one file; refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from corridorquest.records import parse_records, record_from_json, replay
from tests.client.conftest import runner_in
from tests.client.play_helpers import created_id, game_json, play_to_the_end

pytestmark = pytest.mark.backend_neutral  # cq's output; export on both: tests/api

Cq = Callable[..., Result]
PLAYERS = ["exann", "exben", "excat"]
INSERT_PLAYERS = True


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def new_started(cq: Cq, size: str = "5", private: bool = False) -> int:
    created = cq("game", "new", "-b", size, *(["-p"] if private else []), profile="exann")
    assert created.exit_code == 0, created.output
    game = created_id(created)
    code = game_json(cq, game, "exann")["invitation_code"]
    joined = cq("game", "join", "-g", str(game), "-i", code, profile="exben")
    assert joined.exit_code == 0, joined.output
    return game


@pytest.fixture(scope="module")
def finished(players_config: Path) -> list[tuple[int, dict]]:
    """Two finished games of exann and exben (5x5 and 7x7), with their final views."""
    with runner_in(players_config) as cq:
        done = []
        for size in ("5", "7"):
            game = new_started(cq, size)
            done.append((game, play_to_the_end(cq, game, ["exann", "exben"])))
        return done


def final_pawns(record_text: str) -> list[dict[str, str]]:
    return [replay(r)[-1].to_dict()["pawns"] for r in parse_records(record_text)]


def test_export_one_game_to_standard_output(cq: Cq, finished: list) -> None:
    game, view = finished[0]
    result = cq("game", "export", "-g", str(game), profile="excat")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f'[Game "{game}"]\n')
    assert final_pawns(result.output) == [view["pawns"]]


def test_export_to_a_file_and_as_json(cq: Cq, finished: list, tmp_path: Path) -> None:
    game, view = finished[1]
    target = tmp_path / "game.cqr"
    result = cq("game", "export", "-g", str(game), "-o", str(target), profile="exann")
    assert result.exit_code == 0, result.output
    assert final_pawns(target.read_text(encoding="utf-8")) == [view["pawns"]]
    as_json = cq("game", "export", "-g", str(game), "--json", profile="exann")
    assert as_json.exit_code == 0, as_json.output
    record = record_from_json(json.loads(as_json.output))
    assert replay(record)[-1].to_dict()["pawns"] == view["pawns"]


def test_export_a_users_finished_games_as_one_file(
    cq: Cq, finished: list, tmp_path: Path
) -> None:
    in_play = new_started(cq)  # not finished: not exported
    target = tmp_path / "all.cqr"
    result = cq("game", "export", "--user", "exben", "--finished", "-o", str(target),
                profile="excat")
    assert result.exit_code == 0, result.output
    records = parse_records(target.read_text(encoding="utf-8"))
    assert [int(r.tags["Game"]) for r in records] == [game for game, _ in finished]
    assert in_play not in [int(r.tags["Game"]) for r in records]
    assert [replay(r)[-1].to_dict()["pawns"] for r in records] == [
        view["pawns"] for _, view in finished
    ]
    as_json = cq("game", "export", "--user", "exben", "--finished", "--json", profile="exann")
    assert len(json.loads(as_json.output)["records"]) == 2


def test_a_private_game_is_refused_to_others(cq: Cq) -> None:
    game = new_started(cq, private=True)
    assert cq("game", "export", "-g", str(game), profile="exben").exit_code == 0
    refused = cq("game", "export", "-g", str(game), profile="excat")
    assert refused.exit_code == 4, refused.output
    assert f"no game {game}" in refused.output


def test_usage_errors(cq: Cq) -> None:
    assert cq("game", "export", profile="exann").exit_code == 2
    assert cq("game", "export", "-g", "1", "--user", "exann", profile="exann").exit_code == 2
    assert cq("game", "export", "--user", "exann", profile="exann").exit_code == 2


def test_import_a_file_exported_before(cq: Cq, finished: list, tmp_path: Path) -> None:
    target = tmp_path / "all.cqr"
    assert cq("game", "export", "--user", "exann", "--finished", "-o", str(target),
              profile="exann").exit_code == 0
    result = cq("game", "import", str(target), profile="excat")
    assert result.exit_code == 0, result.output
    ids = [int(word.rstrip(".")) for word in result.output.split() if word[0].isdigit()]
    assert len(ids) == 2
    for new_id, (_, view) in zip(ids, finished, strict=True):
        assert game_json(cq, new_id, "exben")["pawns"] == view["pawns"]


def test_import_names_the_first_illegal_action_and_stores_nothing(
    cq: Cq, tmp_path: Path
) -> None:
    target = tmp_path / "bad.cqr"
    target.write_text('[Size "9"]\n1. e2 e8 2. e3 e7 3. e4 e6 4. e5 e5\n', encoding="utf-8")
    before = cq("game", "list", "-s", "finished", profile="excat").output
    result = cq("game", "import", str(target), profile="excat")
    assert result.exit_code == 4, result.output
    assert "action 8" in result.output and "occupied" in result.output
    assert cq("game", "list", "-s", "finished", profile="excat").output == before
    missing = cq("game", "import", str(tmp_path / "nope.cqr"), profile="excat")
    assert missing.exit_code == 2 and "cannot read" in missing.output
