"""Who hears what of an event (SPEC §9): the e-mails and ntfy messages it makes.

`deliveries(event, facts, settings)` answers a list of `Mail` and `Push`; nothing here
sends anything (the worker does) or decides a rule of the game. What a receiver may see
comes from `services.visibility` through `GameFacts.visibility`:

- a wall placed in a masked game tells nobody anything (no action notification, as no
  game message), but the turn it passes on still does;
- in an invisible game an opponent's wall is "placed a wall", without where;
- every ntfy topic but the DM topic is public (anyone may subscribe): topics get what a
  spectator may see; nothing of a private game reaches a user topic, and no message text
  reaches any topic but the game topic (broadcasts) or the receiver's DM topic (DMs).

One event makes at most one message per topic and one e-mail per user: the tags of a
message are every event type it carries, its priority the highest of theirs. E-mail
follows each user's choices (turn, action, game), none per event with the daily digest;
ntfy is made only when NTFY_URL is set.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from corridorquest.events import (
    ActionPlayed,
    AdminBroadcast,
    Event,
    GameCancelled,
    GameEvent,
    GameFinished,
    GameStarted,
    KeepRule,
    MessagePosted,
    PlayersInvited,
    StallReminder,
    TournamentPaired,
    UsernameChanged,
)
from corridorquest.notify import wording
from corridorquest.notify.deliveries import Delivery, Mail, Plan, Told
from corridorquest.notify.facts import FactsCache, GameFacts
from corridorquest.services.user_refs import ids_in, render, usernames
from corridorquest.settings import Settings
from corridorquest.store.models import (
    GameMessage,
    GamePlayer,
    MessageMute,
    Tournament,
    TournamentGame,
    User,
)

KEPT_EVENTS: tuple[type[Event], ...] = (
    ActionPlayed,
    GameStarted,
    GameFinished,
    GameCancelled,
    PlayersInvited,
    MessagePosted,
    AdminBroadcast,
    UsernameChanged,
    StallReminder,
    TournamentPaired,
)




def _mail_wanted(
    event: GameEvent,
    players: Sequence[GamePlayer] | None,
    wants: Callable[[int, User], bool],
) -> bool:
    """Whether a player of `event`'s game may want a mail of it: a person without the
    daily digest for whom `wants(user_id, user)` (the players the write loaded, with
    their users' current choices: a remembered game is checked against them,
    store/game_rows.py). True when the write loaded no players of that game."""
    if not players:
        return True
    game_id = event.game_id
    wanted = False
    for player in players:
        if player.game_id != game_id:
            return True  # not that game's players: the worker decides
        if not wanted:
            user = player.user
            wanted = (
                user.bot_level is None and not user.notify_digest
                and wants(player.user_id, user)
            )
    return wanted


def action_heard(event: ActionPlayed, players: Sequence[GamePlayer] | None, ntfy: bool) -> bool:
    """Whether `action_played` (below) can make any delivery of `event`: asked in the
    move's own transaction. False only when nothing can come of it (ntfy off, and no
    other player is a person who wants action mails, or turn mails and is next, without
    the daily digest): then the move keeps no outbox row. It may say true for a move that
    makes nothing (a masked wall); the worker decides each delivery (`Plan.mail`)."""
    return ntfy or _mail_wanted(
        event, players,
        lambda uid, user: uid != event.user_id
        and (user.notify_action or (user.notify_turn and uid == event.next_user_id)),
    )


def start_heard(event: GameStarted, players: Sequence[GamePlayer] | None, ntfy: bool) -> bool:
    """As `action_heard`, for `game_started`: a player who wants game mails, or turn
    mails and moves first."""
    return ntfy or _mail_wanted(
        event, players,
        lambda uid, user: user.notify_game or (user.notify_turn and uid == event.first_user_id),
    )


def end_heard(
    event: GameFinished | GameCancelled, players: Sequence[GamePlayer] | None, ntfy: bool
) -> bool:
    """As `action_heard`, for `game_finished` and `game_cancelled`: a player who wants
    game mails (not the one who cancelled it)."""
    by = event.by_user_id if isinstance(event, GameCancelled) else None
    return ntfy or _mail_wanted(event, players, lambda uid, user: uid != by and user.notify_game)


def keep_rules(settings: Settings) -> dict[type[Event], KeepRule | None]:
    """The events the writes keep for the worker (`EventBus.keep`), with their rules: a
    move, a game's start and end are kept only when someone can hear of them."""
    ntfy = bool(settings.ntfy_url)
    rules: dict[type[Event], KeepRule | None] = dict.fromkeys(KEPT_EVENTS)
    rules[ActionPlayed] = lambda event, players: action_heard(event, players, ntfy)
    rules[GameStarted] = lambda event, players: start_heard(event, players, ntfy)
    rules[GameFinished] = rules[GameCancelled] = (
        lambda event, players: end_heard(event, players, ntfy)
    )
    return rules


# --- game events ----------------------------------------------------------------------------


def _action(event: ActionPlayed, facts: GameFacts, viewer: int | None) -> str | None:
    """The action as `viewer` may learn of it (None: nothing, a masked wall)."""
    entry = {
        "n": event.n,
        "seat": event.seat,
        "username": facts.name(event.user_id),
        "type": event.type,
        "notation": event.notation,
        "at": None,
    }
    seen = facts.visibility(viewer).history_entry(entry)
    return wording.action_line(facts.name(event.user_id), event.type, seen)


def _action_told(event: ActionPlayed, facts: GameFacts, viewer: int | None) -> Told:
    line = _action(event, facts, viewer)
    types: list[str] = ["action"] if line else []
    lines = [line] if line else []
    lines += [wording.passes(facts.name(uid)) for uid in event.passed_user_ids]
    if event.next_user_id is not None:
        you = viewer == event.next_user_id
        lines.append(wording.turn_line(facts.name(event.next_user_id), you))
        if viewer is None or viewer == event.next_user_id:
            types.append("turn")
    return Told(tuple(types), tuple(lines))


def action_played(event: ActionPlayed, facts: GameFacts, plan: Plan) -> None:
    gid = facts.id
    title_next = (
        f"Game {gid}: {facts.name(event.next_user_id)}'s turn"
        if event.next_user_id is not None
        else f"Game {gid}"
    )
    spectator = _action_told(event, facts, None)  # what every public topic may be told
    plan.push(facts.topic, title_next, spectator)
    for uid in facts.player_ids():
        if uid == event.user_id:
            continue
        user = facts.users.get(uid)
        told = _action_told(event, facts, uid)
        if "turn" in told.types:
            subject = f"Corridor Quest: your turn in game {gid}"
        else:
            subject = f"Corridor Quest: {facts.name(event.user_id)} played in game {gid}"
        plan.mail(user, told, subject, facts)
        if facts.public and user is not None:
            types = tuple(t for t in spectator.types if t != "turn" or uid == event.next_user_id)
            title = title_next if uid == event.next_user_id else f"Game {gid}"
            plan.push(user.username, title, Told(types, spectator.lines))


def game_started(event: GameStarted, facts: GameFacts, plan: Plan) -> None:
    gid = facts.id
    names = [facts.name(uid) for uid in facts.player_ids()]
    first = facts.name(event.first_user_id)

    def told(viewer: int | None) -> Told:
        you = viewer == event.first_user_id
        types = ("game", "turn") if viewer is None or you else ("game",)
        return Told(types, (wording.started_line(gid, names, facts.variant()),
                            wording.turn_line(first, you)))

    spectator = told(None)
    plan.push(facts.topic, f"Game {gid} started", spectator)
    if TournamentGame.select().where(TournamentGame.game == gid).exists():
        return  # a tournament's game: its players hear of it as a pairing (below)
    for uid in facts.player_ids():
        user = facts.users.get(uid)
        plan.mail(user, told(uid), f"Corridor Quest: game {gid} started", facts)
        if facts.public and user is not None:
            types = spectator.types if uid == event.first_user_id else ("game",)
            plan.push(user.username, f"Game {gid} started", Told(types, spectator.lines))


def tournament_paired(event: TournamentPaired, facts: GameFacts, plan: Plan) -> None:
    """Each player of a game the server started for a tournament: whom they play, in
    which game, who moves first (bots: nothing, as always)."""
    gid = facts.id
    tournament = Tournament.get_or_none(Tournament.id == event.tournament_id)
    name = tournament.name if tournament is not None else "(deleted)"
    table = TournamentGame.get_or_none(TournamentGame.game == gid)
    order = json.loads(table.players) if table is not None else facts.player_ids()
    first = int(order[0]) if order else None
    title = f"{name}, round {event.round}: game {gid}"
    for uid in facts.player_ids():
        user = facts.users.get(uid)
        others = [facts.name(o) for o in order if int(o) != uid]
        you = uid == first
        told = Told(
            ("game", "turn") if you else ("game",),
            (wording.paired_line(name, event.round, others, gid, facts.variant()),
             wording.turn_line(facts.name(first), you)),
        )
        plan.mail(user, told, f"Corridor Quest: {title}", facts)
        if facts.public and user is not None:
            plan.push(user.username, title, told)


def game_finished(event: GameFinished, facts: GameFacts, plan: Plan) -> None:
    gid = facts.id
    scores = {facts.name(uid): score for uid, score in event.scores.items()}
    line = wording.finished_line(gid, facts.name(event.winner_id), scores)
    told = Told(("game",), (line,))
    title = f"Game {gid} finished: {facts.name(event.winner_id)} won"
    plan.push(facts.topic, title, told)
    for uid in facts.player_ids():
        user = facts.users.get(uid)
        plan.mail(user, told, f"Corridor Quest: game {gid} finished", facts)
        if facts.public and user is not None:
            plan.push(user.username, title, told)


def game_cancelled(event: GameCancelled, facts: GameFacts, plan: Plan) -> None:
    gid = facts.id
    # the reason may name a user who does not play (a system admin who cancelled it)
    known = {uid: user.username for uid, user in facts.users.items()}
    names = usernames(ids_in([event.reason]), known)
    line = wording.cancelled_line(gid, render(event.reason, names))
    told = Told(("game",), (line,))
    extra = ("maintenance",) if event.by_user_id is None else ()  # the scheduler did it
    title = f"Game {gid} cancelled"
    plan.push(facts.topic, title, told, *extra)
    for uid in facts.player_ids():
        if uid == event.by_user_id:
            continue
        user = facts.users.get(uid)
        plan.mail(user, told, f"Corridor Quest: game {gid} was cancelled", facts)
        if facts.public and user is not None:
            plan.push(user.username, title, told, *extra)


def stall_reminder(event: StallReminder, facts: GameFacts, plan: Plan) -> None:
    gid = facts.id
    name = facts.name(event.user_id)
    user = facts.users.get(event.user_id)
    plan.mail(
        user,
        Told(("turn",), wording.reminder_lines(gid, event.turn_since, event.removal_at)),
        f"Corridor Quest: reminder: your turn in game {gid}",
        facts,
    )
    text = wording.reminder_push(name, gid, event.turn_since)
    title = f"Game {gid}: waiting for {name}"
    plan.push(facts.topic, title, text, "maintenance")
    if facts.public and user is not None:
        plan.push(user.username, title, text, "maintenance")


def players_invited(event: PlayersInvited, facts: GameFacts, cache: FactsCache, plan: Plan) -> None:
    inviter = cache.user(event.inviter_id)
    inviter_name = inviter.username if inviter else "a former player"
    cache.load_users(event.invitee_ids)
    for uid in event.invitee_ids:
        invitee = cache.user(uid)
        if invitee is None:
            continue
        subject, body = wording.invitation_mail(
            invitee.username, inviter_name, facts, event.invitation_code, plan.page,
            plan.address.join_link(facts.id, event.invitation_code),
        )
        plan.out.append(Mail(invitee.email, subject, body))  # asked for: no opt-out
        if facts.public:  # never a private game's code or name on a (public) user topic
            plan.push(
                invitee.username,
                f"Game {facts.id}: invitation from {inviter_name}",
                wording.invitation_push(inviter_name, facts),
                "invitation",
            )


def message_posted(event: MessagePosted, facts: GameFacts, plan: Plan) -> None:
    row = GameMessage.get_or_none(GameMessage.id == event.message_id)
    if row is None:
        return
    sender = facts.name(event.sender_id)
    if event.recipient_id is None:
        plan.push(facts.topic, f"Game {facts.id}: {sender}", row.text, "message")
        return
    receiver = facts.users.get(event.recipient_id)
    if receiver is None or not receiver.ntfy_dm_topic:
        return
    muted = MessageMute.select().where(
        (MessageMute.game == facts.id)
        & (MessageMute.user == receiver.id)
        & (MessageMute.muted == event.sender_id)
    ).exists()
    if not muted:
        title = f"Game {facts.id}: DM from {sender}"
        plan.push(receiver.ntfy_dm_topic, title, row.text, "dm")


# --- events of no one game --------------------------------------------------------------------


def admin_broadcast(event: AdminBroadcast, cache: FactsCache, plan: Plan) -> None:
    for game_id in event.game_ids:
        facts = cache.game(game_id)
        if facts is not None:
            plan.about(facts)
            plan.push(facts.topic, "Message from the administrators", event.text, "broadcast")


def username_changed(event: UsernameChanged, plan: Plan) -> None:
    plan.push(
        event.old_username,
        f"{event.old_username} is now {event.new_username}",
        wording.renamed(event.old_username, event.new_username),
        "user",
    )


GameHandler = Callable[[Any, GameFacts, Plan], None]
_GAME_EVENTS: dict[type[Event], GameHandler] = {
    ActionPlayed: action_played,
    GameStarted: game_started,
    TournamentPaired: tournament_paired,
    GameFinished: game_finished,
    GameCancelled: game_cancelled,
    StallReminder: stall_reminder,
    MessagePosted: message_posted,
}


def deliveries(event: Event, cache: FactsCache, settings: Settings) -> list[Delivery]:
    """Every e-mail and ntfy message `event` makes (inside a transaction)."""
    plan = Plan(settings)
    if isinstance(event, AdminBroadcast):
        admin_broadcast(event, cache, plan)
    elif isinstance(event, UsernameChanged):
        username_changed(event, plan)
    elif isinstance(event, PlayersInvited):
        facts = cache.game(event.game_id)
        if facts is not None:
            plan.about(facts)
            players_invited(event, facts, cache, plan)
    else:
        handler = _GAME_EVENTS.get(type(event))
        facts = cache.game(event.game_id) if handler and hasattr(event, "game_id") else None
        if handler is not None and facts is not None:
            plan.about(facts)
            handler(event, facts, plan)
    return plan.out
