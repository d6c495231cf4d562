"""A move keeps an outbox row for the notify worker only when someone can hear of it
(notify/audience.py: `action_heard`): ntfy is on, or another player is a person who wants
action mails, or turn mails and is next, without the daily digest. Otherwise the move
writes no row and the worker has nothing to work out. The choices are read in the move's
own transaction, also when this process remembers the game from its last move
(store/game_rows.py: the users' columns are part of a remembered game's version).

Services on a real SQLite file, no server process; mail goes to files (EMAIL_BACKEND=file),
delivered by the real notify worker."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from corridorquest.engine import GameState
from corridorquest.notify.worker import NotifyWorker
from corridorquest.services import games, last_commit, play, users
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.settings import Settings
from corridorquest.store import outbox
from corridorquest.store.models import Game, OutboxItem
from tests.support.services import user as new_user

pytestmark = pytest.mark.backend_neutral  # SQLite (Settings' default) whatever the URL says

OFF = {"turn": False, "action": False, "game": False, "digest": False}


class Table:
    """A started 2-player game of ann and ben (both with every notification off), the
    notify worker's keep rules in force, and its mail directory."""

    def __init__(self, ctx: ServiceContext, worker: NotifyWorker, mail_dir: Path) -> None:
        self.ctx, self.worker, self.mail_dir = ctx, worker, mail_dir
        self.game_id = 0
        self.players: dict[int, CurrentUser] = {}

    async def start(self) -> None:
        ann, ben = new_user(self.ctx, "ann"), new_user(self.ctx, "ben")
        self.players = {ann.id: ann, ben.id: ben}
        for user in (ann, ben):
            await users.update_me(self.ctx, user, {"notify": OFF})
        created = await games.create_game(self.ctx, ann, games.GameOptions(players=2, size=9))
        self.game_id = created.body["id"]
        await games.join_game(self.ctx, ben, self.game_id)

    def game(self) -> Game:
        return self.ctx.store.run(Game.get_by_id, self.game_id)

    def mover(self) -> CurrentUser:
        return self.players[self.game().turn_user_id]

    def waiting(self) -> CurrentUser:
        return next(u for uid, u in self.players.items() if uid != self.game().turn_user_id)

    async def move(self) -> None:
        """The player to move steps along its shortest path."""
        game = self.game()
        state = GameState.from_dict(json.loads(game.state))
        seat = state.turn

        def distance_after(step: Any) -> int:
            after = state.copy()
            after.play(step)
            return 0 if after.winner is not None else after.distance(seat)

        step = min(state.legal_steps(), key=distance_after)
        kind = "jump" if step.jump else "move"
        result = await play.play(self.ctx, self.mover(), game.id, kind, str(step.to), game.revision)
        assert result.status == 201, result.body

    async def play_to_the_end(self) -> None:
        while self.game().status == "started":
            await self.move()

    def kept_events(self) -> int:
        return self.ctx.store.run(
            lambda: OutboxItem.select().where(OutboxItem.kind == outbox.EVENT).count()
        )

    async def mails_to(self, user: CurrentUser) -> list[str]:
        """The subjects of the mails `user` got, once the worker has delivered all."""
        await self.worker.run_until_idle()
        subjects = []
        for path in sorted(self.mail_dir.glob("*.eml")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if f"To: {user.email}" in text:
                subjects += [line for line in text.splitlines() if line.startswith("Subject:")]
        return subjects


def _scenario(tmp_path: Path, body: Callable[[Table], Awaitable[None]], **extra: str) -> None:
    settings = Settings(data_dir=str(tmp_path), email_backend="file", **extra)  # type: ignore[arg-type]

    async def run() -> None:
        last_commit.forget_all()
        ctx = ServiceContext.open(settings)
        worker = NotifyWorker.for_context(ctx)  # (registers its keep rules on ctx.bus)
        try:
            table = Table(ctx, worker, Path(settings.mail_dir or tmp_path / "mail"))
            await table.start()
            await worker.run_until_idle()  # the game's start
            await body(table)
        finally:
            await ctx.close()
            last_commit.forget_all()

    asyncio.run(run())


def test_a_move_nobody_can_hear_of_keeps_no_outbox_row(tmp_path: Path) -> None:
    async def body(table: Table) -> None:
        before = table.kept_events()
        for _ in range(4):
            await table.move()
        assert table.kept_events() == before
        assert await table.mails_to(table.mover()) == []
        assert await table.mails_to(table.waiting()) == []

    _scenario(tmp_path, body)


def test_turn_mails_turned_on_mid_game_reach_the_next_turn(tmp_path: Path) -> None:
    """The game is remembered by this process from its last move; the player's new
    choice is seen at the next move all the same."""

    async def body(table: Table) -> None:
        await table.move()
        await table.move()  # (the game is now remembered from a move of this process)
        waiting = table.waiting()
        assert await table.mails_to(waiting) == []
        await users.update_me(table.ctx, waiting, {"notify": {"turn": True}})
        await table.move()  # now it is `waiting`'s turn
        assert await table.mails_to(waiting) == [
            f"Subject: Corridor Quest: your turn in game {table.game_id}"
        ]
        # and off again: the next turn of that player makes nothing
        await users.update_me(table.ctx, waiting, {"notify": {"turn": False}})
        kept = table.kept_events()
        await table.move()
        await table.move()
        assert table.kept_events() == kept
        assert len(await table.mails_to(waiting)) == 1

    _scenario(tmp_path, body)


@pytest.mark.parametrize(
    "choice",
    [
        {"turn": True},
        {"action": True},
        {"turn": True, "digest": True},
        {"action": True, "digest": True},
        {"game": True},
    ],
    ids=lambda choice: "+".join(choice),
)
def test_a_row_is_kept_exactly_when_the_waiting_player_gets_a_mail(
    tmp_path: Path, choice: dict[str, bool]
) -> None:
    async def body(table: Table) -> None:
        waiting = table.waiting()
        await users.update_me(table.ctx, waiting, {"notify": choice})
        kept = table.kept_events()
        await table.move()
        row_kept = table.kept_events() > kept
        mailed = await table.mails_to(waiting)
        assert row_kept == bool(mailed)
        wants_mail = not choice.get("digest") and bool(choice.get("turn") or choice.get("action"))
        assert bool(mailed) == wants_mail

    _scenario(tmp_path, body)


def test_with_ntfy_on_every_move_is_kept(tmp_path: Path) -> None:
    """Every action of a game reaches the game's ntfy topic, whoever wants mail."""

    async def body(table: Table) -> None:
        kept = table.kept_events()
        await table.move()
        assert table.kept_events() == kept + 1

    _scenario(tmp_path, body, ntfy_url="http://127.0.0.1:9")


def test_the_worker_is_woken_by_a_kept_move_not_by_its_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker wakes when a commit kept a row (`OutboxChanged`): the turn mail goes out
    at once even when the worker would look on its own only a minute later."""
    from corridorquest.notify import loops

    monkeypatch.setattr(loops, "POLL_SECONDS", 60.0)

    async def body(table: Table) -> None:
        waiting = table.waiting()
        await users.update_me(table.ctx, waiting, {"notify": {"turn": True}})
        table.worker.start()
        await asyncio.sleep(0.2)  # pacing: (its first rounds find nothing; then it waits)
        await table.move()
        for _ in range(100):  # up to 5 s
            if any(table.mail_dir.glob("*.eml")) and table.kept_events() == 0:
                break
            await asyncio.sleep(0.05)
        await table.worker.stop()
        assert table.kept_events() == 0  # worked out
        assert await table.mails_to(waiting) == [
            f"Subject: Corridor Quest: your turn in game {table.game_id}"
        ]

    _scenario(tmp_path, body)


def test_a_game_nobody_can_hear_of_keeps_no_row_from_start_to_end(tmp_path: Path) -> None:
    async def body(table: Table) -> None:
        await table.play_to_the_end()
        assert table.game().status == "finished"
        assert table.kept_events() == 0
        for player in table.players.values():
            assert await table.mails_to(player) == []

    _scenario(tmp_path, body)


def test_game_mails_turned_on_mid_game_bring_the_end_of_the_game(tmp_path: Path) -> None:
    async def body(table: Table) -> None:
        await table.move()
        ann = next(u for u in table.players.values() if u.username == "ann")
        await users.update_me(table.ctx, ann, {"notify": {"game": True}})
        await table.play_to_the_end()
        assert table.game().status == "finished"
        mails = await table.mails_to(ann)
        assert mails == [f"Subject: Corridor Quest: game {table.game_id} finished"]

    _scenario(tmp_path, body)
