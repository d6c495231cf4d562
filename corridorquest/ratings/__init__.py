"""Rating arithmetic (SPEC §14), pure like the engine: no I/O, no clock of its own.

`glicko2`: the 2-player pool (Glickman's Glicko-2, one game = one rating period, the
deviation grown for the time since the player's last game). `multiplayer`: the 4-player
pool (openskill's Plackett-Luce fed the final ranking by score), on the same scale
(start 1500, deviation 350). `services/ratings.py` stores and applies them.
"""

from corridorquest.ratings.glicko2 import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    PROVISIONAL_DEVIATION,
    Glicko,
    is_provisional,
)

__all__ = [
    "INITIAL_DEVIATION",
    "INITIAL_RATING",
    "INITIAL_VOLATILITY",
    "PROVISIONAL_DEVIATION",
    "Glicko",
    "is_provisional",
]
