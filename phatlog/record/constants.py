"""Constants of the record format that light modules need without loading the pydantic models.

:mod:`phatlog.record.model` re-exports them; the fast reading path (``phatlog verify``) imports them from here, so
that it never imports pydantic unless a record needs explaining.
"""

from __future__ import annotations

from typing import Any, Final

FORMAT_VERSION: Final = "1.1"
#: The format versions this phatlog reads: 1.1 only adds to 1.0 (rulings, new result statuses, ...).
READ_VERSIONS: Final = ("1.0", "1.1")
GAMES: Final = ("phat", "nine_card_don", "irish_don", "oh_hell")
#: The result statuses that format 1.1 adds.
STATUSES_1_1: Final = frozenset({"conceded", "forfeited", "abandoned"})


def version_for(record: dict[str, Any]) -> str:
    """The version a writer puts in ``record`` (JSON data): "1.1" where it uses a feature that only 1.1
    has (a deal's ``rulings``, a result ``by`` or 1.1 status, a set ``revoke_penalty``), else "1.0", so
    that every record 1.0 could say is written exactly as before (see docs/format.md, "Versions")."""
    rules = record.get("rules")
    if isinstance(rules, dict) and rules.get("revoke_penalty") is not None:
        return "1.1"
    result = record.get("result")
    if isinstance(result, dict) and (result.get("by") is not None or result.get("status") in STATUSES_1_1):
        return "1.1"
    deals = record.get("deals")
    if isinstance(deals, list) and any(isinstance(d, dict) and d.get("rulings") for d in deals):
        return "1.1"
    return "1.0"
