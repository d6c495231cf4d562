"""The bot driver: plays the bots' moves and answers wall offers for them (SPEC §13).

One driver per server process (none with BOT_WORKERS=0). It acts on a game when:
- a write made it a bot's turn (`ActionPlayed.next_user_id`, `GameStarted.first_user_id`:
  the events of this process's bus);
- the server starts, and every BOT_SAFETY_INTERVAL: every started game where it is a bot's
  turn (a move another process was to play and did not, a restart, a lost event).

A drive reads the game as the bot's seat sees it in the API (`games.show_game` and
`play.history` as the bot user; of the history only the actions it has not read yet),
builds its `SeatView` (`seat_views.py`), has the action computed in a worker process
(`worker.py`, in one of BOT_WORKERS spawned processes, never on the event loop, after a
fair queue: people's games first, then first come first served, `slots.py`) and plays it
through `services.play.play`, the use case of a person's move, with base_revision = the
revision it computed from and the idempotency key `bot-move:<game>:<revision>`: a retry,
or another process playing the same bot move, finds the move already played (the stored
answer, or 409 stale_revision), so each bot move is played exactly once. Events,
notifications and streams follow as for a person. In a game of bots only the moves are
played BOTS_ONLY_PACE apart (`pacing.py`).

Invisible walls: an action refused because of a wall the bot cannot see does not lose its
turn (SPEC §4); the bot notes the bumped edge as a marker (as a player would; it stays
known in its view on later turns) and chooses again without the refused action.

A bot never stalls its game: a search that fails, a worker that dies or a search past
BOT_TIME_CAP (its own time, not the time it was queued) gives a legal fallback (the first
step of a shortest path), with a warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections import OrderedDict
from typing import Any

from corridorquest.bot_play import worker
from corridorquest.bot_play.pacing import BotsOnlyPace
from corridorquest.bot_play.seat_views import seat_view_from_api
from corridorquest.bot_play.slots import BOTS_ONLY, PERSON, WorkerSlots
from corridorquest.bots import SeatView
from corridorquest.bots.view import bumped_edge, edge_between
from corridorquest.engine import parse_square
from corridorquest.events import ActionPlayed, GameStarted, OfferMade
from corridorquest.services import bot_turns, games, markers, play, trading
from corridorquest.services.auth import CurrentUser
from corridorquest.services.bot_users import (
    bot_to_move,
    bot_user_ids,
    bots_in_game,
    games_awaiting_bots,
    username_of,
)
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, NotFound, ServiceError, Unprocessable
from corridorquest.services.game_views import bots_only

log = logging.getLogger("corridorquest.bots")

MAX_TRIES = 200  # actions tried in one drive (moves and refused attempts together)
HISTORIES_KEPT = 256  # games whose history the driver keeps (far more than are played at once)
SWEEP_AFTER = 2  # seconds a bot's turn lasts before a safety sweep plays it


def move_key(game_id: int, revision: int) -> str:
    """The idempotency key of the bot move made at `revision` of `game_id`."""
    return f"bot-move:{game_id}:{revision}"


def move_seed(game_id: int, revision: int) -> int:
    """The seed of a bot's choice: fixed by the game and revision (a retry chooses alike)."""
    return (game_id * 1_000_003 + revision) & (2**62 - 1)


class BotDriver:
    def __init__(self, ctx: ServiceContext, workers: int) -> None:
        self.ctx = ctx
        self.slots = WorkerSlots(workers)
        # this driver in the claims on bot turns (services/bot_turns.py)
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.bot_ids: set[int] = set()
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.again: set[int] = set()
        self.offer_tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False
        # game id -> bot user id -> the game's history as that bot saw it (`_history`)
        self._histories: OrderedDict[int, dict[int, list[dict[str, Any]]]] = OrderedDict()
        self.pace = BotsOnlyPace(ctx.settings.bots_only_pace)

    # -- starting and stopping ----------------------------------------------------------

    def start(self) -> None:
        bus = self.ctx.bus
        bus.subscribe(ActionPlayed, self._on_action)
        bus.subscribe(GameStarted, self._on_start)
        bus.subscribe(OfferMade, self._on_offer)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="bots")

    async def stop(self) -> None:
        self._closed = True
        bus = self.ctx.bus
        bus.unsubscribe(ActionPlayed, self._on_action)
        bus.unsubscribe(GameStarted, self._on_start)
        bus.unsubscribe(OfferMade, self._on_offer)
        tasks = [t for t in (self._sweeper, *self.tasks.values(), *self.offer_tasks) if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.slots.close()  # a search still running ends now

    # -- what wakes the driver ---------------------------------------------------------

    def _on_action(self, event: ActionPlayed) -> None:
        if event.next_user_id in self.bot_ids:
            self.kick(event.game_id)

    def _on_start(self, event: GameStarted) -> None:
        if event.first_user_id in self.bot_ids:
            self.kick(event.game_id)

    def _on_offer(self, event: OfferMade) -> None:
        if self._closed or event.user_id in self.bot_ids:
            return  # (bots never offer; a bot's own offer would be answered by nobody)
        task = asyncio.get_running_loop().create_task(self._answer_offer(event))
        self.offer_tasks.add(task)
        task.add_done_callback(self.offer_tasks.discard)

    async def _sweep(self) -> None:
        """At start: every game waiting for a bot's move; then every BOT_SAFETY_INTERVAL
        those waiting for SWEEP_AFTER seconds or more (a move another process is playing
        right now is left to it)."""
        waiting = 0
        while True:
            try:
                self.bot_ids = set(await self.ctx.store.transaction(bot_user_ids))
                for game_id in await self.ctx.store.transaction(games_awaiting_bots, waiting):
                    self.kick(game_id)
                waiting = SWEEP_AFTER
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bots: cannot look for games waiting for a bot")
            await asyncio.sleep(self.ctx.settings.bot_safety_interval)

    def kick(self, game_id: int) -> None:
        """Make sure a drive of `game_id` runs (again, once the running one ends)."""
        if self._closed:
            return
        if game_id in self.tasks:
            self.again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._drive(game_id), name=f"bot-{game_id}")
        self.tasks[game_id] = task
        task.add_done_callback(lambda done, gid=game_id: self._ended(gid, done))

    def _ended(self, game_id: int, task: asyncio.Task[None]) -> None:
        self.tasks.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("bots: game %d: %r", game_id, task.exception())
        if game_id in self.again:
            self.again.discard(game_id)
            self.kick(game_id)

    # -- a bot's move -------------------------------------------------------------------

    async def _seat_view(
        self, bot: CurrentUser, game_id: int, refused: list[str]
    ) -> tuple[dict[str, Any], SeatView] | None:
        """The game as the bot sees it and its seat view; None when it is not its turn."""
        view = await games.show_game(self.ctx, bot, game_id)
        if view["status"] != "started" or view["turn_username"] != bot.username:
            return None
        history = await self._history(bot, game_id)
        return view, seat_view_from_api(view, history, bot.username, refused)

    async def _history(self, bot: CurrentUser, game_id: int) -> list[dict[str, Any]]:
        """The history of started game `game_id` as `bot` sees it: the entries this driver
        read before and the actions after them. While a game is played, the entries a
        player sees of it do not change (what each shows depends on the player's seat and
        the game's masked and invisible walls); only new ones are read, not the whole
        history before every move of a long game."""
        seen = self._histories.pop(game_id, {})
        self._histories[game_id] = seen
        while len(self._histories) > HISTORIES_KEPT:
            self._histories.popitem(last=False)
        known = seen.setdefault(bot.id, [])
        after = known[-1]["n"] if known else 0
        known.extend(await play.history(self.ctx, bot, game_id, after=after))
        return known

    async def _drive(self, game_id: int) -> None:
        """Play the bots' moves of `game_id` while it is a bot's turn."""
        refused: list[str] = []
        seen: int | None = None
        for _ in range(MAX_TRIES):
            found = await self.ctx.store.transaction(bot_to_move, game_id)
            if found is None:
                return
            bot, level = found
            try:
                read = await self._seat_view(bot, game_id, refused if seen is not None else [])
            except NotFound:
                return
            if read is None:
                return
            view, seat_view = read
            revision = int(view["revision"])
            if revision != seen:  # a new turn: nothing refused yet
                refused, seen = [], revision
                seat_view = SeatView.from_dict({**seat_view.to_dict(), "refused": []})
            priority = BOTS_ONLY if bots_only(view) else PERSON
            chosen = await self._choose(bot, game_id, seat_view, level, revision, priority)
            if chosen is None:  # another process claimed this turn: it computes and plays it
                log.info("bots: game %d, revision %d: claimed by another process",
                         game_id, revision)
                return
            kind, text = chosen
            wait = self.pace.wait(game_id, view)
            if wait > 0:  # a game of bots only, played at its spectators' pace
                await asyncio.sleep(wait)
            try:
                played = await play.play(
                    self.ctx, bot, game_id, kind, text,
                    base_revision=revision, key=move_key(game_id, revision),
                )
                self.pace.played(game_id, view)
                if not played.events:  # the key's stored answer: played by another process
                    log.info("bots: game %d, revision %d: already played by another process",
                             game_id, revision)
            except Unprocessable as error:  # a bump into an invisible wall, or a bug
                refused.append(text)
                log.info("bots: %s in game %d: %s refused: %s",
                         bot.username, game_id, text, error.message)
                if view["invisible"] and kind in ("move", "jump"):
                    await self._note_bump(bot, game_id, seat_view, text, error.message)
            except Conflict as error:  # another process played it, or the game moved on
                log.info("bots: game %d, revision %d: not played here (%s; another process "
                         "played it, or the game moved on)", game_id, revision, error.reason)
            except NotFound:
                return
        log.warning("bots: game %d: gave up after %d tries; the next sweep tries again",
                    game_id, MAX_TRIES)

    async def _note_bump(
        self, bot: CurrentUser, game_id: int, seat_view: SeatView, text: str, refusal: str
    ) -> None:
        """The edge a refused step ran into, noted as the bot's marker (what it learnt):
        the one the refusal names ("wall between e5 and e6": a jump's too, which its
        squares alone do not tell), else the one between the pawn and a refused move's
        square."""
        edge = bumped_edge(refusal, seat_view.size)
        if edge is None:
            pawn = parse_square(seat_view.pawns[seat_view.seat], seat_view.size)
            edge = edge_between(pawn, parse_square(text, seat_view.size))
        if edge is None:
            return
        try:
            await markers.mark(self.ctx, bot, game_id, edge)
        except ServiceError as error:
            log.debug("bots: marker %s in game %d: %s", edge, game_id, error.reason)

    async def _choose(
        self, bot: CurrentUser, game_id: int, seat_view: SeatView, level: int, revision: int,
        priority: int,
    ) -> tuple[str, str] | None:
        """(kind, notation) from a worker (once a slot is free: `slots.py`); a legal
        fallback when it fails (a warning). None when another process has claimed the
        turn (`services/bot_turns.py`): one computation per bot move."""
        cap = self.ctx.settings.bot_time_cap
        try:
            async with self.slots.taken(priority) as slot:
                if not await self._claim(game_id, revision, cap):
                    return None
                kind, text, warning = await self.slots.compute(
                    slot, cap, worker.choose_action, seat_view.to_dict(), level,
                    move_seed(game_id, revision),
                )
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the worker died, or its search passed the cap
            text = worker.fallback(seat_view)
            log.warning("bots: %s in game %d: the worker failed (%r); played the fallback %s",
                        bot.username, game_id, error, text)
            return worker.kind_of(seat_view, text), text
        if warning:
            log.warning("bots: %s in game %d: %s", bot.username, game_id, warning)
        return kind, text

    async def _claim(self, game_id: int, revision: int, cap: float) -> bool:
        """Whether this driver computes the bot move at `revision` (its claim taken); a
        claim that cannot be written (the game deleted, the database away) is left to the
        next sweep."""
        try:
            # (the lease covers the search and a game of bots only's pace before its move)
            lease = cap + self.ctx.settings.bots_only_pace
            return bool(await self.ctx.store.transaction(
                bot_turns.claim_turn, game_id, revision, self.owner, lease
            ))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bots: game %d, revision %d: cannot claim the turn", game_id, revision)
            return False

    # -- wall offers ----------------------------------------------------------------------

    async def _answer_offer(self, event: OfferMade) -> None:
        """A bot takes an offer that does not worsen its evaluation, else leaves it."""
        try:
            bots = await self.ctx.store.transaction(bots_in_game, event.game_id)
            offerer = await self.ctx.store.transaction(username_of, event.user_id)
            if offerer is None:
                return
            for bot, _level in bots:
                if event.partner_id is not None and event.partner_id != bot.id:
                    continue
                if await self._take_offer(bot, event, offerer):
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bots: answering offer %d in game %d", event.offer_id, event.game_id)

    async def _take_offer(self, bot: CurrentUser, event: OfferMade, offerer: str) -> bool:
        view = await games.show_game(self.ctx, bot, event.game_id)
        if view["status"] != "started":
            return False
        history = await self._history(bot, event.game_id)
        seat_view = seat_view_from_api(view, history, bot.username)
        other = next((s["seat"] for s in view["seats"] if s["username"] == offerer), None)
        if other is None:
            return False
        own_change = 1 if event.mode == "selling" else -1  # the offerer sells: the bot buys
        pays = await self.slots.run(
            PERSON, self.ctx.settings.bot_time_cap, worker.trade_pays, seat_view.to_dict(),
            own_change, other,
        )
        if not pays:
            log.info("bots: %s leaves %s's offer in game %d (it does not pay)",
                     bot.username, offerer, event.game_id)
            return False
        mode = "buying" if event.mode == "selling" else "selling"
        try:
            await trading.trade(self.ctx, bot, event.game_id, mode, offerer,
                                key=f"bot-trade:{event.offer_id}:{bot.id}")
        except ServiceError as error:
            log.info("bots: %s cannot take %s's offer in game %d: %s",
                     bot.username, offerer, event.game_id, error.reason)
            return False
        return True


def start_bots(ctx: ServiceContext) -> BotDriver | None:
    """The driver of this process (None with BOT_WORKERS=0: it plays no bot)."""
    workers = ctx.settings.bot_workers
    if workers <= 0:
        log.info("bots: BOT_WORKERS=0, this process plays no bot")
        return None
    driver = BotDriver(ctx, workers)
    driver.start()
    return driver
