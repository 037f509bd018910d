"""The terminal client: a board drawn with Rich, menus of legal choices, and the game loop."""

from .board import board, fuel_on_plants, plant_text
from .menus import Command, Followup, Menu, menu_for
from .session import Session

__all__ = ["Command", "Followup", "Menu", "Session", "board", "fuel_on_plants", "menu_for", "plant_text"]
