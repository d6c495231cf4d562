"""Colour themes for the board: dark, light and translucent.

A theme gives each seat a colour (its pawn, its walls, and the border while it is that
seat's turn), a neutral colour for walls of unknown owner (masked mode), and quieter
colours for the grid dots and the coordinates. ``dark`` and ``light`` use the 256-colour
palette tuned for a dark or light background; ``translucent`` uses the terminal's own 16
colours so that it follows a translucent or custom-coloured terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

Colour = str | int | None
THEME_NAMES = ("dark", "light", "translucent")
DEFAULT_THEME = "dark"


@dataclass(frozen=True)
class Theme:
    name: str
    seats: dict[str, Colour]
    neutral: Colour
    grid: Colour
    coords: Colour
    idle_border: Colour

    def paint(self, text: str, colour: Colour, bold: bool = False) -> str:
        if colour is None and not bold:
            return text
        return click.style(text, fg=colour, bold=True if bold else None)

    def seat(self, text: str, seat: str | None, bold: bool = False) -> str:
        colour = self.seats.get(seat, self.neutral) if seat else self.neutral
        return self.paint(text, colour, bold)


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark",
        seats={"north": 203, "east": 221, "south": 75, "west": 114},
        neutral=252,
        grid=240,
        coords=245,
        idle_border=244,
    ),
    "light": Theme(
        name="light",
        seats={"north": 160, "east": 130, "south": 25, "west": 28},
        neutral=236,
        grid=250,
        coords=242,
        idle_border=246,
    ),
    "translucent": Theme(
        name="translucent",
        seats={
            "north": "bright_red",
            "east": "bright_yellow",
            "south": "bright_blue",
            "west": "bright_green",
        },
        neutral="white",
        grid=None,
        coords=None,
        idle_border="white",
    ),
}


def get_theme(name: str | None) -> Theme:
    """The named theme; the default for an unknown or missing name."""
    return THEMES.get(name or DEFAULT_THEME, THEMES[DEFAULT_THEME])
