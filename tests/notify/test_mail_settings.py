"""E-mail follows each user's choices (SPEC §9, `cq user notify`): turn and game on and
action off by default; action on adds a mail for every other player's action; turn and
game off leave nothing; the daily digest replaces every per-event mail with at most one
mail a day listing the games on the user's turn."""

from __future__ import annotations

import re

import httpx

from tests.notify.conftest import Api, Mailbox, Serve
from tests.notify.helpers import FIRST_ACTIONS, act, mails_by_recipient, seat_names, start_game
from tests.support.ntfy_recorder import NtfyRecorder

DIGEST = re.compile(r"^  game (\d+) with ([^:]+): your turn since ", re.M)


def test_each_player_gets_the_mails_its_settings_ask_for(api: Api, smtp: Mailbox) -> None:
    tokens = api.users("ann", "bob", "cat", "dan")
    api.patch_me(tokens["ann"], notify={"action": True})
    api.patch_me(tokens["bob"], notify={"digest": True})
    api.patch_me(tokens["cat"], notify={"turn": False, "game": False})
    # dan keeps the defaults: turn and game
    game = start_game(api.http, tokens, players=4, size=5)
    gid = game["id"]
    played = []
    for _ in range(4):
        actor = seat_names(game)[game["turn"]]
        game = act(api.http, tokens, game, *FIRST_ACTIONS[game["turn"]])
        played.append((actor, seat_names(game)[game["turn"]]))
    api.drained()

    turn = f"Corridor Quest: your turn in game {gid}"
    expected = {"ann@example.test": [f"Corridor Quest: game {gid} started"],
                "dan@example.test": [f"Corridor Quest: game {gid} started"]}
    for actor, following in played:
        if actor != "ann":  # every other player's action, as a turn mail when it is hers
            played_in = f"Corridor Quest: {actor} played in game {gid}"
            expected["ann@example.test"].append(turn if following == "ann" else played_in)
        if following == "dan":
            expected["dan@example.test"].append(turn)
    assert mails_by_recipient(smtp.mails) == expected
    action_mail = next(m for m in smtp.to("ann@example.test") if "played in" in m.subject)
    assert (
        "You get this e-mail because you asked for e-mails when another player moves or "
        "places a wall in your games. To change that, use `cq user notify`." in action_mail.body
    )


def digests(smtp: Mailbox) -> dict[str, list[list[int]]]:
    """The game ids each digest listed, by recipient."""
    found: dict[str, list[list[int]]] = {}
    for mail in smtp.mails:
        if "waiting for your move" in mail.subject:
            found.setdefault(mail.to, []).append([int(g) for g, _ in DIGEST.findall(mail.body)])
    return found


def test_the_digest_lists_the_games_on_the_users_turn_once_a_day(
    serve: Serve, smtp: Mailbox, ntfy: NtfyRecorder
) -> None:
    server = serve(SCHEDULER_INTERVAL="1s")
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        api = Api(server, http)
        tokens = api.users("al", "bo", "cy")
        for token in tokens.values():  # no mail while the games are set up
            api.patch_me(token, notify={"turn": False, "game": False})
        pairs = [("al", "bo"), ("al", "cy"), ("bo", "cy")]
        games = [start_game(http, {a: tokens[a], b: tokens[b]}, size=5) for a, b in pairs]
        to_move = {g["id"]: seat_names(g)[g["turn"]] for g in games}
        for token in tokens.values():
            api.patch_me(token, notify={"digest": True})
        waiting = {name: sorted(g for g, who in to_move.items() if who == name)
                   for name in tokens}
        expected = {f"{n}@example.test": [ids] for n, ids in waiting.items() if ids}
        smtp.wait_for(lambda mails: len(digests(smtp)) == len(expected))
        api.drained()
        assert digests(smtp) == expected
        first = next(m for m in smtp.mails if "waiting for your move" in m.subject)
        count = len(DIGEST.findall(first.body))
        assert first.subject == (
            f"Corridor Quest: {count} game{'s' if count > 1 else ''} waiting for your move"
        )

        # the same day: the turn passes in a game, and another pair with the digest and
        # the default turn and game mails starts a game; a sweep runs for them ...
        game = games[0]
        game = act(http, tokens, game, "move", "c2" if game["turn"] == "south" else "c4")
        mover = seat_names(game)[game["turn"]]
        later = api.users("ed", "flo")
        for token in later.values():
            api.patch_me(token, notify={"digest": True})
        fresh = start_game(http, later, size=5)
        first_mover = seat_names(fresh)[fresh["turn"]]
        smtp.wait_for(lambda mails: f"{first_mover}@example.test" in digests(smtp))
        api.drained()

    # ... and nobody had a second digest; nobody with the digest had a per-event mail
    if not waiting[mover]:  # its first digest: now it waits in one game
        expected[f"{mover}@example.test"] = [[games[0]["id"]]]
    expected[f"{first_mover}@example.test"] = [[fresh["id"]]]
    assert digests(smtp) == expected
    assert [m for m in smtp.mails if "waiting for your move" not in m.subject] == []
