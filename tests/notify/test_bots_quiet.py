"""Bots (SPEC §13) are never reminded, never removed for stalling and never notified, while
the people of a bot game are notified as in any other game. Real SMTP (aiosmtpd) and an
ntfy recorder; 5x5 boards, level 1."""

from __future__ import annotations

import time

import httpx

from client.legal import state_from_game
from corridorquest.engine import format_action
from tests.notify.conftest import Mailbox, Serve, drained
from tests.support.games import get_game, new_game, play
from tests.support.ntfy_recorder import NtfyRecorder
from tests.support.users import insert_user


def _step(game: dict[str, object]) -> tuple[str, str]:
    state = state_from_game(game)
    assert state is not None and state.turn is not None
    seat = state.turn
    scored = []
    for step in state.legal_steps():
        after = state.copy()
        after.play(step)
        scored.append((0 if after.winner == seat else after.distance(seat), format_action(step),
                       "jump" if step.jump else "move"))
    _, notation, kind = min(scored)
    return kind, notation


def test_a_bot_that_does_not_move_is_neither_reminded_nor_removed_nor_notified(
    serve: Serve, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    # BOT_WORKERS=0: nobody plays the bot here, its turn lasts past every stall deadline
    server = serve(BOT_WORKERS="0", STALL_REMIND_AFTER="1s", STALL_REMIND_INTERVAL="1s",
                   STALL_TIMEOUT="3s")
    ola = insert_user(server.database_url, "ola")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        game = new_game(http, ola, size=5, bots=[1])
        if game["turn_username"] == "ola":
            kind, to = _step(game)
            moved = play(http, ola, game["id"], kind, to)
            assert moved.status_code == 201, moved.text
            game = moved.json()
        assert game["turn_username"] == "bot-1"
        time.sleep(5)  # pacing: past STALL_TIMEOUT: a person would have been reminded and removed
        after = get_game(http, ola, game["id"])
    assert (after["status"], after["turn_username"]) == ("started", "bot-1")
    drained(server)
    assert ntfy.to("bot-1") == []
    assert not [p for p in ntfy.published if "waiting for bot-1" in p.title]
    assert smtp.to("bot-1@bots.invalid") == []
    assert ntfy.to(f"game_{game['id']}"), "the game's own topic is told as usual"


def test_the_person_in_a_bot_game_is_notified_of_the_bots_moves(
    serve: Serve, ntfy: NtfyRecorder, smtp: Mailbox
) -> None:
    server = serve(BOT_WORKERS="1")
    ola = insert_user(server.database_url, "ola")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        game = new_game(http, ola, size=5, bots=[1])
        gid = game["id"]
        deadline = time.monotonic() + 60
        while game["status"] == "started":
            assert time.monotonic() < deadline, game
            if game["turn_username"] != "ola":
                time.sleep(0.05)
                game = get_game(http, ola, gid)
                continue
            kind, to = _step(game)
            moved = play(http, ola, gid, kind, to)
            assert moved.status_code == 201, moved.text
            game = moved.json()
        game = get_game(http, ola, gid)
    assert game["status"] == "finished"
    drained(server)
    your_turn = [m for m in smtp.to("ola@example.test")
                 if m.subject == f"Corridor Quest: your turn in game {gid}"]
    assert your_turn, "ola hears of her turns after the bot's moves"
    assert any(p.title == f"Game {gid}: ola's turn" for p in ntfy.to("ola"))
    assert ntfy.to("bot-1") == [] and smtp.to("bot-1@bots.invalid") == []
