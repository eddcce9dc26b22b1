"""Reports on records: ``phatlog replay``'s trick-by-trick summary.

``summary`` builds the summary of a record as data (dataclasses, and ``to_json`` for programs) from the
engine's events; ``text``, ``markdown`` and ``rich`` render it for people. Only ``summary`` reads the
engine: the renderers hold no game logic, they lay out what the summary says.
"""

from __future__ import annotations

from phatlog.report.summary import REPLAY_VERSION, SelectionError, Summary, build, failed

__all__ = ["REPLAY_VERSION", "SelectionError", "Summary", "build", "failed"]
