"""cq game message send / list / mute against the real server, with every refusal."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from click.testing import Result

from corridorquest.store import Store
from corridorquest.store.models import GameMessage, User, utcnow
from tests.client.play_helpers import created_id
from tests.support.server import RunningServer

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben", "cat", "eve"]
INSERT_PLAYERS = True
LIMIT = 3
SERVER_SETTINGS = {"MESSAGE_LIMIT": LIMIT}


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def ok(cq: Cq, *args: str, profile: str) -> str:
    result = cq(*args, profile=profile)
    assert result.exit_code == 0, result.output
    return result.output


def listing(cq: Cq, game_id: int, profile: str) -> str:
    return ok(cq, "game", "message", "list", "-g", str(game_id), profile=profile)


def four_player_game(cq: Cq) -> int:
    """A started 4-player game of ann, ben, cat and eve."""
    game_id = created_id(cq("game", "new", "-n", "4", "-b", "5", profile="ann"))
    for name in ("ben", "cat", "eve"):
        ok(cq, "game", "join", "-g", str(game_id), profile=name)
    return game_id


def two_player_game(cq: Cq, *options: str) -> int:
    created = cq("game", "new", "-b", "5", *options, profile="ann")
    game_id = created_id(created)
    code = re.search(r"Invitation code: (\S+)", created.output)
    extra = ["-i", code.group(1)] if code else []
    ok(cq, "game", "join", "-g", str(game_id), *extra, profile="ben")
    return game_id


def test_broadcasts_dms_system_messages_and_mute_through_cq(cq: Cq) -> None:
    game_id = four_player_game(cq)
    g = str(game_id)
    sent = ok(cq, "game", "message", "send", "-g", g, "good", "luck", "all", profile="ann")
    assert f"Broadcast sent to game {game_id}" in sent
    dm = ok(cq, "game", "message", "send", "-g", g, "--to", "ben", "ally with me?", profile="ann")
    assert "DM to ben sent" in dm

    ben = listing(cq, game_id, "ben")
    assert "[system] ann created the game (5x5, 4 players)" in ben
    assert "[system] The game started:" in ben
    assert "[ann] good luck all" in ben
    assert "[ann -> ben (DM)] ally with me?" in ben
    cat = listing(cq, game_id, "cat")
    assert "[ann] good luck all" in cat and "ally with me?" not in cat

    muted = ok(cq, "game", "message", "mute", "-g", g, "ann", profile="cat")
    assert f"ann is muted in game {game_id}. Muted: ann." in muted
    cat = listing(cq, game_id, "cat")
    assert "good luck all" not in cat and "[system] ann created the game" in cat
    assert "Muted: ann" in cat
    ok(cq, "game", "message", "mute", "-g", g, "ann", "--off", profile="cat")
    assert "[ann] good luck all" in listing(cq, game_id, "cat")


def test_a_non_player_reads_broadcasts_of_public_games_only(cq: Cq) -> None:
    public = two_player_game(cq)
    ok(cq, "game", "message", "send", "-g", str(public), "hello world", profile="ann")
    ok(cq, "game", "message", "send", "-g", str(public), "-t", "ben", "just us", profile="ann")
    seen = listing(cq, public, "cat")
    assert "[ann] hello world" in seen and "just us" not in seen

    private = two_player_game(cq, "--private")
    ok(cq, "game", "message", "send", "-g", str(private), "hush", profile="ann")
    hidden = cq("game", "message", "list", "-g", str(private), profile="cat")
    assert hidden.exit_code == 4 and "no game" in hidden.output and "hush" not in hidden.output


def test_refused_messages_change_nothing(cq: Cq) -> None:
    game_id = two_player_game(cq)
    g = str(game_id)
    for number in range(LIMIT):
        ok(cq, "game", "message", "send", "-g", g, f"note {number}", profile="ann")
    before = {name: listing(cq, game_id, name) for name in ("ann", "ben", "cat")}

    def refused(*args: str, profile: str, says: str, code: int = 4) -> None:
        result = cq("game", "message", *args, profile=profile)
        assert result.exit_code == code, result.output
        assert says in result.output, result.output

    refused("send", "-g", g, "one more", profile="ann", says=f"the limit is {LIMIT}")
    refused("send", "-g", g, "--to", "cat", "hi", profile="ben", says="cat is not a player of game")
    refused("send", "-g", g, "--to", "nobody", "hi", profile="ben", says="no user nobody")
    refused("send", "-g", g, "let me play", profile="cat", says="not a player")
    refused("mute", "-g", g, "cat", profile="ben", says="cat is not a player of game")
    refused("mute", "-g", g, "ben", profile="ben", says="cannot mute yourself")
    refused("send", "-g", g, profile="ben", says="TEXT", code=2)
    refused("send", "-g", g, "   ", profile="ben", says="needs some text")
    assert {name: listing(cq, game_id, name) for name in before} == before


def test_a_private_trade_is_labelled_with_the_other_party_and_leaves_no_gap(cq: Cq) -> None:
    game_id = four_player_game(cq)
    g = str(game_id)
    ok(cq, "game", "offer", "-g", g, "selling", "ben", profile="ann")
    ok(cq, "game", "trade", "-g", g, "buying", "ann", profile="ben")
    ok(cq, "game", "message", "send", "-g", g, "anyone", "trading?", profile="eve")

    sold = "ann sold a wall to ben on ann's offer"
    ben = listing(cq, game_id, "ben")
    assert f"[system (private, with ann)] {sold}" in ben, ben
    assert "(private, ben)" not in ben and "with ben" not in ben
    ann = listing(cq, game_id, "ann")
    assert f"[system (private, with ben)] {sold}" in ann, ann
    cat = listing(cq, game_id, "cat")
    assert "private" not in cat and sold not in cat
    numbers = [int(n) for n in re.findall(r"^#(\d+) ", cat, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)) and "[eve] anyone trading?" in cat


def test_a_stored_text_with_escape_sequences_cannot_act_on_the_terminal(
    cq: Cq, server: RunningServer
) -> None:
    # The server refuses control characters now; a text stored before (or by hand) must
    # still reach the reader's terminal as visible escapes, never as a raw ESC.
    game_id = two_player_game(cq)
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        store.run(
            lambda: GameMessage.create(
                game=game_id, kind="player", sender=User.get(User.username == "ben"),
                text="\x1b[2J\x1b[31mann resigned\x07", at=utcnow(),
            )
        )
    finally:
        store.close()
    shown = listing(cq, game_id, "ann")
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\\x1b[2J\\x1b[31mann resigned\\x07" in shown
