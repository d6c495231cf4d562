"""The rules engine of Corridor Quest: pure, deterministic, no I/O (SPEC §2 and §6)."""

from corridorquest.engine.actions import Action, PlaceWall, Step, format_action
from corridorquest.engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    NotationError,
    ReplayError,
)
from corridorquest.engine.geometry import (
    CLOCKWISE,
    PLAYER_COUNTS,
    SIZES,
    Seat,
    Square,
    Wall,
    check_variant,
    initial_walls,
    is_goal,
    progress_weight,
    seats_for,
    start_square,
    wall_cost,
)
from corridorquest.engine.markers import (
    Marker,
    format_marker,
    is_under,
    markers_under,
    parse_marker,
)
from corridorquest.engine.notation import (
    format_square,
    format_wall,
    parse_direction,
    parse_square,
    parse_wall,
)
from corridorquest.engine.perft import divide, perft
from corridorquest.engine.record import GameRecord, assign_seats
from corridorquest.engine.scoring import base_score, final_scores, score_game
from corridorquest.engine.state import GameState

__all__ = [
    "CLOCKWISE",
    "PLAYER_COUNTS",
    "SIZES",
    "Action",
    "EngineError",
    "GameOverError",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "Marker",
    "NotationError",
    "PlaceWall",
    "ReplayError",
    "Seat",
    "Square",
    "Step",
    "Wall",
    "assign_seats",
    "base_score",
    "check_variant",
    "divide",
    "final_scores",
    "format_action",
    "format_marker",
    "format_square",
    "format_wall",
    "initial_walls",
    "is_goal",
    "is_under",
    "markers_under",
    "parse_direction",
    "parse_marker",
    "parse_square",
    "parse_wall",
    "perft",
    "progress_weight",
    "score_game",
    "seats_for",
    "start_square",
    "wall_cost",
]
