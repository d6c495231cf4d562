"""The bots on the server (SPEC §13): beside notify/ and scheduler/, started by api/app.py.

- `driver.py`: when it is a bot's turn (after a write that made it so, at start, and every
  BOT_SAFETY_INTERVAL as a safety) reads the game as the bot's seat sees it in the API,
  has the move computed in a worker process and plays it through `services.play.play`,
  the use case a person's move goes through (base revision, idempotency key derived from
  the game and revision: with several processes exactly one plays each bot move). It also
  answers wall offers that pay the bot.
- `pacing.py`: games of bots only are played BOTS_ONLY_PACE apart (for their spectators).
- `slots.py`: the worker processes as slots (BOT_WORKERS and one for people's games) and
  the fair queue in front of them; the time cap counts a search's own time.
- `seat_views.py`: the bot's `SeatView` built from the seat's game view and history as the
  API gives them (never from the stored state).
- `worker.py`: what runs in the worker processes (`BOT_WORKERS`): the engine of
  `corridorquest.bots` and a legal fallback; imports nothing of the server.

This package's `__init__` imports nothing: the worker processes import `worker.py` alone.
"""
