"""What the engine reads of a record.

The engine reads records through these protocols, so that it runs the same on the fast path's msgspec
structs and on the pydantic models: both have these attributes. Cards are canonical card strings here;
the schema has already made sure of that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class TrickView(Protocol):
    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> Sequence[str]: ...
    @property
    def winner(self) -> int | None: ...


class ScoreView(Protocol):
    @property
    def points(self) -> Sequence[int] | None: ...
    @property
    def total(self) -> Sequence[int] | None: ...


class DealView(Protocol):
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[str]] | None: ...
    @property
    def tricks(self) -> Sequence[TrickView] | None: ...
    @property
    def score(self) -> ScoreView | None: ...


class PlayerView(Protocol):
    @property
    def name(self) -> str: ...


class ResultView(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> Sequence[int] | None: ...
    @property
    def total(self) -> Sequence[int] | None: ...


class RecordView(Protocol):
    @property
    def players(self) -> Sequence[PlayerView]: ...
    @property
    def rules(self) -> Any: ...
    @property
    def deals(self) -> Sequence[Any]: ...
    @property
    def result(self) -> ResultView | None: ...


def game_of(record: Any) -> str:
    """The game of a record: a model's ``game`` field, or a fast-path struct's union tag."""
    game = getattr(record, "game", None)
    if isinstance(game, str):
        return game
    tag: str = type(record).__struct_config__.tag
    return tag
