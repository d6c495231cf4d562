"""Request and response models of the games API (docs/api.md, Games)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from corridorquest.engine import PLAYER_COUNTS, SIZES
from corridorquest.services.game_list import RELATIONS, STATUS_ALIASES

SeatName = Literal["north", "east", "south", "west"]
Status = Literal["waiting", "started", "finished", "cancelled"]
Username = str


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, description="2 or 4", json_schema_extra={"enum": list(PLAYER_COUNTS)})
    size: int = Field(
        9,
        description="board size: 5, 7, 9, 11, 13, 15 or 17",
        json_schema_extra={"enum": list(SIZES)},
    )
    masked: bool = False
    invisible: bool = False
    private: bool = False
    invite: bool = Field(False, description="give the game an invitation code")
    invitees: list[Username] = Field(
        default_factory=list, max_length=16, description="users who get the code by e-mail"
    )
    bots: list[int] = Field(
        default_factory=list,
        max_length=4,
        description="levels (1..6) of bots seated at once, one bot per level (SPEC §13)",
    )
    join: bool = Field(
        True,
        description="false: the creator takes no seat and `bots` fills every seat (a game "
        "of bots only, public; the creator stays its admin)",
    )


class ChangeGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int | None = Field(None, json_schema_extra={"enum": [*PLAYER_COUNTS, None]})
    size: int | None = Field(None, json_schema_extra={"enum": [*SIZES, None]})
    masked: bool | None = None
    invisible: bool | None = None
    private: bool | None = None
    invite: bool = False
    invitees: list[Username] = Field(default_factory=list, max_length=16)
    base_revision: int | None = None


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invitation_code: str | None = Field(None, max_length=64)
    base_revision: int | None = None


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: int = Field(..., description="the bot's level: 1 (weakest) to 6")
    base_revision: int | None = None


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["move", "jump", "wall"]
    to: str = Field(
        ...,
        max_length=32,
        description="square (e4), direction (north, up-left, ...) or wall (c3h)",
    )
    base_revision: int | None = None


class ListQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: str | None = Field(
        None,
        description="waiting, started (active), finished, cancelled (canceled)",
        json_schema_extra={"enum": list(STATUS_ALIASES)},
    )
    user: str | None = Field(None, description="a username or `me`")
    relation: str | None = Field(
        None,
        description="admin, player, won or current",
        json_schema_extra={"enum": list(RELATIONS)},
    )
    limit: int = Field(100, ge=1, le=500)


class ShowQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invitation_code: str | None = Field(None, max_length=64, description="to see a private game")


HISTORY_PAGE = 500  # actions in one answer of GET /games/{id}/actions (default)
HISTORY_PAGE_MAX = 1000


class HistoryQuery(ShowQuery):
    after: int = Field(
        0, ge=0, le=2**31, description="only the actions after the one numbered this (`n`)"
    )
    limit: int = Field(
        HISTORY_PAGE, ge=1, le=HISTORY_PAGE_MAX, description="at most this many actions"
    )


class PositionQuery(ShowQuery):
    at: int | None = Field(
        None, ge=0, le=100_000, description="the board after this many actions (0: the start)"
    )


class RevisionQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_revision: int | None = None


class SeatOut(BaseModel):
    seat: SeatName
    username: str | None
    walls_left: int | None
    distance: int | None


class WallOut(BaseModel):
    wall: str
    owner: SeatName | None


class MarkerOut(BaseModel):
    marker: str
    owner: SeatName


class ActionOut(BaseModel):
    n: int
    seat: SeatName | None
    username: str | None
    type: Literal["move", "jump", "wall"]
    notation: str | None
    at: str | None


class OfferOut(BaseModel):
    username: str
    mode: Literal["buying", "selling"]
    partner: str | None = Field(None, description="set for a private offer")
    at: str | None


class BotMarkOut(BaseModel):
    level: int = Field(description="the bot's level, 1 (weakest) to 6")


class RematchOut(BaseModel):
    id: int = Field(description="the rematch's game")
    status: Status
    admin: str | None = Field(description="who asked for it (its admin)")
    players: list[str] = Field(description="who has joined it, in join order")


class GameOut(BaseModel):
    id: int
    status: Status
    revision: int
    size: int
    players: int
    masked: bool
    invisible: bool
    private: bool
    imported: bool = Field(
        False,
        description="imported from a record: its players are the record's names, not "
        "accounts (seats, winner and history name them; never linked to a user)",
    )
    admin: str | None
    invitation_code: str | None
    seats: list[SeatOut]
    waiting_players: list[str]
    bots: dict[str, BotMarkOut] = Field(
        default_factory=dict, description="the bots among the players, by username"
    )
    guests: list[str] = Field(
        default_factory=list,
        description="the guests among the players (GUESTS=on), by username: never rated",
    )
    turn: SeatName | None
    turn_username: str | None
    winner: str | None
    pawns: dict[str, str]
    walls: list[WallOut]
    last_wall: str | None = Field(
        None,
        description="the wall the latest action placed, where the caller sees it (the board "
        "outlines it; in a masked game too, whose history never names a wall's square)",
    )
    markers: list[MarkerOut] = Field(default_factory=list)
    at: int | None = Field(None, description="set when this is the board at an earlier action")
    wall_cost: int
    offers: list[OfferOut] = Field(
        default_factory=list, description="open wall offers the caller may read"
    )
    trade_balance: int | None = Field(None, description="the caller's own (null: not a player)")
    last_actions: list[ActionOut]
    scores: dict[str, int]
    online: list[str] = Field(
        default_factory=list, description="players holding a live stream open"
    )
    rematch: RematchOut | None = Field(
        None,
        description="a finished game's rematch while it waits for its players or is played "
        "(POST /games/{id}/rematch joins it)",
    )
    cancel_reason: str | None
    created_at: str | None
    started_at: str | None
    finished_at: str | None
    cancelled_at: str | None
    join_url: str | None = Field(
        None,
        description="GET /games/{id} only: a waiting game's join link, its web page as a phone "
        "in the room opens it (PUBLIC_URL, else the address asked at, a loopback one replaced "
        "by the machine's network address); a private game's carries its code (its players "
        "only); null otherwise",
    )


class GameSummaryOut(BaseModel):
    id: int
    status: Status
    players: int
    size: int
    private: bool
    masked: bool
    invisible: bool
    imported: bool = Field(
        False, description="imported from a record: `usernames` and `winner` are its names"
    )
    winner: str | None
    usernames: list[str]
    bots: dict[str, BotMarkOut] = Field(
        default_factory=dict, description="the bots among the players, by username"
    )
    guests: list[str] = Field(
        default_factory=list,
        description="the guests among the players (GUESTS=on), by username: never rated",
    )
    turn_username: str | None
    revision: int


class GameListOut(BaseModel):
    games: list[GameSummaryOut]


class HistoryOut(BaseModel):
    actions: list[ActionOut]
    more: bool = Field(
        ..., description="more actions follow: ask again with `after` = the last one's `n`"
    )
