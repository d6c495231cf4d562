"""Tournaments, pure (SPEC §15, issue 30): who plays whom in each round (`pairing.py`) and
the standings (`standings.py`). No I/O, no clock, no randomness; the services store the
entrants, rounds and games and ask these functions what to do next.
"""
