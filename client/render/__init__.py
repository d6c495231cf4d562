"""Text rendering for the clients: the board, game details, tables (pure functions)."""
