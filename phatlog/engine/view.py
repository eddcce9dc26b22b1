"""How the engine reads a record.

The engine reads records by attribute, so that it runs the same on the fast path's msgspec structs and
on the pydantic models: both have the models' field names. Cards are canonical card strings there; the
schema has already made sure of that. The one thing the two differ in is the game: a model has a
``game`` field, while a fast-path struct carries it as its union tag.
"""

from __future__ import annotations

from typing import Any


def game_of(record: Any) -> str:
    """The game of a record: a model's ``game`` field, or a fast-path struct's union tag."""
    game = getattr(record, "game", None)
    if isinstance(game, str):
        return game
    tag: str = type(record).__struct_config__.tag
    return tag
