"""Constants of the record format that light modules need without loading the pydantic models.

:mod:`phatlog.model` re-exports them; the fast reading path (``phatlog verify``) imports them from here, so
that it never imports pydantic unless a record needs explaining.
"""

from __future__ import annotations

from typing import Final

FORMAT_VERSION: Final = "1.0"
GAMES: Final = ("phat", "nine_card_don", "irish_don", "oh_hell")
