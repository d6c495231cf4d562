"""Every table of the server, as peewee models bound to `database` (a proxy), one module
per part of the product; import them from here (`from corridorquest.store.models import
Game`).

- `base.py`: the database proxy, `utcnow`, `BaseModel`;
- `accounts.py`: users, sessions, verification codes, login/password/signup requests,
  invitation mails sent;
- `games.py`: games, their players, actions, markers, wall offers, messages, mutes,
  rematches;
- `server.py`: idempotent answers, server values, the outbox, the audit log, the schema
  version;
- `ratings.py`, `analyses.py`, `tournaments.py`: what SPEC §14-16 added;
- `bot_turns.py`: which server process computes a bot's move (a lease).

Users are referenced by id everywhere (usernames change, SPEC §7). Timestamps are naive
UTC datetimes (`utcnow()`). A new table or column needs a migration step in
`store/migrations/`; never edit a released step. A new table is also listed in
`ALL_MODELS` below.
"""

from __future__ import annotations

from corridorquest.store.models.accounts import (
    InvitationMail,
    LoginAttempt,
    PasswordRequest,
    Session,
    SignupRequest,
    User,
    Verification,
)
from corridorquest.store.models.analyses import GameAnalysis
from corridorquest.store.models.base import BaseModel, IntegrityError, database, utcnow
from corridorquest.store.models.bot_turns import BotTurnClaim
from corridorquest.store.models.games import (
    Game,
    GameAction,
    GameMarker,
    GameMessage,
    GamePlayer,
    GameRematch,
    MessageMute,
    WallOffer,
)
from corridorquest.store.models.ratings import GameRating, UserRating
from corridorquest.store.models.server import (
    AdminAction,
    IdempotentResponse,
    OutboxItem,
    SchemaVersion,
    ServerValue,
)
from corridorquest.store.models.tournaments import (
    Tournament,
    TournamentEntrant,
    TournamentGame,
    TournamentRound,
)

# The tables the schema step creates (migrations), in this order.
ALL_MODELS: list[type[BaseModel]] = [
    User,
    Session,
    Verification,
    LoginAttempt,
    Game,
    GamePlayer,
    GameAction,
    GameMarker,
    IdempotentResponse,
    ServerValue,
    WallOffer,
    GameMessage,
    MessageMute,
    PasswordRequest,
    InvitationMail,
    OutboxItem,
    AdminAction,
    SignupRequest,
    UserRating,
    GameRating,
    GameAnalysis,
    Tournament,
    TournamentEntrant,
    TournamentRound,
    TournamentGame,
    GameRematch,
    BotTurnClaim,
]

__all__ = [
    "ALL_MODELS",
    "AdminAction",
    "BaseModel",
    "BotTurnClaim",
    "Game",
    "GameAction",
    "GameAnalysis",
    "GameMarker",
    "GameMessage",
    "GamePlayer",
    "GameRematch",
    "GameRating",
    "IdempotentResponse",
    "IntegrityError",
    "InvitationMail",
    "LoginAttempt",
    "MessageMute",
    "OutboxItem",
    "PasswordRequest",
    "SchemaVersion",
    "ServerValue",
    "Session",
    "SignupRequest",
    "Tournament",
    "TournamentEntrant",
    "TournamentGame",
    "TournamentRound",
    "User",
    "UserRating",
    "Verification",
    "database",
    "utcnow",
]
