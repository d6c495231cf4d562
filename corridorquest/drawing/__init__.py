"""Pictures of a game view, shared by the API (`GET /games/{id}/board.svg`) and the web
pages: `board_svg.py` draws the board, `board_words.py` says it in words. Imports nothing
of ours (the view is a plain dict), so any room may use it."""
