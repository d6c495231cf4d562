"""cq tournament against the real server (SPEC §15, issue 30): a round robin created,
entered by people and a bot, started by its admin only; the games the server started are
shown with the standings; a withdrawal; bad requests exit 4 with the server's reason."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from click.testing import Result

from tests.client.play_helpers import game_json

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben", "cid"]
INSERT_PLAYERS = True
SERVER_SETTINGS = {"bot_workers": 0}  # the games stay as the server started them


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def test_a_round_robin_from_creation_to_a_withdrawal(cq: Cq) -> None:
    made = ok(cq("tournament", "new", "LAN night", "-b", "5", profile="ann"))
    match = re.search(r"Created tournament (\d+): LAN night \(round-robin; 5x5, 2 players\)",
                      made)
    assert match, made
    tid = match.group(1)
    for name in ("ann", "ben", "cid"):
        assert "You entered tournament" in ok(cq("tournament", "join", tid, profile=name))
    assert "Entered the bot of level 1" in ok(cq("tournament", "add-bot", tid, "1",
                                                 profile="ann"))
    listed = ok(cq("tournament", "list", profile="cid"))
    assert f"{tid}: LAN night" in listed and "entering, 4 entrants, admin ann" in listed

    refused = cq("tournament", "start", tid, profile="ben")
    assert refused.exit_code == 4, refused.output
    assert "only the admin of tournament" in refused.output

    started = ok(cq("tournament", "start", tid, profile="ann"))
    assert f"Started tournament {tid}: round 1, 2 games." in started
    games = [int(g) for g in re.findall(r"game (\d+), started", started)]
    assert len(games) == 2, started
    seated = set()
    for game_id in games:
        game = game_json(cq, game_id, "ann")
        assert game["status"] == "started" and game["size"] == 5
        seated |= {seat["username"] for seat in game["seats"]}
    assert seated == {"ann", "ben", "cid", "bot-1"}, "every entrant plays in round 1"
    assert "Standings:" in started

    late = cq("tournament", "add-bot", tid, "2", profile="ann")
    assert late.exit_code == 4 and f"tournament {tid} has started" in late.output

    withdrew = ok(cq("tournament", "leave", tid, profile="cid"))
    assert "You withdrew from tournament" in withdrew
    shown = ok(cq("tournament", "show", tid, profile="ann"))
    assert "cid (withdrawn)" in shown
    assert "cid forfeited" in shown, shown


def test_invisible_walls_are_x_as_in_game_new_and_the_old_i_still_works(cq: Cq) -> None:
    for letter in ("-x", "-i"):  # -i: the former letter, unlisted (an invitation code elsewhere)
        made = ok(cq("tournament", "new", f"Dark {letter}", "-b", "5", letter, profile="ben"))
        assert "(round-robin; 5x5, 2 players, invisible walls)" in made, made
    assert "(round-robin; 5x5, 2 players)" in ok(cq("tournament", "new", "Lit", "-b", "5",
                                                    profile="ben"))
    shown = ok(cq("tournament", "new", "--help", profile="ben"))
    assert "-x, --invisible-walls" in shown and "-i" not in shown.split()


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["tournament", "new", "x", "-k", "swiss"], 4, "a Swiss tournament has 1 to 20 rounds"),
        (["tournament", "new", "x", "-k", "knockout"], 2, "'knockout' is not one of"),
        (["tournament", "new", "x", "-n", "4"], 4, "a round robin is of 2-player games"),
        (["tournament", "show", "999999"], 4, "no tournament 999999"),
        (["tournament", "add-bot", "1", "9"], 2, "9 is not in the range 1<=x<=6"),
    ],
)
def test_bad_requests_exit_with_the_reason(cq: Cq, args: list[str], code: int,
                                           text: str) -> None:
    result = cq(*args, profile="ben")
    assert result.exit_code == code, result.output
    assert text in " ".join(result.output.split())
