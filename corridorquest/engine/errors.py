"""Errors raised by the rules engine.

The engine knows nothing about HTTP; callers translate these in one place.

    ValueError
     └── EngineError            anything the engine refuses
          ├── NotationError     the text is not valid notation ("e99: not a square on a 9x9 board")
          ├── IllegalActionError valid notation, but the rules forbid it
          │    │                ("c3h: would leave South without a path")
          │    └── GameOverError the game is finished: nothing more may be played
          └── ReplayError       a game record does not replay (the message names the step)
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class NotationError(EngineError):
    """The text is not valid notation for a square, a wall, a direction or an action."""


class IllegalActionError(EngineError):
    """The notation is valid, but the rules do not allow the action now."""


class GameOverError(IllegalActionError):
    """The game is finished; no action may be played."""


class ReplayError(EngineError):
    """A game record does not replay: the message names the step and the reason."""
