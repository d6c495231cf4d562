"""The web front for watching games: pages, and the board as SVG."""
